package fakes

import (
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// The observations of the faults that lose a task across a restart and then
// mishandle a follow-up naming it (with its contextId, or behind a
// TaskNotFoundError answer), added to faultCases so that TestFaults runs
// each with the fault on and off. The clean agent keeps the task (its store
// is shared), so the follow-up continues it.
func init() {
	observe := func(e *faultEnv) string {
		a := e.shared("a")
		task := sendTask(e.t, a.rpc(), userMsg("x"), nil)
		a.stop()
		a2 := e.shared("a")
		if _, err := a2.rpc().GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID}); err == nil {
			return "" // kept: nothing lost, nothing to mishandle
		}
		// Lost, as under lose-tasks-on-restart: what a follow-up does.
		alone := userMsg("follow-up")
		alone.TaskID = task.ID
		if resp, err := a2.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: alone, Configuration: immediate()}); err == nil {
			return fmt.Sprintf("a follow-up naming the lost task %s alone was answered with task %s", task.ID, resp.Task.ID)
		}
		pair := userMsg("follow-up with its context")
		pair.TaskID, pair.ContextID = task.ID, task.ContextID
		if resp, err := a2.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: pair, Configuration: immediate()}); err == nil {
			return fmt.Sprintf("a follow-up naming the lost task %s with its context was answered with task %s", task.ID, resp.Task.ID)
		}
		// Both answered TaskNotFoundError: a later look at the id.
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			if got, err := a2.rpc().GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID}); err == nil {
				return fmt.Sprintf("task %s, answered TaskNotFoundError, showed up again as %s in context %s with %d history message(s)",
					task.ID, got.Status.State, got.ContextID, len(got.History))
			}
			time.Sleep(50 * time.Millisecond)
		}
		return "the task was lost and stayed lost" // the lost task itself is the fault's doing
	}
	for _, f := range []string{faultLostTaskRecreatedWithContext, faultLostTaskContinuedInContext, faultLostTaskRecreatedAfterNotFound, faultLostTaskRevivedAfterNotFound} {
		faultCases[f] = observe
	}
}

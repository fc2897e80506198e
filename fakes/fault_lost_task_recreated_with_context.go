package fakes

import (
	"context"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// faultLostTaskRecreatedWithContext: scenario 1 in the shape SDK clients
// send. The instance loses the tasks created before it started (as
// lose-tasks-on-restart does), and answers a follow-up naming only a lost
// taskId with TaskNotFoundError, as it should; but a follow-up naming the
// lost taskId together with its contextId, which is what SDK clients send,
// re-creates the task under that id in that context, as a fresh task
// holding only the follow-up.
var faultLostTaskRecreatedWithContext = register(FaultInfo{
	Name:        "lost-task-recreated-with-context",
	Scenario:    scenarioRotation,
	Description: "Tasks created before the instance started are unknown to it; a follow-up naming a lost taskId alone gets TaskNotFoundError, but one naming the taskId with its contextId re-creates the task under that id, in that context, as a fresh task holding only the follow-up.",
	Specs:       []string{"ROLL-002", "ROLL-003"},
})

// losesTasks says the instance behaves as if task state were in memory:
// tasks created before it started are unknown to it and no orphan is
// adopted (lose-tasks-on-restart and the faults that add what a follow-up
// to such a task then does).
func (a *Agent) losesTasks() bool {
	return a.faults.has(faultLoseTasksOnRestart) || a.faults.has(faultLostTaskRecreatedWithContext) ||
		a.faults.has(faultLostTaskContinuedInContext) || a.faults.has(faultLostTaskRecreatedAfterNotFound) ||
		a.faults.has(faultLostTaskRevivedAfterNotFound)
}

// lostFollowUp is what, under the faults of this family, becomes of a
// message naming task id that this instance does not know (notFound, the
// answer it would give): a task re-created or continued in the message's
// context, or the TaskNotFoundError answer with a write-behind re-creation
// after it.
func (a *Agent) lostFollowUp(ctx context.Context, msg a2a.Message, d directive.Directive, text string,
	inline *a2a.TaskPushNotificationConfig, id string, notFound *opError) (*store.Task, *opError) {
	switch {
	case msg.ContextID != "" && a.faults.has(faultLostTaskRecreatedWithContext):
		return a.createTask(ctx, id, msg, d, text, inline, true)
	case msg.ContextID != "" && a.faults.has(faultLostTaskContinuedInContext):
		msg.TaskID = ""
		return a.createTask(ctx, newID(), msg, d, text, inline, false)
	case a.faults.has(faultLostTaskRecreatedAfterNotFound):
		a.writeBehind(ctx, lostTaskWriteBehind, id, msg, d, text, "")
	case a.faults.has(faultLostTaskRevivedAfterNotFound):
		a.writeBehind(ctx, lostTaskRevivalDelay, id, msg, d, text, a.storedContext(ctx, id))
	}
	return nil, notFound
}

// writeBehind re-creates task id from msg after delay, in contextID ("" for
// a fresh one), as a worker that applies a queued message behind the answer
// the client already got. The caller's identity carries over.
func (a *Agent) writeBehind(ctx context.Context, delay time.Duration, id string, msg a2a.Message, d directive.Directive, text, contextID string) {
	bg := context.WithoutCancel(ctx)
	msg.ContextID = contextID
	a.workers.add()
	go func() {
		defer a.workers.done()
		select {
		case <-time.After(delay):
		case <-a.workCtx.Done():
			return
		}
		if _, oe := a.createTask(bg, id, msg, d, text, nil, true); oe != nil {
			a.log.Warn("write-behind re-creation", "task", id, "err", oe.Error())
		}
	}()
}

// storedContext is the contextId the store holds for task id ("" for none).
func (a *Agent) storedContext(ctx context.Context, id string) string {
	var contextID string
	_ = a.st.Update(ctx, func(tx *store.Tx) error {
		rec, err := tx.Task(id)
		if err == nil {
			contextID = rec.Task.ContextID
		}
		return nil
	})
	return contextID
}

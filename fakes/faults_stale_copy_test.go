package fakes

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// turnsAcross runs a task through three turns on two instances sharing a
// store, each turn asking for input again with an artifact of its own: the
// first through A, the second through B, the third through A. It returns
// both instances, the task after the third turn, and the artifact the
// second turn added.
func turnsAcross(e *faultEnv) (a, b *node, task *a2a.Task, second string) {
	a, b = e.shared("a"), e.shared("b")
	one := 1
	ask := directive.Directive{Outcome: directive.OutcomeInputRequired, ArtifactChunks: &one}
	task = sendTask(e.t, a.rpc(), scripted(ask), nil)
	for i, n := range []*node{b, a} {
		m := scripted(ask)
		m.TaskID = task.ID
		task = sendTask(e.t, n.rpc(), m, nil)
		if task.Status.State != a2a.TaskStateInputRequired {
			e.t.Fatalf("turn %d: %s, want TASK_STATE_INPUT_REQUIRED", i+2, task.Status.State)
		}
		if i == 0 {
			second = task.Artifacts[len(task.Artifacts)-1].ArtifactID
		}
	}
	return a, b, task, second
}

// resume-from-stale-copy: the third turn, through A, starts from the copy A
// left after the first: the second turn's artifact (added through B) is
// gone. Clean, the task holds all three.
func init() {
	faultCases[faultResumeFromStaleCopy] = func(e *faultEnv) string {
		_, b, task, second := turnsAcross(e)
		got := getTask(e.t, b.rpc(), task.ID)
		for _, art := range got.Artifacts {
			if art.ArtifactID == second {
				return ""
			}
		}
		return fmt.Sprintf("the second turn's artifact %s is gone after the third: %d artifact(s), %d history message(s)", second, len(got.Artifacts), len(got.History))
	}
}

// stale-copy-reopens-ended: after the three turns the task is canceled
// through B; a follow-up through A, which last left the task waiting for
// input, reopens it. Clean, the follow-up is refused and the task stays
// TASK_STATE_CANCELED.
func init() {
	faultCases[faultStaleCopyReopensEnded] = func(e *faultEnv) string {
		a, b, task, _ := turnsAcross(e)
		if _, err := b.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID}); err != nil {
			e.t.Fatalf("cancel through B: %v", err)
		}
		m := scripted(directive.Directive{Outcome: directive.OutcomeInputRequired})
		m.TaskID = task.ID
		_, err := a.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m})
		if got := getTask(e.t, b.rpc(), task.ID); err == nil || got.Status.State != a2a.TaskStateCanceled {
			return fmt.Sprintf("follow-up through A after the cancel: error %v; the task is now %s", err, got.Status.State)
		}
		return ""
	}
}

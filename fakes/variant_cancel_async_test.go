package fakes

import (
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// An asynchronous cancel answers with the task as it stands, applies the
// cancel later to a task still working, and leaves a task that ended first
// in the state it ended in.
func TestAsyncCancel(t *testing.T) {
	n := startNode(t, Options{Name: "async", AsyncCancel: 100 * time.Millisecond})
	long := sendTask(t, n.rpc(), scripted(directive.Directive{DelayMs: 60_000}), immediate())
	got, err := n.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: long.ID})
	if err != nil || got.Status.State.Terminal() {
		t.Fatalf("cancel answered %v, %v: want the task still in progress", got, err)
	}
	eventually(t, "the queued cancel to take effect", func() string {
		if s := getTask(t, n.rpc(), long.ID).Status.State; s != a2a.TaskStateCanceled {
			return string(s)
		}
		return ""
	})
	short := sendTask(t, n.rpc(), scripted(directive.Directive{DelayMs: 20}), immediate())
	if _, err := n.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: short.ID}); err != nil {
		t.Fatalf("cancel of a working task: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	if s := getTask(t, n.rpc(), short.ID).Status.State; s != a2a.TaskStateCompleted {
		t.Errorf("a task that ended before its queued cancel is %s, want TASK_STATE_COMPLETED", s)
	}
}

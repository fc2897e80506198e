package suites

import (
	"errors"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// Every spec reads a cancel by one rule: applied only when the task ended
// canceled, outran only when it ended by itself first; a refusal of a task
// still working, or a pending cancel that had not settled, is neither.
func TestCanceledReadsOneRule(t *testing.T) {
	working := &a2a.Task{ID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}
	notCancelable := &client.Error{Class: client.A2A, Kind: a2a.ErrTaskNotCancelable}
	for _, c := range []struct {
		name            string
		got             Canceled
		applied, outran bool
	}{
		{"acknowledged", Canceled{Answer: invariants.CancelAcked, Settled: a2a.TaskStateCanceled}, true, false},
		{"asynchronous, then canceled", Canceled{Answer: invariants.CancelPending, Task: working, Settled: a2a.TaskStateCanceled}, true, false},
		{"asynchronous, then completed first", Canceled{Answer: invariants.CancelPending, Task: working, Settled: a2a.TaskStateCompleted}, false, true},
		{"asynchronous, not settled", Canceled{Answer: invariants.CancelPending, Task: working}, false, false},
		{"refused, task had ended", Canceled{Answer: invariants.CancelRefused, Err: notCancelable, Settled: a2a.TaskStateCompleted}, false, true},
		{"refused while working", Canceled{Answer: invariants.CancelRefused, Err: notCancelable}, false, false},
		{"unknown", Canceled{Answer: invariants.CancelUnknown, Err: errors.New("reset")}, false, false},
	} {
		if c.got.Applied() != c.applied || c.got.Outran() != c.outran {
			t.Errorf("%s: applied %v outran %v, want %v %v", c.name, c.got.Applied(), c.got.Outran(), c.applied, c.outran)
		}
	}
	if got := CancelAnswerOf(nil, notCancelable); got != invariants.CancelRefused {
		t.Errorf("TaskNotCancelableError reads %s, want refused", got)
	}
	if got := CancelAnswerOf(working, nil); got != invariants.CancelPending {
		t.Errorf("a WORKING answer reads %s, want pending", got)
	}
}

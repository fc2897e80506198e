package suites

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// CancelAnswerOf reads a CancelTask answer by the one rule every spec uses
// (invariants.AnswerOf): only a terminal TASK_STATE_CANCELED answer
// acknowledges a cancel; a non-terminal task is a cancel still pending (an
// asynchronous cancel); TaskNotCancelableError or the task already in
// another terminal state is a cancel the task outran; anything else is
// unknown.
func CancelAnswerOf(task *a2a.Task, err error) invariants.CancelAnswer {
	var kind a2a.ErrorKind
	if ce, ok := client.AsError(err); ok {
		kind = ce.Kind
	}
	return invariants.AnswerOf(task, err != nil, kind)
}

// Canceled is a cancel as a spec judges it: the answer read by the one
// rule and, for a pending (asynchronous) cancel, where the task settled.
type Canceled struct {
	Answer invariants.CancelAnswer
	// Task is the answer's task (nil on an error), Err the error.
	Task *a2a.Task
	Err  error
	// Settled is the terminal state the task ended in: CANCELED for an
	// acknowledged cancel, the state GetTask showed once a pending cancel
	// settled, "" when it had not within the patience (or the answer was
	// refused or unknown).
	Settled a2a.TaskState
	// Last is the last task GetTask showed while a pending cancel settled.
	Last *a2a.Task
}

// Applied says the task ended canceled: acknowledged at once, or pending
// and then applied.
func (c Canceled) Applied() bool { return c.Settled == a2a.TaskStateCanceled }

// Outran says the task ended by itself before the cancel took effect: the
// cancel was refused (TaskNotCancelableError, or the task already in
// another terminal state) of a task that had ended, or pending and then
// overtaken by the task's own end. Every one of these is an answer A2A
// v1.0.1 §3.1.5 allows ("success is not guaranteed").
func (c Canceled) Outran() bool {
	switch c.Answer {
	case invariants.CancelRefused, invariants.CancelPending:
		return c.Settled.Terminal() && c.Settled != a2a.TaskStateCanceled
	}
	return false
}

// CancelAndSettle cancels task id through c and reads the answer by the
// one rule (CancelAnswerOf). A pending (asynchronous) cancel is followed by
// GetTask through c until the task is terminal or the patience runs out;
// the spec then judges the state it settled in, which may be CANCELED or
// the task's own end. It never ends the spec.
func (t *T) CancelAndSettle(ctx context.Context, c *client.Client, id string) Canceled {
	task, err := t.Cancel(ctx, c, id)
	got := Canceled{Answer: CancelAnswerOf(task, err), Task: task, Err: err}
	switch got.Answer {
	case invariants.CancelAcked:
		got.Settled = a2a.TaskStateCanceled
	case invariants.CancelRefused:
		if task != nil {
			got.Settled = task.Status.State
		} else if now, gerr := t.Get(ctx, c, id); gerr == nil && now.Status.State.Terminal() {
			// Refused: had the task ended first, or does the agent
			// refuse to cancel it while it works?
			got.Settled, got.Last = now.Status.State, now
		}
	case invariants.CancelPending:
		last, _, ok := t.Await(ctx, c, id, Terminal, t.Patience())
		got.Last = last
		if ok {
			got.Settled = last.Status.State
		}
	}
	return got
}

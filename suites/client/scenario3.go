package client

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Scenario 3 as a client meets it: a cancel the agent acknowledges and then
// "completes" anyway, and a card served stale by an edge cache.

// cancelBehaviour is the task of the cancel case: WORKING after one step,
// then eight artifact chunks, then COMPLETED, a step apart, which the agent
// carries out in spite of the cancel (fault cancel-then-complete). The
// chunks keep the task WORKING for nine steps (2.7 s on the clean agent),
// so that a client that takes a second or more to act on WORKING still
// cancels a task that is running: with one chunk, a client a second slow
// (client variant slow) found the task completed, and the spec could judge
// nothing.
var cancelBehaviour = directive.Directive{Version: 1, Outcome: directive.OutcomeCompleted, DelayMs: 300, ArtifactChunks: intPtr(8)}

func intPtr(n int) *int { return &n }

// cancelSteps is how many steps cancelBehaviour takes.
var cancelSteps = len(cancelBehaviour.Steps())

// stepOf is how long one step of d takes on the stage's agent: the
// directive's delay, or the agent's own least step time when that is
// longer (a slow agent, fakes.Options.StepDelay).
func stepOf(o *fakes.Options, d directive.Directive) time.Duration {
	return max(d.Delay(), o.StepDelay)
}

// CLI-023: no later terminal state is merged after an acknowledged cancel (scenario 3 invariant).
var _ = suites.Spec("CLI-023", func(ctx context.Context, t *suites.T) {
	var served Served
	var (
		mu       sync.Mutex
		canceled = map[string]bool{}
		// hold bounds how long the stage holds a GetTask that follows the
		// acknowledged cancel until the agent has moved the task on: the
		// script's steps and one more, as this agent takes them. A client
		// that polls before the agent completes the task is thereby shown
		// the later state too.
		hold = time.Duration(cancelSteps+1) * cancelBehaviour.Delay()
	)
	hook := func(s *Stage, e HookEvent) {
		r := e.Request
		switch {
		case e.After && r.Op == a2a.MethodCancelTask:
			mu.Lock()
			canceled[r.TaskID] = true
			mu.Unlock()
		case !e.After && r.Op == a2a.MethodGetTask:
			mu.Lock()
			c := canceled[r.TaskID]
			mu.Unlock()
			mu.Lock()
			h := hold
			mu.Unlock()
			if c {
				awaitMovedOn(ctx, s.Agent(), r.TaskID, h)
			}
		}
	}
	o := RunCase(ctx, t, Case{Name: "cancel-then-complete", Action: Cancel, Agent: Agent{
		Faults:    []string{"cancel-then-complete", "stream-no-close"},
		Behaviour: cancelBehaviour,
		Options: func(o *fakes.Options) {
			mu.Lock()
			hold = time.Duration(cancelSteps+1) * stepOf(o, cancelBehaviour)
			mu.Unlock()
		},
		Front: Watch(&served, a2a.TaskStateCompleted),
		Hook:  hook,
	}})
	states := served.States()
	var ack *ServedState
	for i := range states {
		if states[i].Op == a2a.MethodCancelTask && states[i].State == a2a.TaskStateCanceled {
			ack = &states[i]
			break
		}
	}
	if ack == nil {
		t.Indeterminate("no cancel of the client's was acknowledged with TASK_STATE_CANCELED (the client may not have canceled: driver result %s), so there was nothing to guard.", o.Driver.ResultLine)
	}
	var later []string
	for _, s := range states {
		if s.TaskID == ack.TaskID && s.At.After(ack.At) && s.State.Terminal() && s.State != a2a.TaskStateCanceled {
			later = append(later, fmt.Sprintf("%s via %s %s after the acknowledgement", s.State, s.Op, s.At.Sub(ack.At).Round(time.Millisecond)))
		}
	}
	if len(later) == 0 {
		t.Indeterminate("the agent's later terminal state never reached the client (it stopped reading the stream and never polled, or polled before the agent moved on): nothing to merge. Served: %s.", describeServed(states))
	}
	t.Observe("served after the acknowledged cancel", strings.Join(later, "; "))
	judgeAfterCancel(t, o, ack.TaskID, later)
})

// judgeAfterCancel judges what the client believes of task id, canceled
// and acknowledged CANCELED, after the agent offered it the later terminal
// states later (CLI-023, CLI-038): taking one fails (terminal states are
// final); losing the acknowledged CANCELED, or keeping it without raising
// the contradiction, warns (scenario 3's guard, no MUST).
func judgeAfterCancel(t *suites.T, o *Outcome, id string, later []string) {
	r := o.Result
	where := "the driver's result: " + o.Driver.ResultLine
	switch {
	case r.TaskID != "" && r.TaskID != id:
		t.Indeterminate("the client reports task %q, not the task it canceled (%s): the spec cannot tell what it believes of the canceled one.", r.TaskID, id)
	case a2a.TaskState(r.State).Terminal() && r.State != string(a2a.TaskStateCanceled):
		t.Violated(invariants.Violation{Invariant: "client-terminal-after-cancel", Where: where,
			Expected: fmt.Sprintf("task %s kept TASK_STATE_CANCELED, as the agent acknowledged (a task in a terminal state cannot restart)", id),
			Actual:   fmt.Sprintf("the client took %s, served later (%s)", r.State, strings.Join(later, "; "))})
	case r.State != string(a2a.TaskStateCanceled):
		t.Should(invariants.Violation{Invariant: "client-terminal-after-cancel", Where: where,
			Expected: "the acknowledged TASK_STATE_CANCELED kept as the task's state",
			Actual:   fmt.Sprintf("the client believes %q: it took no later terminal state, but lost the acknowledged one", r.State)})
	case len(r.Warnings) == 0 && r.Error == nil:
		t.Should(invariants.Violation{Invariant: "client-raises-terminal-after-cancel", Where: where,
			Expected: "the later terminal state raised (a warning or an error): scenario 3 routes it to reconciliation",
			Actual:   "the client kept CANCELED and said nothing about " + strings.Join(later, "; ")})
	default:
		raised := strings.Join(r.Warnings, "; ")
		if r.Error != nil {
			raised = strings.TrimPrefix(raised+"; error "+r.Error.Class+": "+r.Error.Message, "; ")
		}
		t.Observe("raised", raised)
	}
}

// awaitMovedOn waits, at most max, until the instance's task is in a
// terminal state other than CANCELED, woken by the store's writes.
func awaitMovedOn(ctx context.Context, a *fakes.Agent, id string, max time.Duration) {
	awaitStore(ctx, a, max, func() bool {
		rec, err := a.Store().GetTask(ctx, id)
		return err != nil || rec.Task.Status.State.Terminal() && rec.Task.Status.State != a2a.TaskStateCanceled
	})
}

func describeServed(ss []ServedState) string {
	if len(ss) == 0 {
		return "nothing"
	}
	var out []string
	for _, s := range ss {
		out = append(out, s.Op+" "+string(s.State))
	}
	return strings.Join(out, ", ")
}

// CLI-029: a capability only the stale card claims is raised or given up (scenario 3; no MUST: warn).
var _ = suites.Spec("CLI-029", func(ctx context.Context, t *suites.T) {
	var (
		mu    sync.Mutex
		stale bool
	)
	hook := func(s *Stage, e HookEvent) {
		if !e.After || !e.Request.Card || e.Status != 200 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if stale {
			return
		}
		// The edge keeps the card it just served; behind it the agent moves
		// on to a build without streaming.
		if err := s.Rotate(ctx, Rotation{LoseTasks: true}); err == nil {
			s.ServeStale(true)
			stale = true
		}
	}
	o := RunCase(ctx, t, Case{Name: "stale-streaming-claim", Action: Stream, Agent: Agent{
		Options: func(o *fakes.Options) {
			if o.Generation >= 2 {
				o.DisableStreaming = true
			}
		},
		Hook: hook,
	}})
	mu.Lock()
	defer mu.Unlock()
	if !stale {
		t.Indeterminate("the client fetched no card, so no stale copy could be served (driver result: %s).", o.Driver.ResultLine)
	}
	var streamed, sent []Request
	for _, r := range o.Ops() {
		switch r.Op {
		case a2a.MethodSendStreamingMessage:
			streamed = append(streamed, r)
		case a2a.MethodSendMessage:
			sent = append(sent, r)
		}
	}
	if len(streamed) == 0 {
		t.Indeterminate("the client never relied on the stale streaming claim (no SendStreamingMessage; %d SendMessage): nothing to confirm or give up.", len(sent))
	}
	r := o.Result
	switch {
	case r.Error != nil:
		t.Observe("outcome", fmt.Sprintf("the client raised the refusal (%s: %s)", r.Error.Class, r.Error.Message))
	case len(sent) > 0 && isTerminal(r.State):
		t.Finding("the client gave up streaming when the live agent refused it, and finished the task with SendMessage (%s)", r.State)
	default:
		t.Violated(invariants.Violation{Invariant: "client-stale-capability", Where: Where(streamed[0]),
			Expected: "the agent's UnsupportedOperationError raised, or a non-streaming send that finishes the task",
			Actual:   fmt.Sprintf("no error, and the client believes task %q in state %q: the refusal was read as a finished stream", r.TaskID, r.State)})
	}
})

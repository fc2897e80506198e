package webhook

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// cancelScript is a task that works long enough to be canceled while working.
var cancelScript = suites.Script{Outcome: directive.OutcomeCompleted, Delay: 2 * Step, Least: suites.PromptSlow}

// PUSH-008 (§3.1.5, §4.1.3, §4.3.3): pushes after an acknowledged cancel.
// The pushes join the polls in one history, checked by the LIFE-011
// checker (invariants.TerminalImmutable); the task is watched past the
// moment its script would have ended on this agent.
var _ = suites.Spec("PUSH-008", func(ctx context.Context, t *suites.T) {
	needPush(t)
	c := t.Client()
	h := newHook(t, "Bearer")
	hist := t.History()
	var n atomic.Int32
	t.Env.Webhook.OnDelivery(h.Token, func(d webhook.Delivery) {
		state, ok := d.Resp.State()
		if d.DecodeErr != nil || !ok || !d.Trusted() || !d.Acknowledged() {
			return
		}
		at := hist.Now()
		hist.Add(invariants.Observation{TaskID: d.TaskID(), State: state, Source: invariants.FromPush,
			Issued: at, Received: at, Channel: "push", Ref: fmt.Sprintf("push %d", n.Add(1))})
	})
	expected := t.Expected(ctx, c, cancelScript)
	created := time.Now()
	task := start(ctx, t, c, cancelScript, h)
	until := t.WatchUntil(created, expected)
	got, err := t.Cancel(ctx, c, task.ID)
	acked := time.Now()
	if err != nil {
		now, gerr := t.Get(ctx, c, task.ID)
		if gerr == nil && now.Status.State.Terminal() && now.Status.State != a2a.TaskStateCanceled {
			t.TooFast("task %s was %s before the cancel landed (%s): the cancel lost the race, which the spec allows, so there is no acknowledged cancel to judge", task.ID, now.Status.State, suites.ErrText(err))
		}
		t.Indeterminate("the cancel of working task %s was refused (%s), which the spec allows (LIFE-012 judges cancels)", task.ID, suites.ErrText(err))
	}
	t.Observe("cancel-answer", string(got.Status.State))
	ended := t.WaitFor(ctx, c, task.ID, "terminal", suites.Terminal)
	if ended.Status.State != a2a.TaskStateCanceled {
		// LIFE-012's failure; here the acknowledged cancel did not stick, and
		// the history checker below reports it if a canceled state was seen.
		t.Observe("ended", string(ended.Status.State))
	}
	interval := max(suites.Poll, min(expected/20, 500*time.Millisecond))
	for time.Now().Before(until) && ctx.Err() == nil {
		_, _ = t.Get(ctx, c, task.ID)
		pause(ctx, interval)
	}
	t.Observe("watched", fmt.Sprintf("until %s after the task's creation (its script ends at %s on this agent)",
		time.Since(created).Round(time.Millisecond), expected.Round(time.Millisecond)))
	canceled := func(s a2a.TaskState) bool { return s == a2a.TaskStateCanceled }
	var w suites.PushWait
	if ended.Status.State == a2a.TaskStateCanceled {
		w = awaitPush(ctx, t, h, task.ID, canceled, acked)
		observeLatency(t, w)
	}
	checkBodies(t, h, task.ID, task.ContextID)
	t.Observe("pushes", describe(h.Deliveries(t)))
	t.Record(invariants.TerminalImmutable(hist.Observations())...)
	if ended.Status.State == a2a.TaskStateCanceled && !w.Came {
		missing(ctx, t, c, h, task.ID, "TASK_STATE_CANCELED (the cancel was acknowledged)", w, canceled, acked)
	}
})

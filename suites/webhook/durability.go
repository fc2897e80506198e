package webhook

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// PUSH-009 (§3.1.7): configs survive a restart of the only instance. The
// spec restarts the agent, so it runs alone (Exclusive).
var _ = suites.Spec("PUSH-009", func(ctx context.Context, t *suites.T) {
	needPush(t)
	r, ok := t.Env.Topology.(suites.Restarter)
	if !ok {
		driver := "none (--target)"
		if t.Env.Topology != nil {
			driver = t.Env.Topology.Driver()
		}
		t.CouldNotRun("the topology driver %s cannot restart the agent.", driver)
	}
	c := t.Client()
	h := newHook(t, "Bearer")
	task := waitingTask(ctx, t, c, nil)
	defer endTask(ctx, c, task)
	create(ctx, t, c, h, task.ID)
	began := time.Now()
	if err := r.Restart(ctx); err != nil {
		t.Indeterminate("the harness could not restart the agent (%s driver): %v", t.Env.Topology.Driver(), err)
	}
	t.Observe("restart", fmt.Sprintf("%s driver, %s", t.Env.Topology.Driver(), time.Since(began).Round(time.Millisecond)))
	// The task must be there to hold the config; a task lost on restart is
	// another failure, judged elsewhere, and leaves this one unknown.
	// Connections to the old instance are gone: a transport error is
	// retried until the new one answers.
	now, err := t.Get(ctx, c, task.ID)
	for deadline := time.Now().Add(t.Patience()); err != nil && time.Now().Before(deadline) && ctx.Err() == nil; {
		if ce, ok := client.AsError(err); !ok || ce.Class != client.Transport {
			break
		}
		pause(ctx, 100*time.Millisecond)
		now, err = t.Get(ctx, c, task.ID)
	}
	if err != nil {
		t.Indeterminate("task %s is gone after the restart (%s), so whether its push config survived cannot be judged", task.ID, suites.ErrText(err))
	}
	if now.Status.State.Terminal() {
		t.TooFast("task %s was %s after the restart, so its config no longer had to persist", task.ID, now.Status.State)
	}
	where := func(op string) string { return op + " after the restart (" + c.Binding() + ")" }
	survived := true
	if got, err := c.GetTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: h.Config.ID}); err != nil {
		survived = false
		t.Record(invariants.Violation{Invariant: "push-config-durable", Where: where("GetTaskPushNotificationConfig " + h.Config.ID),
			Expected: "the config created before the restart (task " + task.ID + " is still " + string(now.Status.State) + ")", Actual: suites.ErrText(err)})
	} else if got.URL != h.Config.URL {
		t.Record(invariants.Violation{Invariant: "push-config-durable", Where: where("GetTaskPushNotificationConfig " + h.Config.ID),
			Expected: "url " + h.Config.URL, Actual: fmt.Sprintf("%q", got.URL)})
	}
	if list, err := listAll(ctx, c, task.ID); err != nil || !slices.Contains(ids(list), h.Config.ID) {
		actual := fmt.Sprintf("ids %v", ids(list))
		if err != nil {
			actual = suites.ErrText(err)
		}
		t.Record(invariants.Violation{Invariant: "push-config-durable", Where: where("ListTaskPushNotificationConfigs for task " + task.ID),
			Expected: "id " + h.Config.ID, Actual: actual})
	}
	// And it is delivered to.
	answer(ctx, t, c, task)
	ended := t.WaitFor(ctx, c, task.ID, "terminal", suites.Terminal)
	seen := time.Now()
	w := awaitPush(ctx, t, h, task.ID, isTerminal, seen)
	checkBodies(t, h, task.ID, task.ContextID)
	t.Observe("pushes", describe(h.Deliveries(t)))
	observeLatency(t, w)
	if !w.Came && survived {
		missing(ctx, t, c, h, task.ID, "the terminal state "+string(ended.Status.State)+" (after the restart)", w, isTerminal, seen)
	}
})

package rollout

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// perInstance is how many tasks ROLL-003 starts on each instance.
const perInstance = 2

// ROLL-003 (§3.1.7, §4.3, scenario 2): tasks run on every instance, each with
// a push config of its own (credentials included) registered through another
// instance, while every instance is replaced one by one. Every task reaches
// the terminal state its script set, every config gets a delivery of that
// terminal state, and every delivery carries the config's credentials and
// names its task, before and after the roll (judgePushes: late is not lost).
// The counts of tasks, deliveries, duplicates and losses are reported.
var _ = suites.Spec("ROLL-003", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 2)
	r := roller(t)
	names := inst.InstanceNames()
	var slots []int
	for k, name := range names {
		if name != "" {
			slots = append(slots, k)
		}
	}
	script := slowScript(step)
	c := via(t, inst, -1)
	// Calibrate first: on a prompt-map agent it runs a whole task, which
	// would otherwise outlast the spec's own tasks before the roll.
	expected := t.Expected(ctx, c, script)
	push := t.Env.Webhook != nil && t.Card().PushNotifications()
	type job struct {
		k, via int
		task   *a2a.Task
		hook   *suites.PushHook
		// created is when the task was created.
		created time.Time
		// endedFirst: the task was already terminal when read right after
		// its config was acknowledged, so it may have ended before the
		// config existed, and the config is owed nothing.
		endedFirst bool
	}
	var jobs []*job
	var refusedURL string
	for i, k := range slots {
		for j := 0; j < perInstance; j++ {
			task, _ := start(ctx, t, via(t, inst, k), script, nil)
			jb := &job{k: k, via: slots[(i+1)%len(slots)], task: task, created: time.Now()}
			if push && refusedURL == "" {
				jb.hook, refusedURL = registerHook(ctx, t, via(t, inst, jb.via), task.ID, pushSchemes[len(jobs)%len(pushSchemes)],
					fmt.Sprintf("CreateTaskPushNotificationConfig for task %s through instance %d", task.ID, jb.via))
				if now, err := t.Get(ctx, c, task.ID); jb.hook != nil && err == nil && now.Status.State.Terminal() {
					jb.endedFirst = true
				}
			}
			jobs = append(jobs, jb)
		}
	}
	first, _ := t.Get(ctx, c, jobs[len(jobs)-1].task.ID)
	t.ShowedRunning(script, first, "no task was running when the rollout began")
	began := time.Now()
	var steps []string
	replaced := map[int]time.Duration{}
	gen, err := r.Roll(ctx, func(k int) {
		replaced[k] = time.Since(began)
		steps = append(steps, fmt.Sprintf("instance %d at %s", k, since(began)))
	})
	rolledStep := reports.Step{Kind: "roll", Point: suites.HookRolloutStep, Accepts: []string{suites.HookRolloutStep}, Generation: gen}
	for _, jb := range jobs {
		rolledStep.TaskIDs = append(rolledStep.TaskIDs, jb.task.ID)
	}
	if err != nil {
		rolledStep.Error = err.Error()
	}
	t.Changed(rolledStep, began, time.Now())
	if err != nil {
		t.Indeterminate("the rolling replacement failed: %v", err)
	}
	t.Observe("rollout", fmt.Sprintf("generation %d; replaced %v; took %s; tasks scripted to take about %s", gen, steps, since(began), expected.Round(time.Millisecond)))
	if push && refusedURL == "" {
		var hooks []*suites.PushHook
		for _, jb := range jobs {
			if jb.hook != nil {
				hooks = append(hooks, jb.hook)
			}
		}
		t.Observe("configs-listed-after-roll", fmt.Sprintf("%d of %d configs checked (the others' tasks had ended)", listedAfterRoll(ctx, t, c, hooks, gen), len(hooks)))
	}

	// Each task as it was right after the roll: what a task that never
	// ends is compared with (awaitOrphan).
	rolled := time.Now()
	afterRoll := map[string]*a2a.Task{}
	for _, jb := range jobs {
		if got, err := t.Get(ctx, c, jb.task.ID); err == nil {
			afterRoll[jb.task.ID] = got
		}
	}
	lost, finished, orphans := 0, 0, 0
	want := script.Settles()
	var owed []*owedPush
	for _, jb := range jobs {
		where := fmt.Sprintf("task %s (created on instance %d) after the rollout", jb.task.ID, jb.k)
		got, err := t.Get(ctx, c, jb.task.ID)
		if err != nil {
			lost++
			actual := suites.ErrText(err)
			if isKind(err, a2a.ErrTaskNotFound) {
				actual = fate{id: jb.task.ID, reads: 1, notFound: 1, notFoundErr: actual}.diagnosis(t.Patience())
			}
			t.Record(invariants.Violation{Invariant: "task-survives-rollout", Where: where,
				Expected: "the task, running on or finished by the new instances", Actual: actual})
			continue
		}
		if !got.Status.State.Terminal() {
			seen := afterRoll[jb.task.ID]
			if seen == nil {
				seen = got
			}
			var f fate
			got, f = awaitOrphan(ctx, t, c, seen, rolled, jb.created.Add(expected))
			if !f.ended {
				at, replacedHere := replaced[jb.k]
				switch {
				case f.lost():
					lost++
					t.Record(invariants.Violation{Invariant: "task-survives-rollout", Where: where,
						Expected: "the terminal state its script set, " + string(want) + ", reached on the new instances", Actual: f.diagnosis(t.Patience())})
					continue
				case replacedHere:
					lost++
					orphans++
					t.Record(invariants.Violation{Invariant: "task-survives-rollout", Where: where,
						Expected: "the terminal state its script set, " + string(want) + ", reached on the new instances",
						Actual:   fmt.Sprintf("%s; instance %d, where it was created, was stopped by the roll (its step began %s in)", f.diagnosis(t.Patience()), jb.k, at.Round(time.Millisecond))})
					continue
				}
				t.Indeterminate("%s, though instance %d, where it was created, was not replaced by the roll", f.diagnosis(t.Patience()), jb.k)
			}
		}
		if jb.hook != nil && !jb.endedFirst {
			owed = append(owed, &owedPush{hook: jb.hook, taskID: jb.task.ID, contextID: jb.task.ContextID, end: got.Status.State, endAt: time.Now(),
				where: fmt.Sprintf("push config %s of task %s (running on instance %d), registered through instance %d before the roll to generation %d", configID(jb.hook.Config.ID), jb.task.ID, jb.k, jb.via, gen)})
		}
		if got.Status.State != want {
			if t.Env.Behaviour != nil && t.Env.Behaviour.Kind() == "directive" {
				lost++
				t.Record(invariants.Violation{Invariant: "task-survives-rollout", Where: where,
					Expected: "the terminal state its script set, " + string(want), Actual: string(got.Status.State)})
				continue
			}
			t.Showed(script, got, "whether the rollout changed the task's end cannot be told")
		}
		finished++
	}
	// A config whose task was lost or ended otherwise is owed nothing, but
	// whatever was pushed to it is still checked.
	for _, jb := range jobs {
		if jb.hook != nil && !slices.ContainsFunc(owed, func(p *owedPush) bool { return p.hook == jb.hook }) {
			t.Record(t.PushBodies(jb.hook, jb.task.ID, jb.task.ContextID, fmt.Sprintf("push config %s of task %s (not judged)", configID(jb.hook.Config.ID), jb.task.ID))...)
		}
	}
	var pv pushVerdict
	switch {
	case refusedURL != "":
		t.Unchecked("every config gets its terminal delivery", refusedURL)
	case push:
		pv = judgePushes(ctx, t, owed, witnessVia(ctx, t, via(t, inst, slots[0]), script, "started through instance "+fmt.Sprint(slots[0])+" after the roll"),
			began, gen, "push-delivered-across-rollout", "§3.1.7: a config persists until the task completes; §4.3.3: delivery at least once per configured webhook")
		t.Observe("push-latency", latencyText(pv.latencies))
	default:
		t.Unchecked("every config gets its terminal delivery", "the card advertises no push notifications or the run has no webhook receiver")
	}
	deliveries, duplicates := 0, 0
	for _, p := range owed {
		ds := p.hook.Deliveries(t)
		deliveries += len(ds)
		duplicates += dups(ds)
	}
	t.Observe("counts", fmt.Sprintf("%d tasks on %d instances: %d finished as scripted, %d lost (%d orphaned by the roll); %d configs: %d got their terminal push, %d lost, %d late beyond patience, %d with bad deliveries; %d deliveries, %d duplicate(s)",
		len(jobs), len(slots), finished, lost, orphans, len(owed), pv.delivered, pv.lost, pv.late, pv.bad, deliveries, duplicates))
	// Silence is the agent's when the harness configured the path itself
	// (the embedded agent) or the run showed the agent reaches the receiver.
	// Configs late beyond the patience as well as lost ones: with the
	// receiver never shown reachable, neither tells anything of the roll.
	if why := t.ReachUnshown(nil); pv.lost+pv.late > 0 && why != "" && !t.Reach().Vouched() {
		t.CouldNotRun("%d accepted config(s) got no push, and %s", pv.lost+pv.late, why)
	}
	t.Record(pv.losses...)
	if pv.late > 0 {
		t.Indeterminate("%s", pv.lateReason(t))
	}
	// Configs acknowledged after their task had ended were owed nothing; if
	// one got no terminal push, the spec did not show a config outliving
	// the roll with a task still to finish, so it tries again with longer
	// tasks (suites.T.TooFast).
	var early []string
	for _, jb := range jobs {
		if jb.endedFirst && !jb.hook.Pushed(t, jb.task.ID, func(s a2a.TaskState) bool { return s.Terminal() }) {
			early = append(early, jb.task.ID)
		}
	}
	if len(early) > 0 {
		t.Violated() // what was found above is reported first
		t.TooFast("task(s) %s had already ended when their push config was acknowledged (as read right after), and got no terminal push, which the spec then does not owe", strings.Join(early, ", "))
	}
})

// registerHook registers a config of the spec's own with fresh credentials
// for taskID through c. A refusal that says "not now" (503, UNAVAILABLE, no
// answer) is retried for patience; a refusal of the receiver's URL itself
// (suites.RefusesWebhookURL) returns the reason the push part could not
// run; any other refusal is a violation (the card advertises push
// notifications and the task exists). It returns the hook when accepted.
func registerHook(ctx context.Context, t *suites.T, c *client.Client, taskID, scheme, op string) (*suites.PushHook, string) {
	h := t.NewPushHook(scheme)
	until := time.Now().Add(t.Patience())
	for {
		got, err := c.CreateTaskPushNotificationConfig(ctx, h.For(taskID))
		if err == nil {
			h.Accepted(taskID, got)
			return h, ""
		}
		ce, _ := client.AsError(err)
		switch {
		case suites.RefusesWebhookURL(err):
			return nil, t.WebhookURLRefused(h.Config.URL, op, err)
		case !busy(ce):
			t.Record(invariants.Violation{Invariant: "push-config-accepted", Where: op,
				Expected: "the config stored (the card advertises push notifications)", Actual: suites.ErrText(err)})
			return nil, ""
		case time.Now().After(until) || ctx.Err() != nil:
			t.Observe("push-config-refused", fmt.Sprintf("%s: refused as busy for %s (%s); not judged", op, t.Patience().Round(time.Millisecond), suites.ErrText(err)))
			return nil, ""
		}
		select {
		case <-ctx.Done():
		case <-time.After(retryPause):
		}
	}
}

// dups counts the repeated deliveries of the same event (at least once
// allows them): same task, same state or artifact.
func dups(ds []webhook.Delivery) int {
	seen := map[string]bool{}
	n := 0
	for _, d := range ds {
		if !d.Trusted() {
			continue
		}
		k := d.TaskID() + " " + strings.Join(d.Resp.Members(), "+")
		if s, ok := d.Resp.State(); ok {
			k += " " + string(s)
		}
		if seen[k] && !strings.Contains(k, "artifactUpdate") {
			n++
		}
		seen[k] = true
	}
	return n
}

// awaitOrphan polls a task that was not terminal after the roll until it
// is, or until the patience has passed beyond both its script's expected
// end and the end of the roll: late is not lost. seen is the task as read
// right after the roll (at rolled). It returns the last task seen and its
// fate: ended, lost in the roll, or orphaned by it. A task still moving
// (slow) or that could not be read ends the spec indeterminate here.
func awaitOrphan(ctx context.Context, t *suites.T, c *client.Client, seen *a2a.Task, rolled, end time.Time) (*a2a.Task, fate) {
	deadline := end
	if rolled.After(deadline) {
		deadline = rolled
	}
	f := awaitFate(ctx, t, c, seen.ID, seen, deadline.Add(t.Patience()))
	last := f.last
	if last == nil {
		last = seen
	}
	if !f.ended && !f.lost() && !f.orphaned() {
		t.Indeterminate("timed out after %s waiting for a task to be terminal: %s", since(rolled), f.diagnosis(t.Patience()))
	}
	return last, f
}

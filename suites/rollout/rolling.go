package rollout

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// perInstance is how many tasks ROLL-003 starts on each instance.
const perInstance = 2

// ROLL-003 (§3.1.7, §4.3, scenario 2): tasks run on every instance, each with
// a push config registered through another instance, while every instance is
// replaced one by one. Every task reaches the terminal state its script set,
// every config gets a delivery of that terminal state, and nothing is lost
// silently: the counts of tasks, deliveries, duplicates and losses are
// reported.
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
		token  string
		// created is when the task was created; ended, whether it was
		// seen terminal after the roll.
		created time.Time
		ended   bool
	}
	var jobs []*job
	for i, k := range slots {
		for j := 0; j < perInstance; j++ {
			task, _ := start(ctx, t, via(t, inst, k), script, nil)
			jb := &job{k: k, via: slots[(i+1)%len(slots)], task: task, created: time.Now()}
			if push {
				jb.token = t.WebhookToken()
				cfg := &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: t.Env.Webhook.URL(jb.token)}
				if _, err := via(t, inst, jb.via).CreateTaskPushNotificationConfig(ctx, cfg); err != nil {
					t.Record(invariants.Violation{Invariant: "push-config-accepted", Where: fmt.Sprintf("CreateTaskPushNotificationConfig for task %s through instance %d", task.ID, jb.via),
						Expected: "the config stored (the card advertises push notifications)", Actual: suites.ErrText(err)})
					jb.token = ""
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
	if err != nil {
		t.Indeterminate("the rolling replacement failed: %v", err)
	}
	t.Observe("rollout", fmt.Sprintf("generation %d; replaced %v; took %s; tasks scripted to take about %s", gen, steps, since(began), expected.Round(time.Millisecond)))

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
	ends := map[string]time.Time{}
	for _, jb := range jobs {
		where := fmt.Sprintf("task %s (created on instance %d) after the rollout", jb.task.ID, jb.k)
		got, err := t.Get(ctx, c, jb.task.ID)
		if err != nil {
			lost++
			t.Record(invariants.Violation{Invariant: "task-survives-rollout", Where: where,
				Expected: "the task, running on or finished by the new instances", Actual: suites.ErrText(err)})
			continue
		}
		if !got.Status.State.Terminal() {
			seen := afterRoll[jb.task.ID]
			if seen == nil {
				seen = got
			}
			var orphan string
			got, orphan = awaitOrphan(ctx, t, c, seen, rolled, jb.created.Add(expected))
			if orphan != "" {
				if at, ok := replaced[jb.k]; ok {
					lost++
					orphans++
					t.Record(invariants.Violation{Invariant: "task-survives-rollout", Where: where,
						Expected: "the terminal state its script set, " + string(want) + ", reached on the new instances",
						Actual:   fmt.Sprintf("orphaned by the roll: %s; instance %d, where it was created, was stopped by the roll (its step began %s in)", orphan, jb.k, at.Round(time.Millisecond))})
					continue
				}
				t.Indeterminate("task %s (created on instance %d, which the roll did not replace) is still not terminal: %s (patience %s: raise --patience for a slower agent)",
					jb.task.ID, jb.k, orphan, t.Patience().Round(time.Millisecond))
			}
		}
		jb.ended = true
		ends[jb.task.ID] = time.Now()
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
	deliveries, duplicates, missing := 0, 0, 0
	if push {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, jb := range jobs {
			if jb.token == "" || !jb.ended {
				continue // a task that never ended owes no terminal delivery
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				got := waitDelivery(ctx, t.Env.Webhook, jb.token, want, t.Patience())
				mu.Lock()
				defer mu.Unlock()
				deliveries += len(got.all)
				duplicates += got.dups
				if !got.terminal {
					missing++
					t.Record(invariants.Violation{Invariant: "push-delivered-across-rollout", Where: fmt.Sprintf("push config of task %s, registered through instance %d", jb.task.ID, jb.via),
						Expected: "a delivery of " + string(want) + " (§4.3: a config persists until the task completes)",
						Actual:   fmt.Sprintf("%s within %s (%s)", plural(len(got.all), "delivery"), t.Patience().Round(time.Millisecond), got.states)})
				}
			}()
		}
		wg.Wait()
	} else {
		t.Unchecked("every config gets its terminal delivery", "the card advertises no push notifications or the run has no webhook receiver")
	}
	t.Observe("counts", fmt.Sprintf("%d tasks on %d instances: %d finished as scripted, %d lost (%d orphaned by the roll); %d deliveries, %d duplicate(s), %d config(s) without a terminal delivery",
		len(jobs), len(slots), finished, lost, orphans, deliveries, duplicates, missing))
})

type delivered struct {
	all      []webhook.Delivery
	dups     int
	terminal bool
	states   string
}

// waitDelivery waits until token has received a delivery of state want, or
// patience runs out; it counts repeated states as duplicates (at least once
// allows them).
func waitDelivery(ctx context.Context, w *webhook.Receiver, token string, want a2a.TaskState, patience time.Duration) delivered {
	deadline := time.Now().Add(patience)
	for {
		var d delivered
		d.all = w.Deliveries(token)
		seen := map[string]int{}
		for _, x := range d.all {
			st, _ := x.Resp.State()
			seen[string(st)]++
			if seen[string(st)] == 2 {
				d.dups++
			}
			if st == want {
				d.terminal = true
			}
			d.states += string(st) + " "
		}
		if d.states == "" {
			d.states = "nothing"
		}
		if d.terminal || time.Now().After(deadline) || ctx.Err() != nil {
			return d
		}
		select {
		case <-ctx.Done():
		case <-time.After(suites.Poll):
		}
	}
}

// awaitOrphan polls a task that was not terminal after the roll until it
// is, or until the patience has passed beyond both its script's expected
// end and the end of the roll: late is not lost. seen is the task as read
// right after the roll (at rolled). It returns the last task seen and, when
// the task never ended, what shows it an orphan; a task that changed
// meanwhile (state, status timestamp, history or artifacts) is moving, only
// slowly, and the spec ends indeterminate here.
func awaitOrphan(ctx context.Context, t *suites.T, c *client.Client, seen *a2a.Task, rolled, end time.Time) (*a2a.Task, string) {
	deadline := end
	if rolled.After(deadline) {
		deadline = rolled
	}
	deadline = deadline.Add(t.Patience())
	last, lastErr, ok := t.Await(ctx, c, seen.ID, suites.Terminal, time.Until(deadline))
	if ok {
		return last, ""
	}
	if last == nil || ctx.Err() != nil {
		still := "no answer"
		if lastErr != nil {
			still = suites.ErrText(lastErr)
		}
		t.Indeterminate("timed out after %s waiting for task %s to be terminal, %s (patience %s: raise --patience for a slower agent)",
			since(rolled), seen.ID, still, t.Patience().Round(time.Millisecond))
	}
	if last.Status.State != seen.Status.State || last.Status.Timestamp != seen.Status.Timestamp || len(last.History) != len(seen.History) ||
		invariants.ArtifactsOf(last.Artifacts).Beyond(invariants.ArtifactsOf(seen.Artifacts)) != "" {
		t.Indeterminate("timed out after %s waiting for task %s to be terminal: it is still moving (%s after the roll, %s now; patience %s: raise --patience for a slower agent)",
			since(rolled), seen.ID, seen.Status.State, last.Status.State, t.Patience().Round(time.Millisecond))
	}
	return last, fmt.Sprintf("still %s and unchanged (state, its timestamp, history, artifacts) for %s after the roll, %s past its script's expected end (patience %s)",
		last.Status.State, since(rolled), since(end), t.Patience().Round(time.Millisecond))
}

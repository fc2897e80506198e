package lifecycle

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// LIFE-012 (§3.1.5): a working task is canceled, the answer says so, and it
// stays canceled over the settle window — on every binding.
var _ = suites.Spec("LIFE-012", func(ctx context.Context, t *suites.T) {
	// unread names the bindings where no GetTask answered in the settle
	// window: there, "it stays canceled" was never observed.
	var unread []string
	for _, c := range t.Clients() {
		task := startTask(ctx, t, c, suites.Script{Outcome: directive.OutcomeCompleted, Delay: Step, Chunks: 2})
		t.WaitFor(ctx, c, task.ID, "working (not yet terminal)", func(s a2a.TaskState) bool { return !s.Terminal() })
		answer, err := t.Cancel(ctx, c, task.ID)
		where := "CancelTask " + task.ID + " (" + c.Binding() + ")"
		if err != nil {
			t.Violated(invariants.Violation{Invariant: "cancel", Where: where,
				Expected: "the task in TASK_STATE_CANCELED", Actual: suites.ErrText(err)})
		}
		if answer.Status.State != a2a.TaskStateCanceled {
			if answer.Status.State.Terminal() {
				t.Violated(invariants.Violation{Invariant: "cancel", Where: where,
					Expected: "TASK_STATE_CANCELED for a task that was working", Actual: string(answer.Status.State)})
			}
			// Asynchronous cancel (a2a-v1.md §5 UNSURE): allowed, recorded, then it must land.
			t.Observe("cancel-answer-"+c.Binding(), "non-terminal "+string(answer.Status.State)+" (asynchronous cancel)")
			t.WaitFor(ctx, c, task.ID, "TASK_STATE_CANCELED", suites.Terminal)
		}
		// Consistently: it stays canceled for the settle window and past the
		// time the script would have completed.
		until := time.Now().Add(t.Settle() + 3*Step)
		reads := 0
		var lastErr error
		for time.Now().Before(until) {
			got, err := t.Get(ctx, c, task.ID)
			if err == nil {
				reads++
				if got.Status.State != a2a.TaskStateCanceled {
					t.Violated(invariants.Violation{Invariant: "cancel-stays", Where: "GetTask " + task.ID + " (" + c.Binding() + ")",
						Expected: "TASK_STATE_CANCELED after the acknowledged cancel", Actual: string(got.Status.State)})
				}
			} else {
				lastErr = err
			}
			pause(ctx, suites.Poll)
		}
		if reads == 0 {
			unread = append(unread, fmt.Sprintf("task %s on %s (last error: %v)", task.ID, c.Binding(), lastErr))
		}
	}
	t.Violated(invariants.TerminalImmutable(t.History().Observations())...)
	if len(unread) > 0 {
		t.Indeterminate("no GetTask answered during the settle window after the cancel of %s, so whether it stayed canceled is unknown", strings.Join(unread, "; "))
	}
})

// LIFE-013 (§3.1.5, §3.3.1): a completed task cannot be canceled; a second
// cancel of a canceled task gets the task or TaskNotCancelableError.
var _ = suites.Spec("LIFE-013", func(ctx context.Context, t *suites.T) {
	var vs []invariants.Violation
	for _, c := range t.Clients() {
		done := runToEnd(ctx, t, c, directive.OutcomeCompleted)
		_, err := t.Cancel(ctx, c, done.ID)
		vs = append(vs, violations(expectKind(err, a2a.ErrTaskNotCancelable,
			fmt.Sprintf("CancelTask of %s task %s (%s)", done.Status.State, done.ID, c.Binding())))...)

		task := startTask(ctx, t, c, suites.Script{Outcome: directive.OutcomeCompleted, Delay: Step, Chunks: 2})
		if _, err := t.Cancel(ctx, c, task.ID); err != nil {
			t.Indeterminate("the first cancel of working task %s failed (%s), so a second cancel cannot be judged", task.ID, suites.ErrText(err))
		}
		if ended := t.WaitFor(ctx, c, task.ID, "TASK_STATE_CANCELED", suites.Terminal); ended.Status.State != a2a.TaskStateCanceled {
			// A cancel that does not end canceled is LIFE-012's failure; here
			// there is no canceled task to cancel again.
			t.Indeterminate("task %s ended %s after its cancel was accepted, so a second cancel of a canceled task cannot be tried (LIFE-012 judges the cancel)", task.ID, ended.Status.State)
		}
		again, err := t.Cancel(ctx, c, task.ID)
		key := "second-cancel-" + c.Binding()
		switch {
		case err == nil && again.Status.State == a2a.TaskStateCanceled:
			t.Observe(key, "returned the canceled task")
		case err != nil && expectKind(err, a2a.ErrTaskNotCancelable, "") == nil:
			t.Observe(key, "TaskNotCancelableError")
		default:
			actual := ""
			if err != nil {
				actual = suites.ErrText(err)
			} else {
				actual = "task in " + string(again.Status.State)
			}
			vs = append(vs, invariants.Violation{Invariant: "cancel-idempotent",
				Where:    "second CancelTask of canceled task " + task.ID + " (" + c.Binding() + ")",
				Expected: "the task in TASK_STATE_CANCELED or TaskNotCancelableError (both readings allowed)",
				Actual:   actual})
		}
	}
	t.Violated(vs...)
})

// LIFE-011 (§4.1.3): once terminal, never another state. Tasks ending each
// way are watched by polls, ListTasks and (when advertised) a stream and a
// subscription, a follow-up message is sent to each terminal task, and one
// checker runs over the whole history. Pushes join the history when the
// webhook suite registers them.
var _ = suites.Spec("LIFE-011", func(ctx context.Context, t *suites.T) {
	c := t.Client()
	channels := []string{"GetTask", "ListTasks", "SendMessage"}
	// Pushes are a channel too when the card advertises them and the run has
	// a receiver: every task below registers the same webhook.
	push, token := pushChannel(t)
	var ids []string
	for _, o := range []directive.Outcome{directive.OutcomeCompleted, directive.OutcomeFailed, directive.OutcomeRejected} {
		msg := t.Scripted(suites.Script{Outcome: o, Delay: Step / 3})
		req := &a2a.SendMessageRequest{Message: &msg}
		if push != nil {
			req.Configuration = &a2a.SendMessageConfiguration{TaskPushNotificationConfig: push}
		}
		resp, err := t.Send(ctx, c, req)
		if err != nil || resp.Task == nil {
			actual := "a Message"
			if err != nil {
				actual = suites.ErrText(err)
			}
			t.Violated(invariants.Violation{Invariant: "send", Where: "SendMessage (" + c.Binding() + ")",
				Expected: "a Task for a scripted " + string(o) + " task", Actual: actual})
		}
		task := resp.Task
		if !task.Status.State.Terminal() {
			task = t.WaitFor(ctx, c, task.ID, "terminal", suites.Terminal)
		}
		ids = append(ids, task.ID)
	}
	canceled := startTask(ctx, t, c, suites.Script{Outcome: directive.OutcomeCompleted, Delay: Step, Chunks: 2})
	if push != nil {
		cfg := *push
		cfg.TaskID = canceled.ID
		if _, err := c.CreateTaskPushNotificationConfig(ctx, &cfg); err != nil {
			t.Observe("push-config-on-working-task", "refused: "+suites.ErrText(err))
		}
	}
	// Streams are a channel of their own: when the card advertises them, one
	// stream follows a task to completion and a subscription follows the task
	// that gets canceled, both recorded into the same history.
	var streams sync.WaitGroup
	watch := t.Settle() + 6*Step
	if t.Card().Streaming() {
		sctx, cancel := suites.Ctx(ctx, watch)
		defer cancel()
		msg := t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted, Delay: Step / 3})
		if s, err := c.SendStreamingMessage(sctx, &a2a.SendMessageRequest{Message: &msg}); err == nil {
			streams.Add(1)
			go func() { defer streams.Done(); t.Drain(sctx, s, "stream 1") }()
		}
		if s, err := c.SubscribeToTask(sctx, &a2a.SubscribeToTaskRequest{ID: canceled.ID}); err == nil {
			streams.Add(1)
			go func() { defer streams.Done(); t.Drain(sctx, s, "subscription 1") }()
		}
		channels = append(channels, "streams")
	}
	if _, err := t.Cancel(ctx, c, canceled.ID); err == nil {
		ids = append(ids, canceled.ID)
	}
	for _, id := range ids {
		// A follow-up to a terminal task must not move it (LIFE-008 judges the error).
		msg := t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted})
		msg.TaskID = id
		_, _ = t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
	}
	until := time.Now().Add(t.Settle() + 3*Step)
	// watched counts answers that showed a task after it ended: without one,
	// the checker below would hold over nothing but the tasks' last states.
	watched := 0
	for time.Now().Before(until) {
		for _, id := range ids {
			if _, err := t.Get(ctx, c, id); err == nil {
				watched++
			}
		}
		issued := t.History().Now()
		if list, err := c.ListTasks(ctx, &a2a.ListTasksRequest{}); err == nil {
			for i := range list.Tasks {
				if slices.Contains(ids, list.Tasks[i].ID) {
					watched++
				}
				t.ObserveTask(invariants.FromList, &list.Tasks[i], issued, c.Binding())
			}
		}
		pause(ctx, suites.Poll)
	}
	streams.Wait()
	if push != nil {
		n := len(t.Env.Webhook.Deliveries(token))
		channels = append(channels, fmt.Sprintf("pushes (%d received)", n))
		if n == 0 {
			t.Observe("pushes", "none arrived at "+t.Env.Webhook.Base()+": if the agent cannot reach it, give --webhook-url")
		}
	}
	t.Observe("channels", strings.Join(channels, ", "))
	t.Observe("tasks-watched", strconv.Itoa(len(ids)))
	t.Violated(invariants.TerminalImmutable(t.History().Observations())...)
	if watched == 0 {
		t.Indeterminate("no GetTask or ListTasks answered while the %d terminal tasks were watched, so nothing was observed after they ended", len(ids))
	}
})

// LIFE-014 (scenario 3): the cancel-then-complete race, N trials with the
// cancel fired at seeded, jittered offsets around the scripted completion.
var _ = suites.Spec("LIFE-014", func(ctx context.Context, t *suites.T) {
	c := t.Client()
	n := t.Env.Options.RaceTrials
	if n <= 0 {
		n = 200
	}
	// The script: WORKING after d, one artifact chunk after 2d, COMPLETED at 3d.
	d := raceStep
	completion := 3 * d
	if t.Env.Behaviour != nil && t.Env.Behaviour.Kind() != "directive" {
		completion = calibrate(ctx, t, c)
		d = completion / 3
	}
	// Checked here, in the spec's goroutine: could-not-run must not be raised
	// from a trial's goroutine.
	_ = t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted, Delay: d})
	rng := rand.New(rand.NewSource(t.Env.Options.Seed))
	offsets := make([]time.Duration, n)
	for i := range offsets {
		// Uniform in [completion-d, completion+d]: half the trials should
		// cancel first, half complete first.
		offsets[i] = completion - d + time.Duration(rng.Int63n(int64(2*d)+1))
	}
	results := make([]invariants.TrialResult, n)
	sem := make(chan struct{}, raceConcurrency)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = raceTrial(ctx, t, c, offsets[i], d)
		}(i)
	}
	wg.Wait()

	var vs []invariants.Violation
	decided, unknown := 0, 0
	outcomes := map[string]int{}
	var firstUnknown string
	for _, r := range results {
		switch {
		case len(r.Violations) > 0:
			vs = append(vs, r.Violations...)
			decided++
		case r.Indeterminate != "":
			unknown++
			if firstUnknown == "" {
				firstUnknown = r.Indeterminate
			}
		default:
			decided++
			outcomes[r.Outcome]++
		}
	}
	t.Observe("race.trials", strconv.Itoa(n))
	t.Observe("race.decided", strconv.Itoa(decided))
	t.Observe("race.indeterminate", strconv.Itoa(unknown))
	t.Observe("race.canceled", strconv.Itoa(outcomes["canceled"]))
	t.Observe("race.completed-first", strconv.Itoa(outcomes["completed-first"]))
	t.Observe("race.window", fmt.Sprintf("cancel at completion ±%s (completion %s after creation)", d.Round(time.Millisecond), completion.Round(time.Millisecond)))
	t.Observe("race.bound", invariants.RaceBound(decided, len(vs)))
	if len(vs) > 0 {
		t.Violated(vs...)
	}
	if decided < n*9/10 {
		t.Indeterminate("only %d of %d trials had a known outcome (first unknown: %s); %s",
			decided, n, firstUnknown, invariants.RaceBound(decided, 0))
	}
})

// raceStep is the scripted step of a race trial: the whole trial lasts about
// four steps, and raceConcurrency trials overlap, so the default 200 trials
// take about a second against the reference agent.
const (
	raceStep        = 25 * time.Millisecond
	raceConcurrency = 16
)

// raceTrial runs one trial and judges it from everything observed of its task.
// It runs in its own goroutine, so it never calls anything that ends the spec
// (Fail, Skip): every problem becomes the trial's result.
func raceTrial(ctx context.Context, t *suites.T, c *client.Client, offset, d time.Duration) invariants.TrialResult {
	msg, err := t.Env.Behaviour.Message(suites.Script{Outcome: directive.OutcomeCompleted, Delay: d})
	if err != nil {
		return invariants.TrialResult{Indeterminate: "no scripted message: " + err.Error()}
	}
	created := time.Now()
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil || resp.Task == nil {
		return invariants.TrialResult{Indeterminate: "the trial's task could not be created"}
	}
	id := resp.Task.ID
	timer := time.NewTimer(time.Until(created.Add(offset)))
	select {
	case <-ctx.Done():
		timer.Stop()
		return invariants.TrialResult{Indeterminate: "the spec's time ran out"}
	case <-timer.C:
	}
	answer := invariants.CancelUnknown
	task, err := t.Cancel(ctx, c, id)
	switch {
	case err == nil && task.Status.State == a2a.TaskStateCanceled:
		answer = invariants.CancelAcked
	case err == nil && !task.Status.State.Terminal():
		answer = invariants.CancelPending
	case err == nil:
		answer = invariants.CancelUnknown // a terminal task that is not canceled: judged by the observations
	case expectKind(err, a2a.ErrTaskNotCancelable, "") == nil:
		answer = invariants.CancelRefused
	}
	// Watch until terminal, then once more after the script would certainly
	// have finished, to catch a completion that lands after the cancel.
	final := a2a.TaskState("")
	deadline := time.Now().Add(10*d + time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		got, err := t.Get(ctx, c, id)
		if err == nil {
			final = got.Status.State
			if final.Terminal() {
				break
			}
		}
		pause(ctx, d/2)
	}
	pause(ctx, 2*d)
	if got, err := t.Get(ctx, c, id); err == nil {
		final = got.Status.State
	}
	res := invariants.CancelRace(id, answer, t.History().Observations(), final)
	if final == "" && len(res.Violations) == 0 {
		// An acknowledged cancel would count as decided with nothing seen
		// after it: whether it stayed final was never observed.
		return invariants.TrialResult{Indeterminate: "no GetTask answered after the cancel, so the task's end was not observed"}
	}
	return res
}

// calibrate measures how long a prompt-map agent's "slow" task takes from
// creation to terminal, to size the race window from what the agent does.
func calibrate(ctx context.Context, t *suites.T, c *client.Client) time.Duration {
	start := time.Now()
	task := startTask(ctx, t, c, suites.Script{Outcome: directive.OutcomeCompleted, Delay: Step})
	t.WaitFor(ctx, c, task.ID, "terminal", suites.Terminal)
	took := time.Since(start)
	t.Observe("race.calibration", took.Round(time.Millisecond).String())
	if took < 30*time.Millisecond {
		took = 30 * time.Millisecond
	}
	return took
}

// pause waits d or until the context ends; it schedules the next probe, it
// does not wait for a condition.
func pause(ctx context.Context, d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-timer.C:
	}
}

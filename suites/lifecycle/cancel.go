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

// workingScript asks for the least a cancel spec needs: a task that stays
// working long enough to be canceled (A2A v1.0 §3.1.5). Several artifact chunks
// are not needed, so a prompt map's "slow" text serves.
var workingScript = suites.Script{Outcome: directive.OutcomeCompleted, Delay: Step, Least: suites.PromptSlow}

// LIFE-012 (§3.1.5): a working task is canceled, the answer says so, and it
// stays canceled — watched past the moment its script would have completed on
// this agent (T.Expected), not over a window sized for the reference agent —
// on every binding. A cancel that loses the race (the task ended first: the
// completed task or TaskNotCancelableError, A2A v1.0.1 §3.1.5) and a refusal of a
// working task (§3.1.5: success is not guaranteed) are allowed answers: that
// binding is left unjudged, and a spec with no binding judged is indeterminate.
// Each binding cancels a task of its own, so the bindings run together
// (suites.T.Each): the spec takes one task's watch, not three.
var _ = suites.Spec("LIFE-012", func(ctx context.Context, t *suites.T) {
	cs := t.Clients()
	whys := make([]string, len(cs))
	raced := make([]bool, len(cs))
	t.Each(len(cs), func(i int) { whys[i], raced[i] = cancelStays(ctx, t, cs[i]) })
	var unjudged []string
	outran := true
	for i, why := range whys {
		if why != "" {
			unjudged = append(unjudged, cs[i].Binding()+": "+why)
			outran = outran && raced[i]
		}
	}
	t.Violated(invariants.TerminalImmutable(t.History().Observations())...)
	if len(unjudged) > 0 && outran {
		// Every binding left unjudged lost a race its task should not have
		// run: a longer task settles it (suites.T.TooFast).
		t.TooFast("whether an acknowledged cancel stays final was not observed on every binding: %s", strings.Join(unjudged, "; "))
	}
	if len(unjudged) > 0 {
		t.Indeterminate("whether an acknowledged cancel stays final was not observed on every binding: %s", strings.Join(unjudged, "; "))
	}
})

// cancelStays runs LIFE-012 on one binding. It records violations and returns
// why the binding could not be judged ("" when it was), and whether that was
// because the task ended before the cancel reached it (raced).
func cancelStays(ctx context.Context, t *suites.T, c *client.Client) (why string, raced bool) {
	expected := t.Expected(ctx, c, workingScript)
	key := suites.KeyOf(t.Env.Behaviour, workingScript)
	created := time.Now()
	task, used := startRunning(ctx, t, c, workingScript)
	if used != workingScript {
		created = time.Now() // the try that ran; its script is longer
		expected = t.Expected(ctx, c, used)
	}
	if task.Status.State.Terminal() {
		return fmt.Sprintf("asked for a task that stays working (%s), task %s was already %s when first read", key, task.ID, task.Status.State), true
	}
	where := "CancelTask " + task.ID + " (" + c.Binding() + ")"
	// One rule reads the answer (suites.CancelAnswerOf): only a terminal
	// CANCELED task acknowledges the cancel.
	got := t.CancelAndSettle(ctx, c, task.ID)
	switch got.Answer {
	case invariants.CancelRefused:
		if got.Err == nil {
			return fmt.Sprintf("the cancel lost the race: the answer was the task already %s (allowed, A2A v1.0.1 §3.1.5)", got.Task.Status.State), true
		}
		now, gerr := t.Get(ctx, c, task.ID)
		if gerr == nil && now.Status.State.Terminal() && now.Status.State != a2a.TaskStateCanceled {
			return fmt.Sprintf("the cancel lost the race: TaskNotCancelableError, and task %s had ended %s (allowed, A2A v1.0.1 §3.1.5)", task.ID, now.Status.State), true
		}
		return fmt.Sprintf("the agent refused to cancel working task %s with TaskNotCancelableError (allowed: §3.1.5 does not guarantee success)", task.ID), false
	case invariants.CancelUnknown:
		actual := "the task in " + string(got.Task.Status.State)
		if got.Err != nil {
			actual = suites.ErrText(got.Err)
		}
		t.Record(invariants.Violation{Invariant: "cancel", Where: where,
			Expected: "the task (TASK_STATE_CANCELED, or a state it is still in), or TaskNotCancelableError", Actual: actual})
		return "", false
	case invariants.CancelPending:
		// An asynchronous cancel (A2A v1.0.1 §3.1.5 returns the task's
		// "updated state" and does not guarantee success): not an
		// acknowledgement. The task's own end decides, and either end is
		// allowed; only a cancel that took effect has a canceled task to
		// keep canceled.
		t.Observe("cancel-answer-"+c.Binding(), "non-terminal "+string(got.Task.Status.State)+" (asynchronous cancel), then "+orUnsettled(got.Settled))
		switch {
		case got.Settled == "":
			last := "no answer"
			if got.Last != nil {
				last = string(got.Last.Status.State)
			}
			return fmt.Sprintf("the cancel of task %s was answered %s (asynchronous) and the task was still %s after the patience (%s)",
				task.ID, got.Task.Status.State, last, t.Patience().Round(time.Millisecond)), false
		case got.Outran():
			return fmt.Sprintf("the asynchronous cancel lost the race: answered %s, then task %s ended %s by itself (allowed, A2A v1.0.1 §3.1.5: success is not guaranteed)",
				got.Task.Status.State, task.ID, got.Settled), true
		}
	}
	// It stays canceled past the moment the script would have completed.
	until := t.WatchUntil(created, expected)
	interval := watchInterval(expected)
	reads := 0
	var lastErr error
	for first := true; first || time.Now().Before(until); first = false {
		got, err := t.Get(ctx, c, task.ID)
		if err == nil {
			reads++
			if got.Status.State != a2a.TaskStateCanceled {
				t.Record(invariants.Violation{Invariant: "cancel-stays", Where: "GetTask " + task.ID + " (" + c.Binding() + ")",
					Expected: "TASK_STATE_CANCELED after the acknowledged cancel", Actual: string(got.Status.State)})
				return "", false
			}
		} else {
			lastErr = err
		}
		pause(ctx, interval)
	}
	t.Observe("watched-"+c.Binding(), fmt.Sprintf("GetTask %d times until %s after creation (the script ends at %s on this agent)",
		reads, time.Since(created).Round(time.Millisecond), expected.Round(time.Millisecond)))
	if reads == 0 {
		return fmt.Sprintf("no GetTask of task %s answered while it was watched (last error: %v)", task.ID, lastErr), false
	}
	return "", false
}

// orUnsettled names the state a pending cancel settled in.
func orUnsettled(s a2a.TaskState) string {
	if s == "" {
		return "not terminal within the patience"
	}
	return string(s)
}

// describeCancel says how a cancel was answered, for a reason.
func describeCancel(c suites.Canceled) string {
	if c.Err != nil {
		return suites.ErrText(c.Err)
	}
	return "answered with the task " + string(c.Task.Status.State)
}

// watchInterval spaces the polls of a watch: about twenty over the task's
// expected life, never closer than suites.Poll nor further than half a second.
func watchInterval(expected time.Duration) time.Duration {
	d := expected / 20
	if d < suites.Poll {
		d = suites.Poll
	}
	if d > 500*time.Millisecond {
		d = 500 * time.Millisecond
	}
	return d
}

// LIFE-013 (§3.1.5, §3.3.1): a completed task cannot be canceled; a second
// cancel of a canceled task gets the task or TaskNotCancelableError. What the
// first half finds is recorded before the second half may end the spec.
// Each binding works on tasks of its own, so the bindings run together
// (suites.T.Each).
var _ = suites.Spec("LIFE-013", func(ctx context.Context, t *suites.T) {
	t.EachClient(t.Clients(), func(c *client.Client) {
		done := runToEnd(ctx, t, c, directive.OutcomeCompleted)
		_, err := t.Cancel(ctx, c, done.ID)
		t.Record(violations(expectKind(err, a2a.ErrTaskNotCancelable,
			fmt.Sprintf("CancelTask of %s task %s (%s)", done.Status.State, done.ID, c.Binding())))...)

		task := startTask(ctx, t, c, workingScript)
		first := t.CancelAndSettle(ctx, c, task.ID)
		if first.Outran() {
			t.TooFast("the first cancel of working task %s did not take effect (%s): the task ended %s first, so a second cancel of a canceled task cannot be tried",
				task.ID, describeCancel(first), orUnsettled(first.Settled))
		}
		if first.Err != nil {
			if now, gerr := t.Get(ctx, c, task.ID); gerr == nil && now.Status.State.Terminal() && now.Status.State != a2a.TaskStateCanceled {
				t.TooFast("the first cancel of working task %s failed (%s): the task had ended %s first, so a second cancel cannot be judged", task.ID, suites.ErrText(first.Err), now.Status.State)
			}
			t.Indeterminate("the first cancel of working task %s failed (%s), so a second cancel cannot be judged", task.ID, suites.ErrText(first.Err))
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
		case err != nil && expectKind(err, a2a.ErrTaskNotFound, "") == nil:
			// §3.3.1: a duplicate cancel MAY get TaskNotFoundError once the
			// canceled task was purged.
			t.Observe(key, "TaskNotFoundError (the canceled task was purged, which A2A v1.0.1 §3.3.1 allows)")
		default:
			actual := ""
			if err != nil {
				actual = suites.ErrText(err)
			} else {
				actual = "task in " + string(again.Status.State)
			}
			t.Record(invariants.Violation{Invariant: "cancel-idempotent",
				Where:    "second CancelTask of canceled task " + task.ID + " (" + c.Binding() + ")",
				Expected: "the task in TASK_STATE_CANCELED, TaskNotCancelableError, or TaskNotFoundError for a purged task (every reading allowed)",
				Actual:   actual})
		}
	})
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
	// One task ends each way; they are independent, so they are made
	// together (suites.T.Each).
	outcomes := []directive.Outcome{directive.OutcomeCompleted, directive.OutcomeFailed, directive.OutcomeRejected}
	msgs := make([]a2a.Message, len(outcomes))
	for i, o := range outcomes {
		msgs[i] = t.Scripted(suites.Script{Outcome: o, Delay: Step / 3})
	}
	ended := make([]*a2a.Task, len(outcomes))
	// refused is why the agent refused the receiver's URL, per task.
	refused := make([]string, len(outcomes))
	t.Each(len(outcomes), func(i int) {
		o := outcomes[i]
		req := &a2a.SendMessageRequest{Message: &msgs[i]}
		if push != nil {
			req.Configuration = &a2a.SendMessageConfiguration{TaskPushNotificationConfig: push}
		}
		resp, err := t.Send(ctx, c, req)
		if push != nil && suites.RefusesWebhookURL(err) {
			// The agent keeps the harness's receiver out (§13.2): pushes
			// are no channel of this run, and the task is sent without.
			refused[i] = t.WebhookURLRefused(push.URL, "SendMessage with configuration.taskPushNotificationConfig", err)
			req.Configuration = nil
			resp, err = t.Send(ctx, c, req)
		}
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
			task = t.WaitFor(ctx, c, task.ID, "terminal", suites.TerminalOrInterrupted)
		}
		if !task.Status.State.Terminal() {
			t.Indeterminate("asked for a task that ends %s (%s), task %s stopped in %s instead, so it has no terminal state to keep",
				o, suites.KeyOf(t.Env.Behaviour, suites.Script{Outcome: o}), task.ID, task.Status.State)
		}
		ended[i] = task
	})
	for _, why := range refused {
		if why != "" {
			t.Observe("push-channel", why)
			push, token = nil, ""
			break
		}
	}
	var ids []string
	for _, task := range ended {
		ids = append(ids, task.ID)
	}
	// The canceled task is watched until past the moment its script would
	// have completed on this agent: a completion that lands after the
	// acknowledged cancel (scenario 3) shows up only then.
	expected := t.Expected(ctx, c, workingScript)
	created := time.Now()
	canceled := startTask(ctx, t, c, workingScript)
	until := t.WatchUntil(created, expected)
	if push != nil {
		cfg := *push
		cfg.TaskID = canceled.ID
		if _, err := t.CreatePushConfig(ctx, c, &cfg); err != nil {
			t.Observe("push-config-on-working-task", "refused: "+suites.ErrText(err))
		}
	}
	// Streams are a channel of their own: when the card advertises them, one
	// stream follows a task to completion and a subscription follows the task
	// that gets canceled, both recorded into the same history.
	var streams sync.WaitGroup
	if t.Card().Streaming() {
		sctx, cancel := suites.Ctx(ctx, time.Until(until)+t.Settle())
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
	got, err := t.Cancel(ctx, c, canceled.ID)
	if suites.CancelAnswerOf(got, err) == invariants.CancelRefused {
		// Refused: most often the task ended before the cancel reached
		// it (the calls above took its whole script on a slow or loaded
		// agent), and there is nothing canceled to watch. Once more, with
		// the cancel sent as soon as the task is created.
		t.Observe("cancel-first-try", "refused: "+cancelAnswerText(got, err))
		canceled = startTask(ctx, t, c, workingScript)
		got, err = t.Cancel(ctx, c, canceled.ID)
		if later := t.WatchUntil(time.Now(), expected); later.After(until) {
			until = later
		}
	}
	switch suites.CancelAnswerOf(got, err) {
	case invariants.CancelAcked, invariants.CancelPending:
		ids = append(ids, canceled.ID)
	case invariants.CancelRefused:
		t.Unchecked("a canceled task staying canceled", "the cancel of both tasks scripted to run was refused (the second sent as soon as "+
			"its task was created: "+cancelAnswerText(got, err)+"), so no cancel took effect to be watched")
	default:
		if err == nil {
			ids = append(ids, canceled.ID)
		}
	}
	for _, id := range ids {
		// A follow-up to a terminal task must not move it (LIFE-008 judges the error).
		msg := t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted})
		msg.TaskID = id
		_, _ = t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
	}
	interval := watchInterval(expected)
	// watched counts answers that showed a task after it ended: without one,
	// the checker below would hold over nothing but the tasks' last states.
	watched := 0
	// At least one round, even when a loaded agent or machine took the
	// whole window to get here: a round is what the spec's verdict rests on.
	for round := 0; round == 0 || time.Now().Before(until); round++ {
		for _, id := range ids {
			if _, err := t.Get(ctx, c, id); err == nil {
				watched++
			}
		}
		issued := t.History().Now()
		lctx, seq := suites.Recorded(ctx)
		if list, err := c.ListTasks(lctx, &a2a.ListTasksRequest{}); err == nil {
			// Only the spec's own tasks are judged: others belong to other
			// specs and clients.
			for i := range list.Tasks {
				if slices.Contains(ids, list.Tasks[i].ID) {
					watched++
					t.ObserveTaskAt(invariants.FromList, &list.Tasks[i], issued, c.Binding(), seq.Load())
				}
			}
		}
		pause(ctx, interval)
	}
	streams.Wait()
	t.Observe("watched", fmt.Sprintf("until %s after the canceled task's creation (its script ends at %s on this agent)",
		time.Since(created).Round(time.Millisecond), expected.Round(time.Millisecond)))
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
// A race must have happened: both outcomes (the cancel landing first, the task
// completing first) must occur, or the bound measured nothing. When one side
// is missing the window is re-centred and widened and more trials run (and,
// when the cancels rarely win, a scripted task is made four times longer);
// if a side is still missing the spec is indeterminate, naming it. The bound is
// stated per side. Each side needs max(5, n/10) decided trials, so a run of
// fewer than 10 trials is raised to 10.
var _ = suites.Spec("LIFE-014", func(ctx context.Context, t *suites.T) {
	c := t.Client()
	n := t.Env.Options.RaceTrials
	if n <= 0 {
		n = 200
	}
	// The script: WORKING after d, one artifact chunk after 2d, COMPLETED at 3d.
	d := raceStep
	completion := 3 * d
	script := suites.Script{Outcome: directive.OutcomeCompleted, Delay: d, Least: suites.PromptSlow}
	// scripted: the harness sets the task's length (the directive), so it
	// can lengthen the task when cancels cannot land before it ends.
	scripted := true
	if t.Env.Behaviour != nil && t.Env.Behaviour.Kind() != "directive" {
		scripted = false
		completion = calibrate(ctx, t, c)
		d = completion / 3
		script.Delay = d
	}
	// Checked here, in the spec's goroutine: could-not-run must not be raised
	// from a trial's goroutine.
	_ = t.Scripted(script)
	rng := rand.New(rand.NewSource(t.Env.Options.Seed))
	// need is how many decided trials each side must have for its bound to
	// say anything: a tenth of the trials, and never fewer than five.
	need, first, later, _ := RaceTrialPlan(n)
	var results []invariants.TrialResult
	var windows []string
	// centre and half are the window of cancel offsets after creation; a
	// round with one side missing moves it towards the missing side.
	centre, half := completion, d
	began, stopped := time.Now(), ""
	// lag is how long an asynchronous cancel takes to take effect on this
	// agent, measured once (asyncLag) when the trials' cancels were
	// answered with a task still working.
	var lag time.Duration
	lagged := false
	for round := 0; round < raceRounds; round++ {
		// A round can always decide both sides: the first runs at least
		// 2*need trials and a re-centred one at least need (with
		// --race-trials 8 the first round of 8 could never give 5 a side).
		trials := first
		if round > 0 {
			trials = later
		}
		lo := centre - half
		if lo < 0 {
			lo = 0
		}
		windows = append(windows, fmt.Sprintf("%d trials of %s tasks at %s..%s", trials, completion.Round(time.Millisecond), lo.Round(time.Millisecond), (centre+half).Round(time.Millisecond)))
		offsets := make([]time.Duration, trials)
		for i := range offsets {
			offsets[i] = lo + time.Duration(rng.Int63n(int64(centre+half-lo)+1))
		}
		prior := results
		got := runTrials(ctx, t, c, offsets, script, func(done []invariants.TrialResult) bool {
			// Enough once both sides have their trials and the race has
			// had its budget: the bound is stated on the trials run.
			if time.Since(began) < raceBudget {
				return false
			}
			s := invariants.TallyRace(append(append([]invariants.TrialResult(nil), prior...), done...))
			return s.Canceled >= need && s.CompletedFirst >= need
		})
		if len(got) < len(offsets) {
			stopped = fmt.Sprintf("stopped after %d of %d trials of round %d, %s into the race, once each side had its %d", len(got), len(offsets), round+1, time.Since(began).Round(time.Millisecond), need)
			windows[len(windows)-1] += fmt.Sprintf(" (%d run)", len(got))
		}
		results = append(results, got...)
		sides := invariants.TallyRace(results)
		switch {
		case sides.Canceled >= need && sides.CompletedFirst >= need:
			round = raceRounds
		case sides.Canceled == 0 && sides.CompletedFirst == 0:
			round = raceRounds // nothing decided: more trials will not help
		case sides.Canceled < need && scripted:
			// The cancels rarely landed before the task ended: the agent
			// (or the machine) takes about as long to act on a cancel as
			// the scripted task lasts, so moving the cancels earlier
			// gains little. Script longer tasks, and cancel anywhere in
			// their life.
			d *= 4
			if !lagged {
				lag, lagged = asyncLag(ctx, t, c, script, results), true
			}
			// An asynchronous cancel takes lag to take effect: a task
			// of three times that lets most cancels land before it ends.
			d = max(d, lag)
			script.Delay = d
			completion = 3 * d
			centre, half = completion/2, completion/2
		case sides.Canceled < need:
			// The tasks (nearly) always completed before their cancel: cancel earlier.
			centre, half = centre/2, centre/2
		default:
			// The cancels (nearly) always landed first: cancel later, up to well past completion.
			centre, half = centre+half, centre
		}
	}
	sides := invariants.TallyRace(results)
	t.Observe("race.trials", strconv.Itoa(len(results)))
	if len(results) != n {
		t.Observe("race.trials-asked", fmt.Sprintf("%d (--race-trials); %s", n, RaceTrialsNote(n)))
	}
	t.Observe("race.decided", strconv.Itoa(sides.Decided))
	t.Observe("race.indeterminate", strconv.Itoa(sides.Unknown))
	t.Observe("race.canceled", strconv.Itoa(sides.Canceled))
	t.Observe("race.completed-first", strconv.Itoa(sides.CompletedFirst))
	t.Observe("race.window", "cancel offsets after creation: "+strings.Join(windows, "; then "))
	if stopped != "" {
		t.Observe("race.stopped", stopped)
	}
	t.Observe("race.bound.canceled", invariants.RaceBound(sides.Canceled, sides.VCanceled))
	t.Observe("race.bound.completed-first", invariants.RaceBound(sides.CompletedFirst, sides.VCompleted))
	t.Observe("race.bound", invariants.RaceBound(sides.Decided, len(sides.Violations)))
	t.Record(sides.Violations...)
	switch {
	case sides.Decided < len(results)*9/10:
		t.Indeterminate("only %d of %d trials had a known outcome (first unknown: %s); %s",
			sides.Decided, len(results), sides.FirstUnknown, invariants.RaceBound(sides.Decided, 0))
	case sides.Canceled < need:
		t.Indeterminate("the race rarely went the cancel's way: in %d decided trials only %d cancels were acknowledged before the task ended, fewer than the %d needed to bound that side (windows: %s)",
			sides.Decided, sides.Canceled, need, strings.Join(windows, "; "))
	case sides.CompletedFirst < need:
		t.Indeterminate("the race rarely went the task's way: in %d decided trials only %d tasks ended before their cancel, fewer than the %d needed to bound that side (windows: %s); an agent that queues tasks, or completes much later than it did when calibrated, does this",
			sides.Decided, sides.CompletedFirst, need, strings.Join(windows, "; "))
	}
})

// asyncLag measures, when some of the race's cancels were answered with a
// task still working (an asynchronous cancel, which A2A v1.0.1 §3.1.5
// allows), how long such a cancel takes to take effect: one task scripted
// to work for about the patience, canceled at once, followed until it is
// terminal. It returns 0 when no cancel was pending, or when the probe did
// not end canceled within the patience. The measure is an observation.
func asyncLag(ctx context.Context, t *suites.T, c *client.Client, script suites.Script, results []invariants.TrialResult) time.Duration {
	pending := 0
	for _, r := range results {
		if r.Answer == invariants.CancelPending {
			pending++
		}
	}
	if pending == 0 {
		return 0
	}
	probe := script
	probe.Delay = max(script.Delay, t.Patience()/3)
	msg, err := t.Env.Behaviour.Message(probe)
	if err != nil {
		return 0
	}
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil || resp.Task == nil {
		return 0
	}
	id := resp.Task.ID
	task, err := t.Cancel(ctx, c, id)
	answered := time.Now()
	if suites.CancelAnswerOf(task, err) == invariants.CancelAcked {
		return 0
	}
	last, _, ok := t.Await(ctx, c, id, suites.Terminal, t.Patience())
	took := time.Since(answered)
	if !ok || last.Status.State != a2a.TaskStateCanceled {
		t.Observe("race.async-cancel", fmt.Sprintf("%d of %d cancels were answered with a task still working; a probe task canceled at once did not end canceled within %s", pending, len(results), took.Round(time.Millisecond)))
		return 0
	}
	t.Observe("race.async-cancel", fmt.Sprintf("%d of %d cancels were answered with a task still working (an asynchronous cancel); one took %s to take effect (task %s), so later rounds script tasks of at least three times that",
		pending, len(results), took.Round(time.Millisecond), id))
	return took
}

// RaceTrialPlan is how LIFE-014 sizes its race for --race-trials n: each
// side needs need decided trials (a tenth of n, at least raceMinSide); the
// first round runs first (n, or 2*need when n is smaller, so that one round
// can decide both sides), each later round that re-centres the window for a
// missing side runs later, and most is the largest number a race can run.
func RaceTrialPlan(n int) (need, first, later, most int) {
	need = max(raceMinSide, n/10)
	first = max(n, 2*need)
	later = max(n/2, need)
	return need, first, later, first + (raceRounds-1)*later
}

// RaceTrialsNote says how many trials --race-trials n really gives LIFE-014.
func RaceTrialsNote(n int) string {
	need, first, later, most := RaceTrialPlan(n)
	s := fmt.Sprintf("LIFE-014 runs %d trials in its first round", first)
	if first > n {
		s += fmt.Sprintf(" (raised from %d: each side of the race needs %d decided trials)", n, need)
	}
	return s + fmt.Sprintf(", and %d more in each of up to %d further rounds when a side is missing: %d to %d in all", later, raceRounds-1, first, most)
}

// raceRounds bounds how often LIFE-014 re-centres its window looking for the
// missing side of the race.
const raceRounds = 3

// raceMinSide is the least number of decided trials on each side of the race.
const raceMinSide = 5

// raceBudget is how long LIFE-014 races before it may stop short of its
// trials: against an agent fast enough to run them all within it (the
// reference agent runs 200 in about a second) every trial runs, so the
// verdict does not hang on the machine's speed; against an agent whose
// tasks take seconds the race stops, after the budget, as soon as each side
// has the trials its bound needs (200 trials of 3 s tasks would take about
// 35 s; this stops at about twice a trial's length). The trials run and the
// bound they give are stated either way (race.stopped, race.bound).
const raceBudget = 5 * time.Second

// runTrials runs one trial per offset, raceParallel(t) at a time, and
// returns the results of the trials it started. Before starting each trial
// it asks enough, with the results finished so far (in no order); once it
// says yes no further trial starts, and those in flight finish.
func runTrials(ctx context.Context, t *suites.T, c *client.Client, offsets []time.Duration, script suites.Script, enough func(done []invariants.TrialResult) bool) []invariants.TrialResult {
	results := make([]invariants.TrialResult, len(offsets))
	sem := make(chan struct{}, raceParallel(t))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done []invariants.TrialResult
	)
	started := 0
	for i := range offsets {
		sem <- struct{}{}
		mu.Lock()
		stop := enough != nil && enough(done)
		mu.Unlock()
		if stop {
			<-sem
			break
		}
		started++
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			r := raceTrial(ctx, t, c, offsets[i], script)
			mu.Lock()
			results[i] = r
			done = append(done, r)
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	return results[:started]
}

// raceStep is the scripted step of a race trial under the directive: a trial
// lasts about four steps, so the default 200 trials take about a second
// against the reference agent.
const raceStep = 25 * time.Millisecond

// raceParallel is how many trials overlap: 32, or four per spec the run may
// have in flight (--parallel) when that is more, at most 64. A trial spends
// its life waiting on one task, so against an agent whose tasks take
// seconds the race's wall time is about trials / raceParallel task lengths
// (200 trials of 3 s tasks at 32: about 35 s). It does not drop with
// --parallel 1, so that a serial run finishes the race within the spec's
// time and reaches the same verdict.
func raceParallel(t *suites.T) int {
	return min(64, max(32, 4*t.Env.Options.Parallel))
}

// raceTrial runs one trial and judges it from everything observed of its task.
// It runs in its own goroutine, so it never calls anything that ends the spec
// (Fail, Skip): every problem becomes the trial's result.
func raceTrial(ctx context.Context, t *suites.T, c *client.Client, offset time.Duration, script suites.Script) invariants.TrialResult {
	d := script.Delay
	msg, err := t.Env.Behaviour.Message(script)
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
	// The one rule (suites.CancelAnswerOf): only a terminal CANCELED
	// answer acknowledges; the task already in another terminal state
	// was refused by its own end.
	task, err := t.Cancel(ctx, c, id)
	answer := suites.CancelAnswerOf(task, err)
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
// creation to terminal (T.Expected, shared with the other specs), to size the
// race window from what the agent does.
func calibrate(ctx context.Context, t *suites.T, c *client.Client) time.Duration {
	took := t.Expected(ctx, c, workingScript)
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

// cancelAnswerText is a CancelTask answer in a few words: the error, or the
// task's state.
func cancelAnswerText(task *a2a.Task, err error) string {
	if err != nil {
		return suites.ErrText(err)
	}
	if task == nil {
		return "no task"
	}
	return "the task in " + string(task.Status.State)
}

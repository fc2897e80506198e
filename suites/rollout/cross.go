package rollout

import (
	"context"
	"fmt"
	"math/rand"
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

func labels(evs []suites.Event) string {
	var out []string
	for _, ev := range evs {
		switch {
		case ev.Err != nil:
			out = append(out, "error")
		case ev.Resp.Task != nil:
			out = append(out, "task "+string(ev.Resp.Task.Status.State))
		case ev.Resp.StatusUpdate != nil:
			out = append(out, "status "+string(ev.Resp.StatusUpdate.Status.State))
		case ev.Resp.ArtifactUpdate != nil:
			out = append(out, "artifact")
		default:
			out = append(out, "message")
		}
	}
	if len(out) == 0 {
		return "no events"
	}
	return strings.Join(out, ", ")
}

// ROLL-005 (§3.1.6, §3.5.2, scenario 2): SubscribeToTask through instance B,
// for a task created and worked on instance A, gets the task, then every
// event up to the terminal state, and then the stream closes. A snapshot
// followed by silence, or an early close, fails.
var _ = suites.Spec("ROLL-005", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 2)
	if !t.Card().Streaming() {
		t.NotApplicable("the card does not advertise streaming (LIFE-019 judges the refusal)")
	}
	a, b := via(t, inst, 0), via(t, inst, 1)
	script := suites.Script{Outcome: directive.OutcomeCompleted, Delay: crossStep, Chunks: 3, Least: suites.PromptSlow}
	task, _ := start(ctx, t, a, script, nil)
	created := time.Now()
	expected := t.Expected(ctx, a, script)
	first := t.WaitFor(ctx, a, task.ID, "working", func(s a2a.TaskState) bool { return s != a2a.TaskStateSubmitted })
	t.ShowedRunning(script, first, "there is no running task to subscribe to")
	where := "SubscribeToTask " + task.ID + " through instance 1, task on instance 0"
	s, err := b.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID})
	if err != nil {
		if now, gerr := t.Get(ctx, a, task.ID); gerr == nil && now.Status.State.Terminal() {
			t.Indeterminate("task %s turned %s before the subscription through instance 1 reached it (%s)", task.ID, now.Status.State, suites.ErrText(err))
		}
		t.Violated(invariants.Violation{Invariant: "stream-across-instances", Where: where,
			Expected: "a stream of the working task", Actual: suites.ErrText(err)})
	}
	type drained struct {
		evs    []suites.Event
		closed bool
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	out := make(chan drained, 1)
	go func() { evs, closed := t.Drain(sctx, s, "stream via instance 1"); out <- drained{evs, closed} }()
	end := t.WaitFor(ctx, a, task.ID, "terminal", suites.Terminal)
	// Past the terminal state the stream has the rest of the task's script,
	// and at least the settle window, to deliver it and close.
	grace := time.Until(t.WatchUntil(created, expected))
	if grace < t.Settle() {
		grace = t.Settle()
	}
	var got drained
	select {
	case got = <-out:
	case <-time.After(grace):
		stop()
		got = <-out
	}
	t.Observe("stream", labels(got.evs)+fmt.Sprintf("; closed by the agent: %v", got.closed))
	last := a2a.TaskState("")
	for _, ev := range got.evs {
		if ev.Err == nil {
			if st, ok := ev.Resp.State(); ok {
				last = st
			}
		}
	}
	if len(got.evs) == 0 || got.evs[0].Err != nil || got.evs[0].Resp.Task == nil {
		t.Record(invariants.Violation{Invariant: "stream-across-instances", Where: where + ", event 1",
			Expected: "the Task as its first event (§3.1.6)", Actual: labels(got.evs)})
	}
	if last != end.Status.State {
		t.Record(invariants.Violation{Invariant: "stream-across-instances", Where: where,
			Expected: fmt.Sprintf("every event up to the terminal state %s that instance 0 reached", end.Status.State),
			Actual:   fmt.Sprintf("%s; the stream's last state %s, %s after instance 0 showed the task terminal", labels(got.evs), orUnseen(last), grace.Round(time.Millisecond))})
	} else if !got.closed {
		t.Record(invariants.Violation{Invariant: "stream-across-instances", Where: where,
			Expected: "the stream closed after the terminal event", Actual: "still open " + grace.Round(time.Millisecond).String() + " after the task ended"})
	}
	t.Record(invariants.TerminalImmutable(invariants.ForTask(t.History().Observations(), task.ID))...)
})

func orUnseen(s a2a.TaskState) string {
	if s == "" {
		return "(none)"
	}
	return string(s)
}

// crossTrials bounds ROLL-006's seeded race: enough trials for both sides
// to show, few enough for the suite to stay within its time.
const crossTrials = 24

// crossParallel is how many of those trials are in flight at once.
const crossParallel = 8

// ROLL-006 (§3.1.5, scenario 3): a cancel acknowledged through instance B,
// for a task running on instance A, is final everywhere: GetTask on every
// instance and a stream through a third show TASK_STATE_CANCELED and nothing
// else after it. The same runs as a seeded race across instances, its bound
// stated as in LIFE-014.
var _ = suites.Spec("ROLL-006", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 2)
	var slots []int
	for k, name := range inst.InstanceNames() {
		if name != "" {
			slots = append(slots, k)
		}
	}
	n := len(slots)
	clients := make([]*client.Client, n)
	for i, k := range slots {
		clients[i] = via(t, inst, k)
	}
	script := slowScript(crossStep)
	expected := t.Expected(ctx, clients[0], script)

	// The deterministic half: cancel a working task through another instance.
	task, _ := start(ctx, t, clients[0], script, nil)
	created := time.Now()
	if t.Card().Streaming() {
		if s, err := clients[n-1].SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID}); err == nil {
			sctx, stop := context.WithDeadline(ctx, t.WatchUntil(created, expected).Add(t.Patience()))
			defer stop()
			go t.Drain(sctx, s, fmt.Sprintf("stream via instance %d", slots[n-1]))
		}
	}
	first := t.WaitFor(ctx, clients[0], task.ID, "working", func(s a2a.TaskState) bool { return s != a2a.TaskStateSubmitted })
	t.ShowedRunning(script, first, "there is no running task to cancel")
	got, err := t.Cancel(ctx, clients[1], task.ID)
	if err != nil || got.Status.State != a2a.TaskStateCanceled {
		t.Indeterminate("the cancel through instance %d of task %s was not acknowledged (%s), so there is no acknowledged cancel to follow", slots[1], task.ID, describe(got, err))
	}
	final := watchAll(ctx, t, clients, task.ID, t.WatchUntil(created, expected))
	res := invariants.CancelRace(task.ID, invariants.CancelAcked, t.History().Observations(), final)
	t.Record(res.Violations...)

	// The race: cancels at seeded offsets around the task's end, each through
	// the instance after the one that runs the task.
	trials := min(crossTrials, max(t.Env.Options.RaceTrials, 1))
	rng := rand.New(rand.NewSource(t.Env.Options.Seed))
	offsets := make([]time.Duration, trials)
	for i := range offsets {
		offsets[i] = time.Duration(rng.Int63n(int64(2*expected) + 1))
	}
	results := make([]invariants.TrialResult, trials)
	sem := make(chan struct{}, crossParallel)
	var wg sync.WaitGroup
	for i := range offsets {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = crossTrial(ctx, t, clients, i%n, (i+1)%n, offsets[i], script, expected)
		}()
	}
	wg.Wait()
	tally := invariants.TallyRace(results)
	t.Record(tally.Violations...)
	canceled, completed, unknown := tally.Canceled, tally.CompletedFirst, tally.Unknown
	vs := tally.Violating
	t.Observe("race", fmt.Sprintf("%d trials across %d instances: %d canceled, %d completed first, %d unknown; offsets 0..%s after creation (task takes about %s)",
		trials, n, canceled, completed, unknown, (2*expected).Round(time.Millisecond), expected.Round(time.Millisecond)))
	t.Observe("race.bound", invariants.RaceBound(canceled+completed, vs))
	need := 3
	if canceled < need || completed < need {
		t.Unchecked("the seeded race", fmt.Sprintf("it did not go both ways often enough (%d canceled, %d completed first, %d needed on each side)", canceled, completed, need))
	}
})

func describe(task *a2a.Task, err error) string {
	if err != nil {
		return suites.ErrText(err)
	}
	return "the task in " + string(task.Status.State)
}

// watchAll polls GetTask on every instance until the moment until, and
// returns the last state seen.
func watchAll(ctx context.Context, t *suites.T, clients []*client.Client, id string, until time.Time) a2a.TaskState {
	final := a2a.TaskState("")
	for {
		for _, c := range clients {
			if got, err := t.Get(ctx, c, id); err == nil {
				final = got.Status.State
			}
		}
		if time.Now().After(until) || ctx.Err() != nil {
			return final
		}
		select {
		case <-ctx.Done():
		case <-time.After(2 * suites.Poll):
		}
	}
}

// crossTrial runs one race trial: the task on instance a, the cancel
// through instance b at offset, and GetTask on every instance until past the
// script's end. It never ends the spec (it runs in its own goroutine).
func crossTrial(ctx context.Context, t *suites.T, clients []*client.Client, a, b int, offset time.Duration, script suites.Script, expected time.Duration) invariants.TrialResult {
	msg, err := t.Env.Behaviour.Message(script)
	if err != nil {
		return invariants.TrialResult{Indeterminate: "no scripted message: " + err.Error()}
	}
	created := time.Now()
	resp, err := t.Send(ctx, clients[a], &a2a.SendMessageRequest{Message: &msg, Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil || resp.Task == nil {
		return invariants.TrialResult{Indeterminate: "the trial's task could not be created"}
	}
	id := resp.Task.ID
	select {
	case <-ctx.Done():
		return invariants.TrialResult{Indeterminate: "the spec's time ran out"}
	case <-time.After(time.Until(created.Add(offset))):
	}
	answer := invariants.CancelUnknown
	task, err := t.Cancel(ctx, clients[b], id)
	switch {
	case err == nil && task.Status.State == a2a.TaskStateCanceled:
		answer = invariants.CancelAcked
	case err == nil && !task.Status.State.Terminal():
		answer = invariants.CancelPending
	case isKind(err, a2a.ErrTaskNotCancelable):
		answer = invariants.CancelRefused
	}
	until := created.Add(expected + expected/2 + 300*time.Millisecond)
	final := watchAll(ctx, t, clients, id, until)
	return invariants.CancelRace(id, answer, t.History().Observations(), final)
}

var _ = strconv.Itoa

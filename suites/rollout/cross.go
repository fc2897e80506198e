package rollout

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
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

func labels(evs []suites.Event) string {
	var out []string
	for _, ev := range evs {
		switch {
		case ev.Err != nil:
			out = append(out, "error: "+suites.ErrText(ev.Err))
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

// crossStreamText is the artifact ROLL-005's task streams in chunks: under
// the directive the stream through the other instance must leave the task
// with exactly this text (its snapshot's artifact plus every chunk after it).
const crossStreamText = "first second third fourth fifth sixth"

// ROLL-005 (§3.1.6, §3.5.2, scenario 2): SubscribeToTask through instance B,
// for a task created and worked on instance A, gets the task, then every
// event up to the terminal state, and then the stream closes. A snapshot
// followed by silence, or an early close, fails; so does any event lost on
// the way, judged event by event by the rule of the single-instance streams
// (suites.CheckTaskStream): under the directive the chunks after the
// snapshot must complete the scripted artifact, nothing lost or repeated.
var _ = suites.Spec("ROLL-005", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 2)
	if !t.Card().Streaming() {
		t.NotApplicable("the card does not advertise streaming (LIFE-019 judges the refusal)")
	}
	a, b := via(t, inst, 0), via(t, inst, 1)
	script := suites.Script{Outcome: directive.OutcomeCompleted, Delay: crossStep, Chunks: 3, Text: crossStreamText, Least: suites.PromptSlow}
	// Calibrate first: on a prompt-map agent it runs a whole task, which
	// would otherwise outlast the spec's own task before the subscription.
	expected := t.Expected(ctx, a, script)
	task, _ := start(ctx, t, a, script, nil)
	created := time.Now()
	first := t.WaitFor(ctx, a, task.ID, "working", func(s a2a.TaskState) bool { return s != a2a.TaskStateSubmitted })
	t.ShowedRunning(script, first, "there is no running task to subscribe to")
	where := "SubscribeToTask " + task.ID + " through instance 1, task on instance 0"
	s, err := b.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID})
	if err != nil {
		if now, gerr := t.Get(ctx, a, task.ID); gerr == nil && now.Status.State.Terminal() {
			t.TooFast("task %s turned %s before the subscription through instance 1 reached it (%s)", task.ID, now.Status.State, suites.ErrText(err))
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
	t.Record(judgeCrossStream(got.evs, got.closed, grace, end.Status.State, where, scriptedText(t, crossStreamText))...)
	t.Record(invariants.TerminalImmutable(invariants.ForTask(t.History().Observations(), task.ID))...)
})

// scriptedText is the text a scripted task's artifact must end with: text
// under the directive, "" for a prompt-map agent, whose artifacts are its own.
func scriptedText(t *suites.T, text string) string {
	if t.Env.Behaviour != nil && t.Env.Behaviour.Kind() == "directive" {
		return text
	}
	return ""
}

// judgeCrossStream judges a stream through another instance than the one
// that worked the task: its ends against the terminal state that instance
// showed (invariants.StreamToTerminal: the Task first, the terminal state
// reached, then closed), and every event in between by the single-instance
// rule (suites.CheckTaskStream: the task's own ids, states in order, chunks
// appended only to artifacts sent, and, when text is scripted, the chunks
// after the snapshot completing it, nothing lost or repeated). The ends are
// StreamToTerminal's alone, so a missing terminal state is reported once.
func judgeCrossStream(evs []suites.Event, closed bool, held time.Duration, end a2a.TaskState, where, text string) []invariants.Violation {
	last := a2a.TaskState("")
	for _, ev := range evs {
		if ev.Err == nil {
			if st, ok := ev.Resp.State(); ok {
				last = st
			}
		}
	}
	vs := invariants.StreamToTerminal(invariants.StreamSeen{Where: where,
		FirstIsTask: len(evs) > 0 && evs[0].Err == nil && evs[0].Resp.Task != nil,
		Events:      labels(evs), Last: last, Closed: closed, Held: held,
		End: end, SeenBy: "instance 0"})
	broke := false
	if n := len(evs); n > 0 && !closed && evs[n-1].Err != nil {
		ce, ok := client.AsError(evs[n-1].Err)
		broke = ok && ce.Class == client.Transport
	}
	_, each := suites.CheckTaskStream(evs, suites.StreamEnd{Closed: closed, Broke: broke, Ending: "read until " + held.Round(time.Millisecond).String() + " after the task ended"},
		suites.TaskStreamWant{Where: where, Text: text})
	for _, v := range each {
		switch v.Invariant {
		case "stream-first-task", "stream-terminal", "stream-close", "stream-outcome":
			// The ends, judged above against what instance 0 showed.
		default:
			vs = append(vs, v)
		}
	}
	return vs
}

// crossTrials bounds ROLL-006's seeded race: enough trials for both sides
// to show, few enough for the suite to stay within its time.
const crossTrials = 24

// crossParallel is how many of those trials are in flight at once.
const crossParallel = 8

// ROLL-006 (§3.1.5, scenario 3): a cancel acknowledged through instance B,
// for a task running on instance A, is final everywhere. The task runs on A
// with a stream of its own on A and a push config of its own, as a client of
// A would have them; the cancel goes through B. After the acknowledgement
// nothing may follow it on any channel: no status other than
// TASK_STATE_CANCELED, no artifact the canceled task did not hold, on GetTask
// through every instance, on A's stream, on a stream through another
// instance, or on the push config. The channels are watched for as long as
// the task's script would have taken, plus a margin. The same runs as a
// seeded race across instances, its bound stated as in LIFE-014, each trial
// judging the state and the artifacts GetTask shows after the cancel.
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
	// Calibrate first: on a prompt-map agent it runs a whole task.
	expected := t.Expected(ctx, clients[0], script)

	// The deterministic half: the task on A (clients[0]) with a stream and a
	// push config of its own, canceled through B (clients[1]). Under the
	// directive its steps are longer than the race's, so that the three
	// requests that set up its channels leave it running on a loaded
	// machine (a prompt-map agent's task is the same either way).
	one := slowScript(step)
	oneExpected := t.Expected(ctx, clients[0], one)
	task, used := t.StartRunning(ctx, clients[0], one, func(s suites.Script) *a2a.Task {
		tk, _ := start(ctx, t, clients[0], s, nil)
		return tk
	}, nil)
	created := time.Now()
	if used != one {
		// Lengthened: the agent answered too late to see the first try run.
		one, oneExpected = used, t.Expected(ctx, clients[0], used)
	}
	until := t.WatchUntil(created, oneExpected)
	// The streams are drained until the watch ends, which is known only
	// once the cancel is acknowledged (watchPast): a busy agent's
	// acknowledgement can come after the task's expected end. A stream
	// closed by a deadline set before the acknowledgement had no chance to
	// carry TASK_STATE_CANCELED (the clean agent failed so on a loaded
	// machine, the cancel's round trip 1.2 s).
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	var streams []*crossStream
	if t.Card().Streaming() {
		streams = append(streams, openCross(sctx, t, clients[0], task.ID, slots[0], "on the executing instance"))
		if n > 2 {
			streams = append(streams, openCross(sctx, t, clients[n-1], task.ID, slots[n-1], "through a third instance"))
		} else {
			streams = append(streams, openCross(sctx, t, clients[1], task.ID, slots[1], "through the cancelling instance"))
		}
	} else {
		t.Observe("streams", "none: the card does not advertise streaming")
	}
	hook := crossPush(ctx, t, clients[0], task.ID, slots[0])
	first := t.WaitFor(ctx, clients[0], task.ID, "working", func(s a2a.TaskState) bool { return s != a2a.TaskStateSubmitted })
	t.ShowedRunning(one, first, "there is no running task to cancel")
	sent := time.Now()
	// One rule reads the answer (suites.CancelAnswerOf): a terminal
	// CANCELED answer acknowledges; an asynchronous one (a non-terminal
	// task) is followed until the task settles, and a cancel that took
	// effect is followed from the moment it was seen.
	got := t.CancelAndSettle(ctx, clients[1], task.ID)
	ack := crossAck{at: time.Now(), sent: sent, h: t.History().Now()}
	switch {
	case got.Answer == invariants.CancelPending && got.Applied():
		t.Observe("cancel-answer", fmt.Sprintf("non-terminal %s (an asynchronous cancel), then TASK_STATE_CANCELED %s after it was sent: followed from then", got.Task.Status.State, since(sent)))
	case got.Outran():
		t.TooFast("the cancel through instance %d of task %s did not take effect (%s): the task ended %s first, which the text allows, so there is no canceled task to follow",
			slots[1], task.ID, describe(got.Task, got.Err), got.Settled)
	case !got.Applied():
		t.Indeterminate("the cancel through instance %d of task %s was not acknowledged (%s), so there is no acknowledged cancel to follow", slots[1], task.ID, describe(got.Task, got.Err))
	}
	ack.held = heldAt(t, task.ID, ack.h)
	until = watchPast(until, ack, oneExpected, t.Settle())
	// Streams and pushes get the settle window past the last GetTask, for
	// what was already on its way.
	streamsEnd := time.AfterFunc(time.Until(until.Add(t.Settle())), stop)
	defer streamsEnd.Stop()
	j := &afterAck{t: t, task: task.ID, ack: ack}
	final := j.watchGets(ctx, clients, slots, until)
	for _, s := range streams {
		if s != nil {
			got := s.wait()
			j.stream(s.name, got.evs, got.closed, got.ended)
		}
	}
	if hook != nil {
		<-sctx.Done() // pushes on their way arrive within the watch
		j.pushes(hook.name, hook.deliveries(t, task.ID))
	}
	live := 0
	for _, s := range streams {
		if s != nil {
			live++
		}
	}
	t.Observe("watched", fmt.Sprintf("%s after the acknowledged cancel (the task takes about %s): GetTask through %d instances, %d stream(s), push config: %v",
		since(ack.at), oneExpected.Round(time.Millisecond), n, live, hook != nil))
	res := invariants.CancelRace(task.ID, invariants.CancelAcked, t.History().Observations(), final)
	t.Record(j.vs...)
	for _, v := range res.Violations {
		// The artifacts GetTask gained are already named per instance.
		if !(j.gained && v.Invariant == "terminal-immutable" && strings.Contains(v.Actual, "artifact")) {
			t.Record(v)
		}
	}

	// The race: cancels at seeded offsets around the task's end, each through
	// the instance after the one that runs the task. When the cancels rarely
	// landed before a task ended (an agent, or a machine, slower to answer
	// than the task's steps), a second round scripts tasks four times
	// longer when the harness sets their length (the directive), or cancels
	// within the first half of the task's life when a prompt map drives it.
	// When tasks rarely ended first (a loaded machine stretches a prompt
	// map's task past its calibrated length), the second round cancels
	// between one and four task lengths after creation.
	trials := min(crossTrials, max(t.Env.Options.RaceTrials, 1))
	need := 3
	results, rounds := seededRace(ctx, t, clients, trials, need, func(i int) (int, int) { return i % n, (i + 1) % n }, script, expected)
	tally := invariants.TallyRace(results)
	t.Record(tally.Violations...)
	canceled, completed, unknown := tally.Canceled, tally.CompletedFirst, tally.Unknown
	vs := tally.Violating
	t.Observe("race", fmt.Sprintf("%d trials across %d instances: %d canceled, %d completed first, %d unknown; %s",
		len(results), n, canceled, completed, unknown, strings.Join(rounds, "; then ")))
	t.Observe("race.bound", invariants.RaceBound(canceled+completed, vs))
	raced := canceled >= need && completed >= need
	if !raced {
		t.Unchecked("the seeded race", fmt.Sprintf("it did not go both ways often enough (%d canceled, %d completed first, %d needed on each side)", canceled, completed, need))
	}
	// Judged last, so that the race has given the push time to come.
	if hook != nil && final == a2a.TaskStateCanceled {
		canceledPushed(ctx, t, hook, clients[0], task.ID, ack, slots, raced)
	}
})

// canceledPushed judges the push the acknowledged cancel owes the config
// registered through the executing instance: TASK_STATE_CANCELED, whichever
// instance took the cancel (delivery MUST be attempted for each configured
// webhook, and the terminal state is the push owed: the reading of PUSH-004
// and PUSH-008). A replica that leaves the pushes to the instance running
// the task never sends it (a2a-python #1175). Late is not lost: only a
// later task's push through the same instance, arriving while this one is
// still missing, proves it lost (suites.T.PushOwed); without that proof the
// spec is indeterminate, and looks again when the run ends.
func canceledPushed(ctx context.Context, t *suites.T, h *crossHook, c *client.Client, id string, ack crossAck, slots []int, raced bool) {
	canceled := func(s a2a.TaskState) bool { return s == a2a.TaskStateCanceled }
	what := fmt.Sprintf("TASK_STATE_CANCELED, owed after the acknowledged cancel through instance %d (GetTask shows it on every instance)", slots[1])
	if at, came := h.hook.PushedAt(t, id, canceled); came {
		t.Observe("push.canceled", fmt.Sprintf("pushed to the %s %s after the acknowledged cancel", h.name, max(at.Sub(ack.at), 0).Round(time.Millisecond)))
		return
	}
	if t.Failing() {
		// The spec fails on what it saw: waiting out the patience and a
		// flush task for this push could only add a second reason.
		t.Unchecked("the TASK_STATE_CANCELED push", fmt.Sprintf("it had not come to the %s %s after the acknowledged cancel, and was not waited for further: the spec already fails on what it saw", h.name, time.Since(ack.at).Round(time.Millisecond)))
		return
	}
	w := t.AwaitPush(ctx, h.hook, id, canceled, ack.at)
	if w.Came {
		t.Observe("push.canceled", fmt.Sprintf("pushed to the %s %s after the acknowledged cancel (late: after the race)", h.name, w.Latency.Round(time.Millisecond)))
		return
	}
	if raced {
		// Only the push was left unjudged: when it has come by the run's
		// end, it was late, not lost.
		t.Later(func(r *reports.Result) (string, bool) {
			at, came := h.hook.PushedAt(t, id, canceled)
			if r.Verdict != reports.Indeterminate || len(r.Violations) > 0 || !came {
				return "", false
			}
			saw := fmt.Sprintf("TASK_STATE_CANCELED was pushed to the %s %s after the acknowledged cancel: late, not lost", h.name, at.Sub(ack.at).Round(time.Millisecond))
			r.Verdict, r.Reason = reports.Pass, ""
			if r.Observations == nil {
				r.Observations = map[string]string{}
			}
			r.Observations["push.canceled"] = saw
			return saw, true
		})
	}
	t.PushOwed(ctx, c, h.hook, id, what, w, canceled, ack.at)
}

// crossAck is when the harness got the acknowledgement of a cancel.
type crossAck struct {
	sent, at time.Time
	h        time.Duration // on the spec's history clock
	// held is what the task held when the cancel was acknowledged: every
	// artifact the answer and the snapshots before it showed.
	held invariants.Artifacts
}

// flight is how long after the acknowledgement an event produced before the
// cancel took effect may still arrive on an ordered channel: the cancel's
// own round trip, at least two polls. Only a non-terminal status inside it
// is spared (an observation): a terminal state other than
// TASK_STATE_CANCELED, and an artifact the canceled task did not hold, were
// produced after the cancel whenever they arrive.
func (a crossAck) flight() time.Duration { return max(a.at.Sub(a.sent), 2*suites.Poll) }

// watchPast is when the watch of a canceled task ends: until (set from the
// task's creation), or later, so that every channel has at least half the
// task's length, twice the cancel's own flight and the settle window after
// the acknowledgement to show TASK_STATE_CANCELED. A busy agent answers the
// cancel late; judged at until alone, a stream of another instance had
// 319 ms to hear of the cancel, and the clean reference agent failed on a
// loaded machine.
func watchPast(until time.Time, a crossAck, expected, settle time.Duration) time.Time {
	if min := a.at.Add(max(expected/2, 2*a.flight(), settle)); until.Before(min) {
		return min
	}
	return until
}

// heldAt merges the artifacts of every snapshot of the task received by h
// (the cancel's answer included).
func heldAt(t *suites.T, id string, h time.Duration) invariants.Artifacts {
	held := invariants.Artifacts{}
	for _, o := range invariants.ForTask(t.History().Observations(), id) {
		if o.Snapshot && o.Source != invariants.FromStream && o.Received <= h {
			held = held.Merge(o.Artifacts)
		}
	}
	return held
}

// afterAck judges what every channel showed of one task after its cancel
// was acknowledged.
type afterAck struct {
	t    *suites.T
	task string
	ack  crossAck
	vs   []invariants.Violation
	// gained: GetTask showed artifacts the canceled task did not hold.
	gained bool
	notes  []string
}

func (j *afterAck) violate(where, expected, actual string, at time.Duration) {
	j.vs = append(j.vs, invariants.Violation{Invariant: "cancel-acknowledged-is-final",
		Where:    fmt.Sprintf("task %s, %s, %s after the acknowledged cancel", j.task, where, (at - j.ack.h).Round(time.Millisecond)),
		Expected: expected, Actual: actual})
}

func (j *afterAck) note(s string) {
	j.notes = append(j.notes, s)
	j.t.Observe("after-ack", strings.Join(j.notes, "; "))
}

// watchGets polls GetTask through every instance until the moment until:
// each must show TASK_STATE_CANCELED and no artifact the canceled task did
// not hold (one violation per instance and kind). It returns the last state
// seen.
func (j *afterAck) watchGets(ctx context.Context, clients []*client.Client, slots []int, until time.Time) a2a.TaskState {
	final := a2a.TaskState("")
	badState, grew := map[int]bool{}, map[int]bool{}
	for {
		for i, c := range clients {
			got, err := j.t.Get(ctx, c, j.task)
			if err != nil {
				continue
			}
			at := j.t.History().Now()
			final = got.Status.State
			where := fmt.Sprintf("GetTask through instance %d", slots[i])
			if got.Status.State != a2a.TaskStateCanceled && !badState[i] {
				badState[i] = true
				j.violate(where, "TASK_STATE_CANCELED: the cancel was acknowledged", string(got.Status.State), at)
			}
			if more := invariants.ArtifactsOf(got.Artifacts).Beyond(j.ack.held); more != "" && !grew[i] {
				grew[i], j.gained = true, true
				j.violate(where, "the artifacts the task held when the cancel was acknowledged: a canceled task gains nothing", more, at)
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

// stream judges one stream's events after the acknowledgement. A stream is
// ordered: what follows its own TASK_STATE_CANCELED event, and what arrives
// past the flight window, was produced after the cancel. A stream still
// open when the watch ended with no TASK_STATE_CANCELED on it never heard
// of the cancel, though the task is terminal: every active stream gets the
// task's events (§3.5.2) and terminates at a terminal state (§3.1.6). That
// is judged only of a stream held open past the cancel's flight after the
// acknowledgement (ended, on the history clock): one the harness closed
// sooner (the spec's own time ran out) is left unchecked.
func (j *afterAck) stream(name string, evs []suites.Event, closed bool, ended time.Duration) {
	defer func() {
		silent, judged := unheard(evs, closed, ended, j.ack)
		held := ended - j.ack.h
		switch {
		case silent && !judged:
			when := held.Round(time.Millisecond).String() + " after the acknowledged cancel"
			if held < 0 {
				when = "before the cancel was acknowledged"
			}
			j.t.Unchecked("TASK_STATE_CANCELED on the "+name, fmt.Sprintf("the harness closed the stream %s, within the cancel's own round trip (%s)",
				when, j.ack.flight().Round(time.Millisecond)))
		case silent:
			j.violate(name, "TASK_STATE_CANCELED, and the stream closed: the task is terminal once the cancel was acknowledged (every active stream gets the task's events, and a stream terminates when its task reaches a terminal state)",
				fmt.Sprintf("neither: the stream was still open, without TASK_STATE_CANCELED, when the watch ended %s after the acknowledged cancel", held.Round(time.Millisecond)), ended)
		}
	}()
	parts := map[string]int{}
	sawCancel := false
	for k, ev := range evs {
		if ev.Err != nil {
			continue
		}
		where := fmt.Sprintf("%s, event %d", name, k+1)
		after := ev.At > j.ack.h
		switch r := ev.Resp; {
		case r.ArtifactUpdate != nil:
			id := r.ArtifactUpdate.Artifact.ArtifactID
			if r.ArtifactUpdate.Append {
				parts[id] += len(r.ArtifactUpdate.Artifact.Parts)
			} else {
				parts[id] = len(r.ArtifactUpdate.Artifact.Parts)
			}
			if more := (invariants.Artifacts{id: parts[id]}).Beyond(j.ack.held); after && more != "" {
				j.violate(where, "no artifact after the acknowledged cancel", "an artifact update: "+more, ev.At)
			}
		case r.Task != nil && !after:
			parts = invariants.ArtifactsOf(r.Task.Artifacts)
		default:
			st, ok := r.State()
			if !ok || !after {
				continue
			}
			switch {
			case st == a2a.TaskStateCanceled:
				sawCancel = true
			case st.Terminal() || sawCancel || ev.At > j.ack.h+j.ack.flight():
				j.violate(where, "nothing but TASK_STATE_CANCELED after the acknowledged cancel", string(st), ev.At)
			default:
				j.note(fmt.Sprintf("%s: %s %s after the acknowledgement, within the cancel's round trip (%s): taken as produced before it",
					where, st, (ev.At - j.ack.h).Round(time.Millisecond), j.ack.flight().Round(time.Millisecond)))
			}
		}
	}
}

// unheard reports whether a stream never heard of the acknowledged cancel:
// the harness closed it (not the agent, and no transport error ended it)
// with no TASK_STATE_CANCELED after the acknowledgement. judged is false
// when the harness closed it (ended, on the history clock) within the
// cancel's own flight after the acknowledgement: too soon to say.
func unheard(evs []suites.Event, closed bool, ended time.Duration, a crossAck) (silent, judged bool) {
	heldOpen := !closed && (len(evs) == 0 || evs[len(evs)-1].Err == nil)
	if !heldOpen || canceledOn(evs, a.h) {
		return false, true
	}
	return true, ended-a.h >= a.flight()
}

// canceledOn reports whether a stream carried TASK_STATE_CANCELED (a
// status event, or a task snapshot) after h.
func canceledOn(evs []suites.Event, h time.Duration) bool {
	for _, ev := range evs {
		if st, ok := ev.Resp.State(); ev.Err == nil && ok && st == a2a.TaskStateCanceled && ev.At > h {
			return true
		}
	}
	return false
}

// pushes judges the pushes to the spec's own config after the
// acknowledgement. Pushes carry no order (the spec leaves it open) and may be
// queued, so a non-terminal status pushed late is only noted; a terminal
// state other than TASK_STATE_CANCELED, and an artifact the canceled task
// did not hold, are violations whenever they arrive.
func (j *afterAck) pushes(name string, ds []webhook.Delivery) {
	parts := map[string]int{}
	for _, d := range ds {
		at := j.ack.h + d.At.Sub(j.ack.at)
		after := d.At.After(j.ack.at)
		where := fmt.Sprintf("%s, delivery #%d", name, d.Attempt)
		if au := d.Resp.ArtifactUpdate; au != nil {
			id := au.Artifact.ArtifactID
			if au.Append {
				parts[id] += len(au.Artifact.Parts)
			} else {
				parts[id] = max(parts[id], len(au.Artifact.Parts))
			}
			if more := (invariants.Artifacts{id: parts[id]}).Beyond(j.ack.held); after && more != "" {
				j.violate(where, "no artifact pushed after the acknowledged cancel", "an artifact update: "+more, at)
			}
			continue
		}
		st, ok := d.Resp.State()
		if !ok || !after || st == a2a.TaskStateCanceled {
			continue
		}
		if st.Terminal() {
			j.violate(where, "nothing but TASK_STATE_CANCELED pushed after the acknowledged cancel", string(st), at)
			continue
		}
		j.note(fmt.Sprintf("%s: %s pushed %s after the acknowledgement (pushes carry no order: it may have been queued before)", where, st, (at - j.ack.h).Round(time.Millisecond)))
	}
}

// crossStream is a stream ROLL-006 drains in the background.
type crossStream struct {
	name string
	out  chan crossDrained
}

// crossDrained is what a drained stream carried, whether the agent closed
// it (false: the harness closed it at the end of the watch), and when the
// drain ended (on the spec's history clock).
type crossDrained struct {
	evs    []suites.Event
	closed bool
	ended  time.Duration
}

func (s *crossStream) wait() crossDrained { return <-s.out }

// openCross subscribes to the task through c and drains the stream until
// ctx ends; nil (with an observation) when the subscription is refused.
func openCross(ctx context.Context, t *suites.T, c *client.Client, id string, slot int, role string) *crossStream {
	name := fmt.Sprintf("stream through instance %d", slot)
	st, err := c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id})
	if err != nil {
		t.Observe("stream.instance-"+strconv.Itoa(slot), "SubscribeToTask "+role+" refused: "+suites.ErrText(err))
		return nil
	}
	t.Observe("stream.instance-"+strconv.Itoa(slot), "subscribed "+role)
	s := &crossStream{name: name, out: make(chan crossDrained, 1)}
	go func() {
		evs, closed := t.Drain(ctx, st, name)
		s.out <- crossDrained{evs, closed, t.History().Now()}
	}()
	return s
}

// crossHook is ROLL-006's push config of its own (a suites.PushHook, with
// credentials of its own that the run's receiver requires) and what the
// reasons call it.
type crossHook struct {
	name string
	hook *suites.PushHook
}

// crossPush registers a push config with its own credentials for the task
// through c (the executing instance), when the card advertises push and the
// run has a receiver; nil, with an observation saying why, otherwise. A
// refused config leaves the push channel unwatched, nothing more: ROLL-006
// judges the cancel, and the webhook suite judges push configs.
func crossPush(ctx context.Context, t *suites.T, c *client.Client, id string, slot int) *crossHook {
	switch {
	case !t.Card().PushNotifications():
		t.Observe("push", "not watched: the card does not advertise push notifications")
		return nil
	case t.Env.Webhook == nil:
		t.Observe("push", "not watched: the run has no webhook receiver")
		return nil
	}
	h := t.NewPushHook("Bearer")
	got, err := t.CreatePushConfig(ctx, c, h.For(id))
	if err != nil {
		t.Observe("push", fmt.Sprintf("not watched: the config through instance %d was refused (%s)", slot, suites.ErrText(err)))
		return nil
	}
	h.Accepted(id, got)
	t.Observe("push", fmt.Sprintf("a config of the spec's own, registered through instance %d", slot))
	return &crossHook{name: fmt.Sprintf("push config registered through instance %d", slot), hook: h}
}

// deliveries are the trusted deliveries about the task, by arrival.
func (h *crossHook) deliveries(t *suites.T, id string) []webhook.Delivery {
	var out []webhook.Delivery
	for _, d := range h.hook.Deliveries(t) {
		if d.Trusted() && d.TaskID() == id {
			out = append(out, d)
		}
	}
	return out
}

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
func crossTrial(ctx context.Context, t *suites.T, clients []*client.Client, a, b int, offset time.Duration, script suites.Script, expected time.Duration) (_ invariants.TrialResult, answered time.Duration) {
	msg, err := t.Env.Behaviour.Message(t.Stretched(script))
	if err != nil {
		return invariants.TrialResult{Indeterminate: "no scripted message: " + err.Error()}, 0
	}
	created := time.Now()
	resp, err := t.Send(ctx, clients[a], &a2a.SendMessageRequest{Message: &msg, Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	answered = time.Since(created)
	if err != nil || resp.Task == nil {
		return invariants.TrialResult{Indeterminate: "the trial's task could not be created"}, answered
	}
	id := resp.Task.ID
	select {
	case <-ctx.Done():
		return invariants.TrialResult{Indeterminate: "the spec's time ran out"}, answered
	case <-time.After(time.Until(created.Add(offset))):
	}
	task, err := t.Cancel(ctx, clients[b], id)
	answer := suites.CancelAnswerOf(task, err)
	until := created.Add(expected + expected/2 + 300*time.Millisecond)
	final := watchAll(ctx, t, clients, id, until)
	return invariants.CancelRace(id, answer, t.History().Observations(), final), answered
}

// seededRace runs a seeded cancel race of trials trials, each task created
// through clients[a] and canceled through clients[b] (pair gives a and b for
// trial i), at offsets drawn from the spec's seed. A first round cancels
// between creation and twice the task's expected length. When it leaves
// either side with fewer than need trials, a second round of as many trials
// aims at that side: short of tasks that ended first, it cancels between one
// and four task lengths after creation; short of cancels that landed, it
// scripts tasks four times longer (or long enough that the slowest answer to
// a trial's SendMessage came within their first quarter) when the harness
// sets their length (the directive), or cancels within the first half of a
// task a prompt map drives. It returns every trial's result and a line per
// round.
func seededRace(ctx context.Context, t *suites.T, clients []*client.Client, trials, need int, pair func(i int) (a, b int), script suites.Script, expected time.Duration) ([]invariants.TrialResult, []string) {
	rng := rand.New(rand.NewSource(t.Env.Options.Seed))
	var results []invariants.TrialResult
	var rounds []string
	from, span := time.Duration(0), 2*expected
	for round := 0; round < 2; round++ {
		offsets := make([]time.Duration, trials)
		for i := range offsets {
			offsets[i] = from + time.Duration(rng.Int63n(int64(span)+1))
		}
		got := make([]invariants.TrialResult, trials)
		answered := make([]time.Duration, trials)
		sem := make(chan struct{}, crossParallel)
		var wg sync.WaitGroup
		for i := range offsets {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				a, b := pair(i)
				got[i], answered[i] = crossTrial(ctx, t, clients, a, b, offsets[i], script, expected)
			}()
		}
		wg.Wait()
		results = append(results, got...)
		round := invariants.TallyRace(got)
		rounds = append(rounds, fmt.Sprintf("%d trials, offsets %s..%s after creation (task takes about %s): %d canceled, %d completed first",
			trials, from.Round(time.Millisecond), (from+span).Round(time.Millisecond), expected.Round(time.Millisecond), round.Canceled, round.CompletedFirst))
		sides := invariants.TallyRace(results)
		if (sides.Canceled >= need && sides.CompletedFirst >= need) || ctx.Err() != nil {
			break
		}
		switch {
		case sides.Canceled >= need:
			// Short of tasks that ended first: cancel after they should have.
			from, span = expected, 3*expected
		case t.Env.Behaviour != nil && t.Env.Behaviour.Kind() == "directive":
			// Four times longer, or long enough that the slowest answer
			// to a trial's SendMessage came within its first quarter.
			k := time.Duration(4)
			if slowest := slices.Max(answered); expected > 0 && 4*slowest > k*expected {
				k = (4*slowest + expected - 1) / expected
			}
			script.Delay *= k
			expected = t.Expected(ctx, clients[0], script)
			span = 2 * expected
		default:
			// A prompt map's task takes its own time: cancel earlier in it.
			span = expected / 2
		}
	}
	return results, rounds
}

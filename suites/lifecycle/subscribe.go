package lifecycle

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// subscribeStep is the scripted delay of tasks that are subscribed to while
// they run: each step must outlast a subscription's set-up on a loaded agent
// (a JS SDK agent on a busy CI machine took over 40 ms per stream), so that
// the second and third streams attach while the task still works. With
// specs running concurrently the longer task costs no wall time.
const subscribeStep = 200 * time.Millisecond

// LIFE-017 (§3.5.2, scenario 2): stream A is the SendStreamingMessage of a
// slow task; B subscribes on the last declared binding (the other one when
// there are two) once A has the task; C subscribes on the first binding and
// is closed at once. B's events after its snapshot must be the tail of A's,
// B's snapshot must reflect the events of A's it did not get, and both A
// and B must run on to the terminal state and close after C is gone.
var _ = suites.Spec("LIFE-017", func(ctx context.Context, t *suites.T) {
	requireStreaming(ctx, t)
	cs := t.Clients()
	ca, cb := cs[0], cs[len(cs)-1]
	grace := closeGrace(t)
	const text = "one two three four five six seven eight"
	msg := t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted, Delay: subscribeStep, Chunks: 4, Text: text, Least: suites.PromptSlow})
	whereA := "A: SendStreamingMessage (" + ca.Binding() + ")"
	sa, err := ca.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "stream-open", Where: whereA,
			Expected: "a text/event-stream of the task (the card advertises streaming)", Actual: suites.ErrText(err)})
	}
	ra := startReading(ctx, t, sa, whereA, grace)
	first, ok := ra.waitFirst(ctx)
	if !ok || first.Err != nil || first.Resp.Task == nil {
		_, vs := checkTaskStream(ra.wait(), suites.TaskStreamWant{Where: whereA})
		t.Violated(vs...)
		t.Indeterminate("stream A gave no task to subscribe to (%s)", ra.log.ending())
	}
	id := first.Resp.Task.ID
	whereB := "B: SubscribeToTask " + id + " (" + cb.Binding() + ")"
	sb, err := cb.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id})
	if err != nil {
		// The task's state right after the refusal tells a task that had
		// ended from one that is served one stream at a time.
		task, gerr := t.Get(ctx, ca, id)
		ra.wait()
		if gerr == nil && task.Status.State.Terminal() {
			t.TooFast("the task was %s before the second stream could attach (%s)", task.Status.State, suites.ErrText(err))
		}
		// TaskNotFoundError for the task GetTask just found is no reading:
		// it is the subscription failing, not a choice of one stream.
		if ce, ok := client.AsError(err); ok && ce.Class == client.A2A && ce.Kind != a2a.ErrTaskNotFound && gerr == nil {
			// §3.5.2: an agent MAY serve several concurrent streams of
			// one task; one that serves one at a time takes the other
			// reading, and has no concurrent streams to compare.
			t.Observe("second-stream", "refused while stream A was open: "+suites.ErrText(err))
			t.NotApplicable("the agent refused a second stream of the working task while stream A was open (%s): A2A v1.0.1 §3.5.2 lets an agent serve several concurrent streams of one task (MAY), so one at a time is allowed, and there are no concurrent streams to compare", suites.ErrText(err))
		}
		t.Violated(invariants.Violation{Invariant: "stream-open", Where: whereB,
			Expected: "a second stream of the working task", Actual: suites.ErrText(err)})
	}
	rb := startReading(ctx, t, sb, whereB, grace)

	// C: attached and closed while the task runs; the others must not notice.
	whereC := "C: SubscribeToTask " + id + " (" + ca.Binding() + "), closed after its first event"
	var cClosed time.Duration = -1
	if sc, err := ca.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id}); err == nil {
		rc := startReading(ctx, t, sc, whereC, grace)
		rc.waitFirst(ctx)
		sc.Close()
		cClosed = t.History().Now()
		rc.wait()
	} else {
		t.Observe("third-stream", "SubscribeToTask for the stream to close early failed: "+suites.ErrText(err))
	}

	la, lb := ra.wait(), rb.wait()
	resA, vs := checkTaskStream(la, suites.TaskStreamWant{Where: whereA, Outcome: a2a.TaskStateCompleted})
	_, vb := checkTaskStream(lb, suites.TaskStreamWant{Where: whereB, Outcome: a2a.TaskStateCompleted})
	vs = append(vs, vb...)
	if !la.broke && !lb.broke {
		vs = append(vs, checkSameEvents(la, lb, whereA, whereB)...)
	}
	if la.timedOut || lb.timedOut {
		t.Observe("same-events", "not compared: the harness closed a stream at its patience before the task ended")
	}
	t.Observe("stream-A", eventLabels(la.responses())+"; "+la.ending())
	t.Observe("stream-B", eventLabels(lb.responses())+"; "+lb.ending())
	t.Record(vs...)
	unfinished(t, la, lb)
	if cClosed < 0 {
		t.Indeterminate("stream C could not be attached (see observations), so closing one stream while others run was not exercised")
	}
	if resA.Terminal {
		if end := terminalEventAt(la); end >= 0 && end < cClosed {
			t.TooFast("the task ended (%s) before stream C was closed (%s), so closing one stream while others run was not exercised",
				end.Round(time.Millisecond), cClosed.Round(time.Millisecond))
		}
	}
})

// terminalEventAt is when a stream delivered its terminal state, -1 if never.
func terminalEventAt(l *streamLog) time.Duration {
	for _, ev := range l.events {
		if ev.Err == nil {
			if st, ok := ev.Resp.State(); ok && st.Terminal() {
				return ev.At
			}
		}
	}
	return -1
}

// streamUpdates are a stream's events after its first (the Task), without a final
// repeat of the Task after the terminal state (§11.7 makes it optional, so
// one stream may carry it and another not), as labels.
func streamUpdates(l *streamLog) (snapshot *a2a.Task, out []string) {
	rs := l.responses()
	if len(rs) == 0 {
		return nil, nil
	}
	if rs[0].Task != nil {
		snapshot, rs = rs[0].Task, rs[1:]
	}
	if n := len(rs); n >= 2 && rs[n-1].Task != nil {
		if st, ok := rs[n-2].State(); ok && st.Terminal() {
			rs = rs[:n-1]
		}
	}
	for _, r := range rs {
		out = append(out, suites.EventLabel(r))
	}
	return snapshot, out
}

// stateAfterEvents is the state a task is in after the events, starting from a
// snapshot's.
func stateAfterEvents(from a2a.TaskState, events []string) a2a.TaskState {
	for _, e := range events {
		if s, ok := strings.CutPrefix(e, "statusUpdate "); ok {
			from = a2a.TaskState(s)
		}
	}
	return from
}

// checkSameEvents judges two streams of one task (§3.5.2): B attached later,
// so its events after its snapshot must be the last ones of A's, in the same
// order, and B's snapshot must be the task as A's earlier events left it.
func checkSameEvents(a, b *streamLog, whereA, whereB string) []invariants.Violation {
	if a.timedOut || b.timedOut {
		// The harness closed a stream at its patience, each stream's
		// counted from its own start, so one may hold events the other
		// never had the time to get: that is the harness's cut, not a
		// lost event. The task's end, which the comparison needs, was
		// not reached (unfinished makes the spec indeterminate).
		return nil
	}
	snapA, ua := streamUpdates(a)
	snapB, ub := streamUpdates(b)
	if snapA == nil || snapB == nil {
		return nil // checkTaskStream reports the missing snapshot
	}
	where := whereB + " against " + whereA
	k := len(ua) - len(ub)
	if k < 0 || strings.Join(ua[k:], "\n") != strings.Join(ub, "\n") {
		return []invariants.Violation{{Invariant: "stream-broadcast", Where: where,
			Expected: "the events after B's snapshot to be the last ones of A's, in the same order (§3.5.2: every stream of a task gets its events)",
			Actual:   fmt.Sprintf("A after its task: %s; B after its snapshot: %s", strings.Join(ua, ", "), strings.Join(ub, ", "))}}
	}
	if want := stateAfterEvents(snapA.Status.State, ua[:k]); snapB.Status.State != want {
		return []invariants.Violation{{Invariant: "stream-broadcast", Where: where,
			Expected: fmt.Sprintf("B's snapshot in %s, the state A's first %d events (the ones B did not get) left the task in", want, k),
			Actual:   fmt.Sprintf("snapshot in %s; A after its task: %s; B after its snapshot: %s", snapB.Status.State, strings.Join(ua, ", "), strings.Join(ub, ", "))}}
	}
	return nil
}

// LIFE-018 (§3.1.6): on every binding, SubscribeToTask on a working task
// starts with the Task as it is now (not older than what GetTask showed just
// before), carries the updates after it with nothing lost or repeated in
// between, and closes when the task turns terminal.
var _ = suites.Spec("LIFE-018", func(ctx context.Context, t *suites.T) {
	requireStreaming(ctx, t)
	const text = "north east south west up down"
	// Each binding subscribes to a task of its own, so the bindings run
	// together (suites.T.Each).
	cs := t.Clients()
	logs := make([]*streamLog, len(cs))
	t.Each(len(cs), func(i int) {
		c := cs[i]
		script := suites.Script{Outcome: directive.OutcomeCompleted, Delay: subscribeStep, Chunks: 3, Text: text, Least: suites.PromptSlow}
		// The first look waits past SUBMITTED: the task is subscribed to
		// once it works.
		before, _ := t.StartRunning(ctx, c, script, func(s suites.Script) *a2a.Task { return startTask(ctx, t, c, s) },
			func(task *a2a.Task) *a2a.Task {
				return t.WaitFor(ctx, c, task.ID, "working", func(s a2a.TaskState) bool { return s != a2a.TaskStateSubmitted })
			})
		task := before
		t.ShowedRunning(script, before, "there is no running task to subscribe to")
		where := "SubscribeToTask " + task.ID + " (" + c.Binding() + ")"
		s, err := c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID})
		if err != nil {
			if now, gerr := t.Get(ctx, c, task.ID); gerr == nil && now.Status.State.Terminal() {
				t.TooFast("task %s turned %s before the subscription reached the agent (%s)", task.ID, now.Status.State, suites.ErrText(err))
			}
			t.Record(invariants.Violation{Invariant: "stream-open", Where: where,
				Expected: "a stream of the " + string(before.Status.State) + " task", Actual: suites.ErrText(err)})
			return
		}
		log := readStream(ctx, t, s, where, closeGrace(t))
		logs[i] = log
		t.Observe("subscribe-"+c.Binding(), eventLabels(log.responses())+"; "+log.ending())
		want := suites.TaskStreamWant{Where: where, Outcome: a2a.TaskStateCompleted}
		if directiveScripted(t) {
			want.Text = text
		}
		res, v := checkTaskStream(log, want)
		t.Record(v...)
		if res.Snapshot != nil {
			if res.Snapshot.ID != task.ID {
				t.Record(invariants.Violation{Invariant: "subscribe-snapshot", Where: where + ", event 1",
					Expected: "the subscribed task " + task.ID, Actual: "task " + res.Snapshot.ID})
			}
			if suites.StateRank(res.Snapshot.Status.State) < suites.StateRank(before.Status.State) {
				t.Record(invariants.Violation{Invariant: "subscribe-snapshot", Where: where + ", event 1",
					Expected: "the task as it is now: GetTask just before the subscription showed " + string(before.Status.State),
					Actual:   "a snapshot in " + string(res.Snapshot.Status.State)})
			}
		}
	})
	unfinished(t, logs...)
})

// LIFE-019 (§3.1.6): subscribing to a terminal task is refused with
// UnsupportedOperationError, before the stream or as its first event — on
// every binding.
var _ = suites.Spec("LIFE-019", func(ctx context.Context, t *suites.T) {
	requireStreaming(ctx, t)
	// Each binding subscribes to a task of its own: the bindings run
	// together (suites.T.Each).
	cs := t.Clients()
	t.Each(len(cs), func(i int) {
		c := cs[i]
		// Any finished task will do, so an agent without scripted behaviour
		// is asked for one in plain words.
		done := createTaskIn(ctx, t, c, "", suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete})
		t.AskedForInput(done, "an interrupted task is not terminal, so subscribing to it says nothing of terminal tasks")
		where := fmt.Sprintf("SubscribeToTask of %s task %s (%s)", done.Status.State, done.ID, c.Binding())
		s, err := c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: done.ID})
		if err != nil {
			if v := expectKind(err, a2a.ErrUnsupportedOperation, where); v != nil {
				t.Record(*v)
			} else {
				t.Observe("refusal-"+c.Binding(), "an error before the stream")
			}
			return
		}
		log := readStream(ctx, t, s, where, closeGrace(t))
		v, how := checkTerminalSubscribe(log, where)
		t.Record(v...)
		if how != "" {
			t.Observe("refusal-"+c.Binding(), how)
		}
	})
	t.Violated()
})

// checkTerminalSubscribe judges a stream opened on a terminal task: only an
// UnsupportedOperationError as its first event is a refusal.
func checkTerminalSubscribe(l *streamLog, where string) ([]invariants.Violation, string) {
	fail := func(actual string) []invariants.Violation {
		return []invariants.Violation{{Invariant: "subscribe-terminal", Where: where,
			Expected: string(a2a.ErrUnsupportedOperation) + " (§3.1.6: a terminal task cannot be subscribed to)", Actual: actual}}
	}
	if len(l.events) == 0 {
		return fail("an empty stream (" + l.ending() + ")"), ""
	}
	first := l.events[0]
	if first.Err != nil {
		if ce, ok := client.AsError(first.Err); ok && ce.Kind == a2a.ErrUnsupportedOperation {
			return nil, "an error as the first stream event"
		}
		return fail(suites.ErrText(first.Err) + " as the first stream event"), ""
	}
	if first.Resp.Task != nil {
		rest := "then " + l.ending()
		if n := len(l.events) - 1; n > 0 {
			rest = fmt.Sprintf("then %d more events, then %s", n, l.ending())
		}
		return fail(fmt.Sprintf("a stream with a Task snapshot in %s, %s: the snapshot-then-close behaviour (a2a-go's distributed executor) breaks this MUST",
			first.Resp.Task.Status.State, rest)), ""
	}
	return fail("a stream starting with " + suites.EventLabel(first.Resp)), ""
}

package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// LIFE-030 (§7.6.1, A2A v1.0 §7.6.1): a task that needs the client to
// authorize something is a Task in TASK_STATE_AUTH_REQUIRED whose status
// message says what is needed (MUST). It should still accept a message from
// the client there (SHOULD: warns); where it goes after that is the agent's
// to decide, and is an observation. Only the spec's own tasks are judged.
var _ = suites.Spec("LIFE-030", func(ctx context.Context, t *suites.T) {
	s := suites.Script{Outcome: directive.OutcomeAuthRequired}
	// Each binding asks on a task of its own, so the bindings run together
	// (suites.T.Each); each records what it finds as it goes.
	cs := t.Clients()
	t.Each(len(cs), func(i int) {
		c := cs[i]
		msg := t.Scripted(s)
		where := "SendMessage asking for authorization (" + c.Binding() + ")"
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
		if err != nil {
			t.Record(invariants.Violation{Invariant: "auth-required", Where: where,
				Expected: "a Task in TASK_STATE_AUTH_REQUIRED", Actual: suites.ErrText(err)})
			return
		}
		if resp.Task == nil {
			// A2A v1.0.1 §7.6.1: the agent "MUST use a Task to track the
			// operation it is performing"; but an agent that was only sent
			// a prompt may have chosen not to ask at all.
			t.Indeterminate("the agent answered the message asking for authorization with a Message, not a task: it did not ask, so the in-task flow cannot be judged (%s)", c.Binding())
		}
		task := resp.Task
		if !atRest(task) {
			task = t.WaitFor(ctx, c, task.ID, "TASK_STATE_AUTH_REQUIRED", suites.TerminalOrInterrupted)
		}
		t.Showed(s, task, "so the in-task authorization flow cannot be judged ("+c.Binding()+")")
		if m := task.Status.Message; m == nil || len(m.Parts) == 0 {
			t.Record(invariants.Violation{Invariant: "auth-required", Where: "task " + task.ID + " status (" + c.Binding() + ")",
				Expected: "a status message explaining what authorization is needed (§7.6.1)", Actual: "no status message"})
		}

		follow := userText("a2a-conform: authorization was granted out of band; please go on")
		follow.TaskID, follow.ContextID = task.ID, task.ContextID
		fwhere := fmt.Sprintf("follow-up to auth-required task %s (%s)", task.ID, c.Binding())
		resp, err = t.Send(ctx, c, &a2a.SendMessageRequest{Message: &follow})
		if err != nil {
			t.Should(invariants.Violation{Invariant: "auth-required-message", Where: fwhere,
				Expected: "the message accepted (SHOULD, A2A v1.0.1 §7.6.1)", Actual: suites.ErrText(err)})
			_, _ = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
			return
		}
		final := resp.Task
		if final == nil || final.ID != task.ID || !atRest(final) {
			final = t.WaitFor(ctx, c, task.ID, "terminal or interrupted after the follow-up", suites.TerminalOrInterrupted)
		}
		t.Observe("after-auth-followup-"+c.Binding(), string(final.Status.State))
		if final.Status.State.Interrupted() {
			// The task waits forever otherwise.
			_, _ = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
		}
	})
	t.Violated()
})

// LIFE-033 (A2A v1.0.1 §7.6.1; TCK AUTH-INTASK-005): "If the credential is received
// out-of-band, the agent SHOULD maintain any active response streams with
// the client after setting the TaskState to TASK_STATE_AUTH_REQUIRED". A
// SendStreamingMessage stream of a task that asks for authorization must
// deliver the AUTH_REQUIRED update; the spec then watches it for as long as
// the agent took to get there, and at least closeGrace (how long LIFE-015
// gives an agent to close a stream after its last event, so a close that
// was coming would have come). A close in that time is §11.7's reading
// (streams close on interrupted states), which the text leaves open
// against §7.6.1: it is recorded as the reading observed, never a warn. A
// stream kept open must carry the task on: the follow-up message that says
// authorization was granted goes as a separate call, and the same stream
// must carry the task's next state. A SHOULD: every miss warns.
var _ = suites.Spec("LIFE-033", func(ctx context.Context, t *suites.T) {
	requireStreaming(ctx, t)
	s := suites.Script{Outcome: directive.OutcomeAuthRequired}
	// Each binding streams a task of its own, so the bindings run together
	// (suites.T.Each).
	cs := t.Clients()
	t.Each(len(cs), func(i int) {
		c := cs[i]
		t.Record(authStream(ctx, t, c, s)...)
	})
	t.Violated()
})

// streamItem is one read of a stream, stamped when it arrived.
type streamItem struct {
	ev  a2a.StreamResponse
	err error
	at  time.Time
}

// readItems reads s in the background until it ends or fails. After
// maxStreamEvents it stops reading and says so with a last item whose error
// is no client error, which streamEnded takes for a stream broken under
// the spec, never for one the agent closed.
func readItems(s *client.Stream) <-chan streamItem {
	out := make(chan streamItem, maxStreamEvents+1)
	go func() {
		defer close(out)
		for n := 0; n < maxStreamEvents; n++ {
			ev, err := s.Next()
			out <- streamItem{ev, err, time.Now()}
			if err != nil {
				if ce, ok := client.AsError(err); errors.Is(err, io.EOF) || (ok && ce.Class == client.Transport) || !ok {
					return
				}
			}
		}
		out <- streamItem{err: fmt.Errorf("the harness stopped reading after %d events", maxStreamEvents), at: time.Now()}
	}()
	return out
}

// streamEnded classifies an item that ends the stream: closed by the agent,
// broken under it, or an error event.
func streamEnded(it streamItem, open bool) (closed, broke bool) {
	if !open || errors.Is(it.err, io.EOF) {
		return true, false
	}
	if ce, ok := client.AsError(it.err); it.err != nil && (!ok || ce.Class == client.Transport) {
		return false, true
	}
	return false, false
}

// authStream runs LIFE-033 on one binding.
func authStream(ctx context.Context, t *suites.T, c *client.Client, s suites.Script) []invariants.Violation {
	msg := t.Scripted(s)
	channel := "SendStreamingMessage asking for authorization (" + c.Binding() + ")"
	start := time.Now()
	stream, err := c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
	if err != nil {
		t.Indeterminate("%s was refused (%s), so whether its stream stays up cannot be seen (LIFE-015 judges the refusal)", channel, suites.ErrText(err))
	}
	defer stream.Close()
	items := readItems(stream)
	h := t.History()
	var (
		taskID, contextID string
		labels            []string
		n                 int
	)
	note := func(it streamItem) {
		n++
		labels = append(labels, suites.EventLabel(it.ev))
		if taskID == "" {
			taskID, contextID = it.ev.TaskID(), it.ev.ContextID()
		}
		if st, ok := it.ev.State(); ok {
			at := h.Now()
			h.Add(invariants.Observation{TaskID: it.ev.TaskID(), State: st, Source: invariants.FromStream,
				Issued: at, Received: at, Channel: channel, Ref: fmt.Sprintf("%s event %d", channel, n)})
		}
	}
	cleanup := func() {
		if taskID == "" {
			return
		}
		if cur, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: taskID}); err == nil && !cur.Status.State.Terminal() {
			_, _ = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: taskID})
		}
	}
	defer cleanup()

	// Up to AUTH_REQUIRED, within the run's patience.
	patience := time.NewTimer(t.Patience())
	defer patience.Stop()
	var reached time.Time
	for reached.IsZero() {
		select {
		case it, open := <-items:
			closed, broke := streamEnded(it, open)
			switch {
			case broke:
				t.Indeterminate("%s: the connection broke before AUTH_REQUIRED (%s), after %s", channel, suites.ErrText(it.err), strings.Join(labels, ", "))
			case closed:
				return earlyEnd(ctx, t, c, s, channel, taskID, labels)
			case it.err != nil:
				t.Indeterminate("%s: an error event before AUTH_REQUIRED (%s), after %s", channel, suites.ErrText(it.err), strings.Join(labels, ", "))
			}
			note(it)
			if st, ok := it.ev.State(); ok {
				switch {
				case st == a2a.TaskStateAuthRequired:
					reached = it.at
				case st.Terminal() || st.Interrupted():
					t.Showed(s, &a2a.Task{ID: taskID, Status: a2a.TaskStatus{State: st}}, "so a stream in AUTH_REQUIRED cannot be watched ("+c.Binding()+")")
				}
			}
		case <-patience.C:
			t.Indeterminate("%s: no AUTH_REQUIRED within %s (the run's patience); events so far: %s", channel, t.Patience(), strings.Join(labels, ", "))
		}
	}

	// Held open: as long as the agent took to get there, at least closeGrace.
	hold := reached.Sub(start)
	if g := closeGrace(t); hold < g {
		hold = g
	}
	t.Observe("held-"+c.Binding(), fmt.Sprintf("open %s after AUTH_REQUIRED (the agent took %s to get there)",
		hold.Round(time.Millisecond), reached.Sub(start).Round(time.Millisecond)))
	watch := time.NewTimer(hold)
	defer watch.Stop()
	for held := false; !held; {
		select {
		case it, open := <-items:
			closed, broke := streamEnded(it, open)
			switch {
			case broke:
				t.Indeterminate("%s: the connection broke %s after AUTH_REQUIRED (%s): whether the agent would have kept it is unknown",
					channel, it.at.Sub(reached).Round(time.Millisecond), suites.ErrText(it.err))
			case closed:
				// §11.7 closes streams on interrupted states; §7.6.1 says
				// SHOULD keep them in AUTH_REQUIRED (the text leaves it open).
				// Both readings are allowed: recorded, never judged. With
				// the stream gone, carrying the task on is not asked of it.
				t.Observe("reading-"+c.Binding(), fmt.Sprintf("closed %s after the AUTH_REQUIRED update (§11.7: streams close on interrupted states), not kept for an out-of-band credential (§7.6.1's SHOULD); events: %s",
					it.at.Sub(reached).Round(time.Millisecond), strings.Join(labels, ", ")))
				return nil
			case it.err != nil:
				return []invariants.Violation{{Invariant: "auth-required-stream", Where: channel + ", task " + taskID,
					Expected: "the stream kept open in AUTH_REQUIRED", Actual: "an error event: " + suites.ErrText(it.err)}}
			}
			note(it)
			if st, ok := it.ev.State(); ok && st != a2a.TaskStateAuthRequired {
				// The task went on by itself (a credential out of band):
				// the stream was kept, which is what is judged.
				t.Observe("moved-on-"+c.Binding(), string(st)+" without a follow-up")
				return nil
			}
		case <-watch.C:
			held = true
		}
	}

	// The follow-up, as a call of its own; the stream must carry the task on.
	follow := userText("a2a-conform: authorization was granted out of band; please go on")
	follow.TaskID, follow.ContextID = taskID, contextID
	sent := time.Now()
	if _, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: &follow,
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}}); err != nil {
		t.Unchecked("the stream carrying the task on after the follow-up ("+c.Binding()+")",
			"the agent refused the follow-up message ("+suites.ErrText(err)+"); LIFE-030 judges that")
		return nil
	}
	next := time.NewTimer(t.Patience())
	defer next.Stop()
	for {
		select {
		case it, open := <-items:
			closed, broke := streamEnded(it, open)
			switch {
			case broke:
				t.Indeterminate("%s: the connection broke after the follow-up (%s)", channel, suites.ErrText(it.err))
			case closed || it.err != nil:
				what := "closed"
				if it.err != nil && !closed {
					what = "an error event: " + suites.ErrText(it.err)
				}
				return []invariants.Violation{{Invariant: "auth-required-stream", Where: channel + ", task " + taskID,
					Expected: "the task's next state on the stream kept through AUTH_REQUIRED (§7.6.1 SHOULD maintain it)",
					Actual:   fmt.Sprintf("%s %s after the follow-up, with no new state; events: %s", what, it.at.Sub(sent).Round(time.Millisecond), strings.Join(labels, ", "))}}
			}
			note(it)
			if st, ok := it.ev.State(); ok && st != a2a.TaskStateAuthRequired {
				t.Observe("after-followup-"+c.Binding(), fmt.Sprintf("%s on the stream %s after the follow-up", st, it.at.Sub(sent).Round(time.Millisecond)))
				return nil
			}
		case <-next.C:
			cur, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: taskID})
			if err == nil && cur.Status.State != a2a.TaskStateAuthRequired {
				return []invariants.Violation{{Invariant: "auth-required-stream", Where: channel + ", task " + taskID,
					Expected: "the task's next state on the stream kept through AUTH_REQUIRED",
					Actual:   fmt.Sprintf("nothing on the stream for %s, while GetTask shows %s", t.Patience(), cur.Status.State)}}
			}
			t.Indeterminate("%s: the task did not move within %s of the follow-up (the run's patience), so whether the stream carries it on is unknown", channel, t.Patience())
		}
	}
}

// earlyEnd judges a stream that ended before it delivered AUTH_REQUIRED: a
// violation when the task did reach AUTH_REQUIRED (the stream was not kept
// for it), else the agent did not show the behaviour.
func earlyEnd(ctx context.Context, t *suites.T, c *client.Client, s suites.Script, channel, taskID string, labels []string) []invariants.Violation {
	if taskID == "" {
		t.Indeterminate("%s closed without any event naming a task", channel)
	}
	task := t.WaitFor(ctx, c, taskID, "terminal or interrupted", suites.TerminalOrInterrupted)
	t.Showed(s, task, "so a stream in AUTH_REQUIRED cannot be watched ("+c.Binding()+")")
	return []invariants.Violation{{Invariant: "auth-required-stream", Where: channel + ", task " + taskID,
		Expected: "the AUTH_REQUIRED update delivered and the stream kept open (§7.6.1 SHOULD)",
		Actual:   "closed before AUTH_REQUIRED, which GetTask then showed; events: " + strings.Join(labels, ", ")}}
}

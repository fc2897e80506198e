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

// streamStep is the scripted delay between the transitions of a streamed
// task: long enough that events are produced one by one, short enough that
// a five-transition task streams in about 100 ms.
const streamStep = 20 * time.Millisecond

// maxStreamEvents bounds what one stream may send before the spec stops
// reading it; a scripted task produces fewer than twenty events.
const maxStreamEvents = 1000

// closeGrace bounds how long a stream may stay open after its last expected
// event (the terminal state, the one Message, an error) before the spec
// calls it left open. Closing is the agent's next action after that write,
// so a second plus the settle window covers any network path.
func closeGrace(t *suites.T) time.Duration { return time.Second + t.Settle() }

// streamLog is everything one stream delivered, in order.
type streamLog struct {
	channel string
	events  []suites.Event
	// closed: the agent ended the stream (io.EOF) after a complete event.
	closed bool
	// lingered: the stream was still open closeGrace after its last expected
	// event, and the spec closed it.
	lingered time.Duration
	// stopped says why reading ended when the agent did not close the
	// stream: a transport error, the spec's patience, or the spec's context.
	stopped string
	// closedAt is when reading ended, on the spec's history clock.
	closedAt time.Duration
	// timedOut: the harness's patience ran out before the stream ended. No
	// spec text bounds how long a task may work, so that is not a violation:
	// the spec is indeterminate (unfinished).
	timedOut bool
	// broke: the connection failed under the stream (a reset, a cut body).
	// That is the network's or a proxy's doing as much as the agent's, and
	// no spec text is broken by it: the spec is indeterminate (unfinished).
	broke bool
}

// unfinished ends the spec indeterminate when a stream outlasted the run's
// patience before its task ended, after what was found is recorded.
func unfinished(t *suites.T, logs ...*streamLog) {
	for _, l := range logs {
		switch {
		case l == nil:
		case l.timedOut:
			t.Indeterminate("%s: %s, before the task reached a terminal state; no spec text bounds how long a task may work (raise --patience for a slower agent)", l.channel, l.stopped)
		case l.broke:
			t.Indeterminate("%s: %s, before the stream ended, so what the agent would have sent after it is unknown", l.channel, l.stopped)
		}
	}
}

func (l *streamLog) responses() []a2a.StreamResponse {
	var out []a2a.StreamResponse
	for _, e := range l.events {
		if e.Err == nil {
			out = append(out, e.Resp)
		}
	}
	return out
}

// streamReader reads one stream in the background, so that a spec can act
// (subscribe again, close another stream) while events arrive.
type streamReader struct {
	log   *streamLog
	first chan struct{}
	done  chan struct{}
	// firstEvent is valid once first is closed (and stays the zero Event when
	// the stream ended without any).
	firstEvent suites.Event
}

// endsStream reports whether an event is the last one the agent should send
// (or the last but one optional final Task snapshot, §11.7): a terminal
// state, or a Message, which ends the message-only pattern.
func endsStream(r a2a.StreamResponse) bool {
	if r.Message != nil {
		return true
	}
	st, ok := r.State()
	return ok && st.Terminal()
}

// startReading reads s until the agent closes it, it breaks, patience runs
// out, ctx ends, or grace passes after the event that should end it. Each
// event that reports a state is recorded in the spec's history.
func startReading(ctx context.Context, t *suites.T, s *client.Stream, channel string, grace time.Duration) *streamReader {
	patience := t.Patience()
	r := &streamReader{log: &streamLog{channel: channel}, first: make(chan struct{}), done: make(chan struct{})}
	h := t.History()
	type item struct {
		resp a2a.StreamResponse
		err  error
		at   time.Duration
	}
	items := make(chan item)
	stop := make(chan struct{})
	// why is set before items is closed, so reading it after the close is safe.
	why := fmt.Sprintf("the harness stopped reading after %d events", maxStreamEvents)
	go func() {
		defer close(items)
		var last error
		for n := 0; n < maxStreamEvents; n++ {
			resp, err := s.Next()
			if err != nil && err == last {
				why = "the stream broke: " + suites.ErrText(err)
				return // a final error repeats: the stream is over
			}
			last = err
			select {
			case items <- item{resp, err, h.Now()}:
			case <-stop:
				return
			}
			if err != nil {
				if ce, ok := client.AsError(err); errors.Is(err, io.EOF) || (ok && ce.Class == client.Transport) {
					return
				}
			}
		}
	}()
	go func() {
		defer close(r.done)
		firstDone := false
		markFirst := func() {
			if !firstDone {
				firstDone = true
				close(r.first)
			}
		}
		defer markFirst()
		overall := time.NewTimer(patience)
		defer overall.Stop()
		var graceC <-chan time.Time
		finish := func(why string) {
			r.log.stopped = why
			close(stop)
			s.Close()
			for range items {
			}
		}
		defer func() { r.log.closedAt = h.Now() }()
		for i := 1; ; i++ {
			select {
			case it, ok := <-items:
				if !ok {
					if !r.log.closed && r.log.stopped == "" {
						r.log.stopped = why
					}
					s.Close()
					return
				}
				if errors.Is(it.err, io.EOF) {
					r.log.closed = true
					continue
				}
				if ce, ok := client.AsError(it.err); ok && ce.Class == client.Transport {
					r.log.stopped = "the connection broke: " + suites.ErrText(it.err)
					r.log.broke = true
					r.log.events = append(r.log.events, suites.Event{At: it.at, Err: it.err})
					continue
				}
				ev := suites.Event{At: it.at, Resp: it.resp, Err: it.err}
				r.log.events = append(r.log.events, ev)
				if !firstDone {
					r.firstEvent = ev
					markFirst()
				}
				if it.err == nil {
					if st, ok := it.resp.State(); ok {
						h.Add(invariants.Observation{TaskID: it.resp.TaskID(), State: st, Source: invariants.FromStream,
							Issued: it.at, Received: it.at, Channel: channel, Ref: fmt.Sprintf("%s event %d", channel, i)})
					}
				}
				if graceC == nil && (it.err != nil || endsStream(it.resp)) {
					graceC = time.After(grace)
				}
			case <-graceC:
				r.log.lingered = grace
				finish(fmt.Sprintf("still open %s after its last expected event; the harness closed it", grace))
				return
			case <-overall.C:
				r.log.timedOut = true
				finish(fmt.Sprintf("no end after %s (the run's patience); the harness closed it", patience))
				return
			case <-ctx.Done():
				finish("the spec's time ran out")
				return
			}
		}
	}()
	return r
}

// waitFirst returns the stream's first event, or false when the stream ended
// (or ctx did) before any.
func (r *streamReader) waitFirst(ctx context.Context) (suites.Event, bool) {
	select {
	case <-r.first:
	case <-ctx.Done():
		return suites.Event{}, false
	}
	return r.firstEvent, r.firstEvent.Resp.Members() != nil || r.firstEvent.Err != nil
}

// wait returns the log once reading has ended.
func (r *streamReader) wait() *streamLog {
	<-r.done
	return r.log
}

// readStream reads a stream to its end; see startReading.
func readStream(ctx context.Context, t *suites.T, s *client.Stream, channel string, grace time.Duration) *streamLog {
	return startReading(ctx, t, s, channel, grace).wait()
}

// requireStreaming returns when the card advertises streaming. Otherwise it
// checks that every binding refuses SendStreamingMessage with
// UnsupportedOperationError (§3.3.4; as an error before the stream or as its
// first event), fails the spec if one does not, and else ends it as
// not-applicable.
func requireStreaming(ctx context.Context, t *suites.T) {
	if t.Card().Streaming() {
		return
	}
	var vs []invariants.Violation
	for _, c := range t.Clients() {
		where := "SendStreamingMessage (" + c.Binding() + "), card without capabilities.streaming"
		msg := a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart("a2a-conform streaming probe")}}
		s, err := c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
		if err == nil {
			sctx, cancel := suites.Ctx(ctx, closeGrace(t))
			r := startReading(sctx, t, s, where, 0)
			ev, ok := r.waitFirst(sctx)
			cancel()
			r.wait()
			switch {
			case ok && ev.Err != nil:
				err = ev.Err
			case ok:
				vs = append(vs, invariants.Violation{Invariant: "capability-gating", Where: where,
					Expected: string(a2a.ErrUnsupportedOperation) + " (§3.3.4)", Actual: "a stream whose first event is " + suites.EventLabel(ev.Resp)})
				continue
			default:
				vs = append(vs, invariants.Violation{Invariant: "capability-gating", Where: where,
					Expected: string(a2a.ErrUnsupportedOperation) + " (§3.3.4)", Actual: "a stream without any event"})
				continue
			}
		}
		if v := expectKind(err, a2a.ErrUnsupportedOperation, where); v != nil {
			v.Invariant = "capability-gating"
			vs = append(vs, *v)
		}
	}
	t.Violated(vs...)
	t.NotApplicable("the card does not advertise capabilities.streaming, and every binding refuses SendStreamingMessage with UnsupportedOperationError.")
}

func eventLabels(rs []a2a.StreamResponse) string {
	if len(rs) == 0 {
		return "(none)"
	}
	const max = 20
	var out []string
	for i, r := range rs {
		if i == max {
			out = append(out, fmt.Sprintf("… %d more", len(rs)-max))
			break
		}
		out = append(out, suites.EventLabel(r))
	}
	return strings.Join(out, ", ")
}

// checkTaskStream judges a task-lifecycle stream by the suites' one rule
// (suites.CheckTaskStream), which ROLL-005 shares.
func checkTaskStream(l *streamLog, w suites.TaskStreamWant) (suites.TaskStreamResult, []invariants.Violation) {
	return suites.CheckTaskStream(l.events, suites.StreamEnd{Closed: l.closed, TimedOut: l.timedOut, Broke: l.broke, Ending: l.ending()}, w)
}

// ending says how a stream ended, for a report.
func (l *streamLog) ending() string {
	switch {
	case l.closed:
		return "the agent closed it"
	case l.stopped != "":
		return l.stopped
	}
	return "reading stopped"
}

// directiveChunks is the chunk texts the directive produces for text, or nil
// when the agent is scripted some other way (and its chunks are its own).
func directiveChunks(t *suites.T, text string, n int) []string {
	if t.Env.Behaviour == nil || t.Env.Behaviour.Kind() != "directive" {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = directive.ChunkText(text, i+1, n)
	}
	return out
}

func directiveScripted(t *suites.T) bool {
	return t.Env.Behaviour != nil && t.Env.Behaviour.Kind() == "directive"
}

// LIFE-015 (§3.1.2, §3.5.2, §9.4.2, §11.7): on every binding, a streamed
// scripted task (WORKING, three artifact chunks, COMPLETED) starts with the
// Task, carries its updates in production order with the task's ids, framed
// for the binding, and the agent closes the stream after the terminal event.
var _ = suites.Spec("LIFE-015", func(ctx context.Context, t *suites.T) {
	requireStreaming(ctx, t)
	const text = "alpha beta gamma delta epsilon zeta"
	// Any task that completes shows the stream's shape; the chunk order and
	// text are checked where the directive scripts them.
	script := suites.Script{Outcome: directive.OutcomeCompleted, Delay: streamStep, Chunks: 3, Text: text, Least: suites.PromptComplete}
	// Each binding streams a task of its own, so the bindings run together
	// (suites.T.Each).
	cs := t.Clients()
	logs := make([]*streamLog, len(cs))
	t.Each(len(cs), func(i int) {
		c := cs[i]
		where := "SendStreamingMessage (" + c.Binding() + ")"
		// Patience covers the task's whole life on this agent.
		t.Expected(ctx, c, script)
		msg := t.Scripted(script)
		s, err := c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
		if err != nil {
			t.Record(invariants.Violation{Invariant: "stream-open", Where: where,
				Expected: "a text/event-stream of the task (the card advertises streaming)", Actual: suites.ErrText(err)})
			return
		}
		log := readStream(ctx, t, s, where, closeGrace(t))
		logs[i] = log
		want := suites.TaskStreamWant{Where: where, Outcome: a2a.TaskStateCompleted, Chunks: directiveChunks(t, text, 3), WorkingFirst: directiveScripted(t)}
		if directiveScripted(t) {
			want.Text = text
		}
		res, v := checkTaskStream(log, want)
		t.Record(v...)
		t.Observe("stream-"+c.Binding(), fmt.Sprintf("%d events: %s; %s", len(log.events), eventLabels(log.responses()), log.ending()))
		if res.Terminal && res.ID != "" {
			got, err := t.Get(ctx, c, res.ID)
			if err == nil && got.Status.State != res.Final {
				t.Record(invariants.Violation{Invariant: "stream-outcome", Where: "GetTask " + res.ID + " (" + c.Binding() + ") after its stream",
					Expected: "the terminal state the stream reported, " + string(res.Final), Actual: string(got.Status.State)})
			}
		}
	})
	unfinished(t, logs...)
})

// LIFE-016 (§3.1.2): a streamed Message reply is the stream's only event, and
// the agent then closes the stream — on every binding.
var _ = suites.Spec("LIFE-016", func(ctx context.Context, t *suites.T) {
	requireStreaming(ctx, t)
	var logs []*streamLog
	for _, c := range t.Clients() {
		where := "SendStreamingMessage (" + c.Binding() + ") of a message-reply script"
		msg := t.Scripted(suites.Script{Outcome: directive.OutcomeMessage, Text: "a2a-conform streamed reply"})
		s, err := c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
		if err != nil {
			t.Record(invariants.Violation{Invariant: "stream-open", Where: where,
				Expected: "a text/event-stream carrying the reply (the card advertises streaming)", Actual: suites.ErrText(err)})
			continue
		}
		log := readStream(ctx, t, s, where, closeGrace(t))
		rs := log.responses()
		t.Observe("stream-"+c.Binding(), fmt.Sprintf("%d events: %s; %s", len(log.events), eventLabels(rs), log.ending()))
		if len(rs) > 0 && rs[0].Task != nil && len(log.events) == len(rs) {
			t.CouldNotRun("the agent answered the scripted message reply with a task (%s), so the message-only stream pattern could not be exercised.", eventLabels(rs))
		}
		t.Record(checkMessageStream(log, where)...)
		logs = append(logs, log)
	}
	unfinished(t, logs...)
})

// checkMessageStream judges the message-only pattern (§3.1.2): exactly one
// Message event, then the agent closes the stream.
func checkMessageStream(l *streamLog, where string) []invariants.Violation {
	var vs []invariants.Violation
	for i, ev := range l.events {
		if ev.Err != nil {
			vs = append(vs, invariants.Violation{Invariant: "stream-event", Where: fmt.Sprintf("%s, event %d", where, i+1),
				Expected: "a StreamResponse framed as the binding requires (§9.4.2, §11.7)", Actual: suites.ErrText(ev.Err)})
		}
	}
	rs := l.responses()
	switch {
	case len(rs) == 0 && l.timedOut:
		// No reply within patience: unfinished, not wrong.
	case len(rs) == 0:
		vs = append(vs, invariants.Violation{Invariant: "message-stream", Where: where,
			Expected: "exactly one Message event (§3.1.2)", Actual: "no event (" + l.ending() + ")"})
	case len(rs) > 1 || rs[0].Message == nil:
		vs = append(vs, invariants.Violation{Invariant: "message-stream", Where: where,
			Expected: "exactly one Message event, then the end of the stream (§3.1.2)", Actual: fmt.Sprintf("%d events: %s", len(rs), eventLabels(rs))})
	}
	if !l.closed && !(len(rs) == 0 && l.timedOut) {
		vs = append(vs, invariants.Violation{Invariant: "stream-close", Where: where,
			Expected: "the agent closes the stream after the Message (§3.1.2)", Actual: l.ending()})
	}
	return vs
}

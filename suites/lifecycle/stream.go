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
					Expected: string(a2a.ErrUnsupportedOperation) + " (§3.3.4)", Actual: "a stream whose first event is " + eventLabel(ev.Resp)})
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

// eventLabel names an event for a report: its kind and what distinguishes it in a
// sequence (state, artifact chunk and text, message id).
func eventLabel(r a2a.StreamResponse) string {
	switch {
	case r.Task != nil:
		return "task " + string(r.Task.Status.State)
	case r.StatusUpdate != nil:
		return "statusUpdate " + string(r.StatusUpdate.Status.State)
	case r.ArtifactUpdate != nil:
		u := r.ArtifactUpdate
		s := fmt.Sprintf("artifactUpdate %s %q", suites.Cut(u.Artifact.ArtifactID, 40), suites.Cut(textOfParts(u.Artifact.Parts), 40))
		if u.Append {
			s += " append"
		}
		if u.LastChunk {
			s += " lastChunk"
		}
		return s
	case r.Message != nil:
		return "message " + suites.Cut(r.Message.MessageID, 40)
	}
	return "an empty StreamResponse"
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
		out = append(out, eventLabel(r))
	}
	return strings.Join(out, ", ")
}

// textOfParts joins the text parts of a message or artifact.
func textOfParts(ps []a2a.Part) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Text != nil {
			b.WriteString(*p.Text)
		}
	}
	return b.String()
}

// stateRank orders states along a task's life; a stream must never go back. The
// interrupted states share WORKING's rank: a task moves between them.
func stateRank(s a2a.TaskState) int {
	switch {
	case s == a2a.TaskStateSubmitted:
		return 0
	case s == a2a.TaskStateWorking, s.Interrupted():
		return 1
	case s.Terminal():
		return 2
	}
	return -1
}

// taskStreamWant is what a task stream is judged against.
type taskStreamWant struct {
	where string
	// outcome is the terminal state the script ends in ("" for any).
	outcome a2a.TaskState
	// chunks are the artifact chunk texts in production order, when the
	// harness scripted them (nil for a prompt-map agent).
	chunks []string
	// workingFirst: the script moves to WORKING before its first chunk.
	workingFirst bool
	// text is the whole artifact the stream must leave the task with (its
	// snapshot's artifact plus the chunks after it), "" when not scripted.
	text string
}

// taskStreamResult is what a task stream showed.
type taskStreamResult struct {
	id, contextID string
	snapshot      *a2a.Task
	final         a2a.TaskState
	terminal      bool
	chunks        []string
	// artifacts is each artifact's text after applying the stream's chunks
	// (append or replace) to the snapshot.
	artifacts map[string]string
}

// checkTaskStream judges a task-lifecycle stream (§3.1.2, §3.1.6, §3.5.2,
// §11.7): a Task first; then only statusUpdate and artifactUpdate events of
// that task, states never going back, chunks appended only to artifacts
// already sent and never after their last chunk; the terminal state; then
// nothing but one optional repeat of the final Task, and the agent closes
// the stream. It is a pure function of the log.
func checkTaskStream(l *streamLog, w taskStreamWant) (taskStreamResult, []invariants.Violation) {
	var vs []invariants.Violation
	add := func(inv string, i int, expected, actual string) {
		where := fmt.Sprintf("%s, event %d", w.where, i+1)
		if i >= len(l.events) {
			where = fmt.Sprintf("%s, end of the stream after %d events", w.where, len(l.events))
		}
		vs = append(vs, invariants.Violation{Invariant: inv, Where: where, Expected: expected, Actual: actual})
	}
	res := taskStreamResult{artifacts: map[string]string{}}
	type chunkState struct{ last bool }
	known := map[string]*chunkState{}
	state := a2a.TaskState("")
	started := false
	repeats := 0
	for i, ev := range l.events {
		if ev.Err != nil {
			if ce, ok := client.AsError(ev.Err); ok && ce.Class == client.Transport {
				continue // a broken connection is not a framing error (see streamLog.broke)
			}
			add("stream-event", i, "a StreamResponse framed as the binding requires (§9.4.2, §11.7)", suites.ErrText(ev.Err))
			continue
		}
		r := ev.Resp
		if !started {
			started = true
			if r.Task == nil {
				add("stream-first-task", i, "a Task as the first event", eventLabel(r))
				res.id = r.TaskID()
				if r.StatusUpdate != nil {
					res.contextID = r.StatusUpdate.ContextID
				} else if r.ArtifactUpdate != nil {
					res.contextID = r.ArtifactUpdate.ContextID
				}
			} else {
				res.snapshot = r.Task
				res.id, res.contextID = r.Task.ID, r.Task.ContextID
				state = r.Task.Status.State
				res.terminal = state.Terminal()
				for _, a := range r.Task.Artifacts {
					known[a.ArtifactID] = &chunkState{}
					res.artifacts[a.ArtifactID] += textOfParts(a.Parts)
				}
				continue
			}
		}
		if res.terminal {
			if r.Task != nil && r.Task.ID == res.id && r.Task.Status.State == state && repeats == 0 {
				repeats++
				continue
			}
			add("stream-after-terminal", i, "nothing after the terminal "+string(state)+" but one optional repeat of the final Task (§11.7)", eventLabel(r))
			continue
		}
		ids := func(taskID, contextID string) {
			if taskID != res.id || contextID != res.contextID {
				add("stream-task", i, fmt.Sprintf("taskId %q and contextId %q, the streamed task's", res.id, res.contextID),
					fmt.Sprintf("taskId %q, contextId %q", taskID, contextID))
			}
		}
		switch {
		case r.StatusUpdate != nil:
			ids(r.StatusUpdate.TaskID, r.StatusUpdate.ContextID)
			s := r.StatusUpdate.Status.State
			if stateRank(s) < stateRank(state) {
				add("stream-order", i, "states in the order produced, never back from "+string(state), string(s))
			}
			state = s
			res.terminal = s.Terminal()
		case r.ArtifactUpdate != nil:
			u := r.ArtifactUpdate
			ids(u.TaskID, u.ContextID)
			if w.workingFirst && state == a2a.TaskStateSubmitted {
				add("stream-order", i, "TASK_STATE_WORKING before the first artifact chunk (the script's production order)", eventLabel(r)+" while "+string(state))
			}
			id := u.Artifact.ArtifactID
			cs := known[id]
			switch {
			case u.Append && cs == nil:
				add("stream-artifact", i, "append only to an artifact already sent", eventLabel(r)+" for an artifact not seen before")
			case u.Append && cs.last:
				add("stream-artifact", i, "no chunk after the artifact's lastChunk", eventLabel(r))
			}
			if cs == nil {
				cs = &chunkState{}
				known[id] = cs
			}
			cs.last = u.LastChunk
			text := textOfParts(u.Artifact.Parts)
			if u.Append {
				res.artifacts[id] += text
			} else {
				res.artifacts[id] = text
			}
			res.chunks = append(res.chunks, text)
		default:
			add("stream-shape", i, "only statusUpdate and artifactUpdate events after the first Task (§3.1.2)", eventLabel(r))
		}
	}
	res.final = state
	end := len(l.events)
	if !started {
		add("stream-first-task", end, "a Task as the first event", "no event ("+l.ending()+")")
		return res, vs
	}
	if w.chunks != nil && !l.broke && fmt.Sprintf("%q", res.chunks) != fmt.Sprintf("%q", w.chunks) {
		add("stream-order", end, fmt.Sprintf("artifact chunks %q in the order produced", w.chunks), fmt.Sprintf("%q", res.chunks))
	}
	if w.text != "" && !l.broke {
		got := ""
		for _, v := range res.artifacts {
			got += v
		}
		if len(res.artifacts) != 1 || got != w.text {
			add("stream-artifact", end, fmt.Sprintf("one artifact %q once the chunks are applied to the first Task's artifacts (nothing lost or repeated)", w.text),
				fmt.Sprintf("%d artifacts: %q", len(res.artifacts), got))
		}
	}
	switch {
	case !res.terminal && l.closed:
		add("stream-close", end, "the stream open until the task is terminal (§3.1.2)", "closed by the agent while the task was "+string(state))
	case !res.terminal && (l.timedOut || l.broke):
		// Still working when patience ran out: unfinished, not wrong.
	case !res.terminal:
		add("stream-terminal", end, "a terminal state on the stream", "none ("+l.ending()+"); last state "+string(state))
	case w.outcome != "" && state != w.outcome:
		add("stream-outcome", end, "the scripted outcome "+string(w.outcome), string(state))
	}
	if res.terminal && !l.closed {
		add("stream-close", end, "the agent closes the stream once the task is terminal (§3.1.2, §3.1.6)", l.ending())
	}
	return res, vs
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
		want := taskStreamWant{where: where, outcome: a2a.TaskStateCompleted, chunks: directiveChunks(t, text, 3), workingFirst: directiveScripted(t)}
		if directiveScripted(t) {
			want.text = text
		}
		res, v := checkTaskStream(log, want)
		t.Record(v...)
		t.Observe("stream-"+c.Binding(), fmt.Sprintf("%d events: %s; %s", len(log.events), eventLabels(log.responses()), log.ending()))
		if res.terminal && res.id != "" {
			got, err := t.Get(ctx, c, res.id)
			if err == nil && got.Status.State != res.final {
				t.Record(invariants.Violation{Invariant: "stream-outcome", Where: "GetTask " + res.id + " (" + c.Binding() + ") after its stream",
					Expected: "the terminal state the stream reported, " + string(res.final), Actual: string(got.Status.State)})
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

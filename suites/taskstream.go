package suites

import (
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// The per-event judgement of a task's stream, shared by the single-instance
// stream specs (LIFE-015, LIFE-017, LIFE-018) and the stream through another
// instance (ROLL-005): one rule, so that a stream that loses events fails
// wherever it attaches.

// StateRank orders states along a task's life; a stream must never go back.
// The interrupted states share WORKING's rank: a task moves between them.
func StateRank(s a2a.TaskState) int {
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

// EventLabel names an event for a report: its kind and what distinguishes it
// in a sequence (state, artifact chunk and text, message id).
func EventLabel(r a2a.StreamResponse) string {
	switch {
	case r.Task != nil:
		return "task " + string(r.Task.Status.State)
	case r.StatusUpdate != nil:
		return "statusUpdate " + string(r.StatusUpdate.Status.State)
	case r.ArtifactUpdate != nil:
		u := r.ArtifactUpdate
		s := fmt.Sprintf("artifactUpdate %s %q", Cut(u.Artifact.ArtifactID, 40), Cut(TextOfParts(u.Artifact.Parts), 40))
		if u.Append {
			s += " append"
		}
		if u.LastChunk {
			s += " lastChunk"
		}
		return s
	case r.Message != nil:
		return "message " + Cut(r.Message.MessageID, 40)
	}
	return "an empty StreamResponse"
}

// TextOfParts joins the text parts of a message or artifact.
func TextOfParts(ps []a2a.Part) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Text != nil {
			b.WriteString(*p.Text)
		}
	}
	return b.String()
}

// StreamEnd is how the reading of a stream ended.
type StreamEnd struct {
	// Closed: the agent ended the stream after a complete event.
	Closed bool
	// TimedOut: the harness's patience ran out before the stream ended (no
	// spec text bounds how long a task may work: unfinished, not wrong).
	TimedOut bool
	// Broke: the connection failed under the stream; what the agent would
	// have sent after it is unknown.
	Broke bool
	// Ending says how it ended, for a report.
	Ending string
}

// TaskStreamWant is what a task stream is judged against.
type TaskStreamWant struct {
	Where string
	// Outcome is the terminal state the script ends in ("" for any).
	Outcome a2a.TaskState
	// Chunks are the artifact chunk texts in production order, when the
	// harness scripted them and the stream started with the task (nil for a
	// prompt-map agent, and for a subscription, whose snapshot may hold some).
	Chunks []string
	// WorkingFirst: the script moves to WORKING before its first chunk.
	WorkingFirst bool
	// Text is the whole artifact the stream must leave the task with (its
	// snapshot's artifact plus the chunks after it), "" when not scripted.
	Text string
}

// TaskStreamResult is what a task stream showed.
type TaskStreamResult struct {
	ID, ContextID string
	Snapshot      *a2a.Task
	Final         a2a.TaskState
	Terminal      bool
	Chunks        []string
	// Artifacts is each artifact's text after applying the stream's chunks
	// (append or replace) to the snapshot.
	Artifacts map[string]string
}

// CheckTaskStream judges a task-lifecycle stream (§3.1.2, §3.1.6, §3.5.2,
// §11.7): a Task first; then only statusUpdate and artifactUpdate events of
// that task, states never going back, chunks appended only to artifacts
// already sent and never after their last chunk, and (when scripted) every
// chunk of the script once; the terminal state; then nothing but one
// optional repeat of the final Task, and the agent closes the stream. It is
// a pure function of the events and how the reading ended.
func CheckTaskStream(events []Event, end StreamEnd, w TaskStreamWant) (TaskStreamResult, []invariants.Violation) {
	var vs []invariants.Violation
	add := func(inv string, i int, expected, actual string) {
		where := fmt.Sprintf("%s, event %d", w.Where, i+1)
		if i >= len(events) {
			where = fmt.Sprintf("%s, end of the stream after %d events", w.Where, len(events))
		}
		vs = append(vs, invariants.Violation{Invariant: inv, Where: where, Expected: expected, Actual: actual})
	}
	res := TaskStreamResult{Artifacts: map[string]string{}}
	type chunkState struct{ last bool }
	known := map[string]*chunkState{}
	state := a2a.TaskState("")
	started := false
	repeats := 0
	for i, ev := range events {
		if ev.Err != nil {
			if ce, ok := client.AsError(ev.Err); ok && ce.Class == client.Transport {
				continue // a broken connection is not a framing error (see StreamEnd.Broke)
			}
			add("stream-event", i, "a StreamResponse framed as the binding requires (§9.4.2, §11.7)", ErrText(ev.Err))
			continue
		}
		r := ev.Resp
		if !started {
			started = true
			if r.Task == nil {
				add("stream-first-task", i, "a Task as the first event", EventLabel(r))
				res.ID = r.TaskID()
				if r.StatusUpdate != nil {
					res.ContextID = r.StatusUpdate.ContextID
				} else if r.ArtifactUpdate != nil {
					res.ContextID = r.ArtifactUpdate.ContextID
				}
			} else {
				res.Snapshot = r.Task
				res.ID, res.ContextID = r.Task.ID, r.Task.ContextID
				state = r.Task.Status.State
				res.Terminal = state.Terminal()
				for _, a := range r.Task.Artifacts {
					known[a.ArtifactID] = &chunkState{}
					res.Artifacts[a.ArtifactID] += TextOfParts(a.Parts)
				}
				continue
			}
		}
		if res.Terminal {
			if r.Task != nil && r.Task.ID == res.ID && r.Task.Status.State == state && repeats == 0 {
				repeats++
				continue
			}
			add("stream-after-terminal", i, "nothing after the terminal "+string(state)+" but one optional repeat of the final Task (§11.7)", EventLabel(r))
			continue
		}
		ids := func(taskID, contextID string) {
			if taskID != res.ID || contextID != res.ContextID {
				add("stream-task", i, fmt.Sprintf("taskId %q and contextId %q, the streamed task's", res.ID, res.ContextID),
					fmt.Sprintf("taskId %q, contextId %q", taskID, contextID))
			}
		}
		switch {
		case r.StatusUpdate != nil:
			ids(r.StatusUpdate.TaskID, r.StatusUpdate.ContextID)
			s := r.StatusUpdate.Status.State
			if StateRank(s) < StateRank(state) {
				add("stream-order", i, "states in the order produced, never back from "+string(state), string(s))
			}
			state = s
			res.Terminal = s.Terminal()
		case r.ArtifactUpdate != nil:
			u := r.ArtifactUpdate
			ids(u.TaskID, u.ContextID)
			if w.WorkingFirst && state == a2a.TaskStateSubmitted {
				add("stream-order", i, "TASK_STATE_WORKING before the first artifact chunk (the script's production order)", EventLabel(r)+" while "+string(state))
			}
			id := u.Artifact.ArtifactID
			cs := known[id]
			switch {
			case u.Append && cs == nil:
				add("stream-artifact", i, "append only to an artifact already sent", EventLabel(r)+" for an artifact not seen before")
			case u.Append && cs.last:
				add("stream-artifact", i, "no chunk after the artifact's lastChunk", EventLabel(r))
			}
			if cs == nil {
				cs = &chunkState{}
				known[id] = cs
			}
			cs.last = u.LastChunk
			text := TextOfParts(u.Artifact.Parts)
			if u.Append {
				res.Artifacts[id] += text
			} else {
				res.Artifacts[id] = text
			}
			res.Chunks = append(res.Chunks, text)
		default:
			add("stream-shape", i, "only statusUpdate and artifactUpdate events after the first Task (§3.1.2)", EventLabel(r))
		}
	}
	res.Final = state
	last := len(events)
	if !started {
		add("stream-first-task", last, "a Task as the first event", "no event ("+end.Ending+")")
		return res, vs
	}
	if w.Chunks != nil && !end.Broke && fmt.Sprintf("%q", res.Chunks) != fmt.Sprintf("%q", w.Chunks) {
		add("stream-order", last, fmt.Sprintf("artifact chunks %q in the order produced", w.Chunks), fmt.Sprintf("%q", res.Chunks))
	}
	if w.Text != "" && !end.Broke {
		got := ""
		for _, v := range res.Artifacts {
			got += v
		}
		if len(res.Artifacts) != 1 || got != w.Text {
			add("stream-artifact", last, fmt.Sprintf("one artifact %q once the chunks are applied to the first Task's artifacts (nothing lost or repeated)", w.Text),
				fmt.Sprintf("%d artifacts: %q", len(res.Artifacts), got))
		}
	}
	switch {
	case !res.Terminal && end.Closed:
		add("stream-close", last, "the stream open until the task is terminal (§3.1.2)", "closed by the agent while the task was "+string(state))
	case !res.Terminal && (end.TimedOut || end.Broke):
		// Still working when patience ran out: unfinished, not wrong.
	case !res.Terminal:
		add("stream-terminal", last, "a terminal state on the stream", "none ("+end.Ending+"); last state "+string(state))
	case w.Outcome != "" && state != w.Outcome:
		add("stream-outcome", last, "the scripted outcome "+string(w.Outcome), string(state))
	}
	if res.Terminal && !end.Closed {
		add("stream-close", last, "the agent closes the stream once the task is terminal (§3.1.2, §3.1.6)", end.Ending)
	}
	return res, vs
}

package rollout

import (
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/suites"
)

func crossTask(state a2a.TaskState, text string) suites.Event {
	t := &a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: state}}
	if text != "" {
		t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Parts: []a2a.Part{a2a.TextPart(text)}}}
	}
	return suites.Event{Resp: a2a.StreamResponse{Task: t}}
}

func crossStatus(state a2a.TaskState) suites.Event {
	return suites.Event{Resp: a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: state}}}}
}

func crossChunk(text string, appended, last bool) suites.Event {
	return suites.Event{Resp: a2a.StreamResponse{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: "t1", ContextID: "c1",
		Artifact: a2a.Artifact{ArtifactID: "a1", Parts: []a2a.Part{a2a.TextPart(text)}}, Append: appended, LastChunk: last}}}
}

// ROLL-005 judges every event of the stream through the other instance, not
// only its ends: a stream that reaches the terminal state and closes, but
// lost artifact chunks on the way, fails.
func TestJudgeCrossStream(t *testing.T) {
	working, completed := a2a.TaskStateWorking, a2a.TaskStateCompleted
	cases := []struct {
		name   string
		evs    []suites.Event
		closed bool
		text   string
		want   string
	}{
		{"every chunk", []suites.Event{crossTask(working, ""), crossChunk("ab", false, false), crossChunk("cd", true, false), crossChunk("ef", true, true), crossStatus(completed)}, true, "abcdef", ""},
		{"snapshot holds the first chunk", []suites.Event{crossTask(working, "ab"), crossChunk("cd", true, false), crossChunk("ef", true, true), crossStatus(completed)}, true, "abcdef", ""},
		{"every artifact event dropped", []suites.Event{crossTask(working, ""), crossStatus(completed)}, true, "abcdef", "stream-artifact"},
		{"chunks after the first dropped", []suites.Event{crossTask(working, ""), crossChunk("ab", false, false), crossStatus(completed)}, true, "abcdef", "stream-artifact"},
		{"chunks after the snapshot's dropped", []suites.Event{crossTask(working, "ab"), crossStatus(completed)}, true, "abcdef", "stream-artifact"},
		{"a chunk repeated", []suites.Event{crossTask(working, "ab"), crossChunk("ab", true, false), crossChunk("cd", true, false), crossChunk("ef", true, true), crossStatus(completed)}, true, "abcdef", "stream-artifact"},
		{"prompt map: its artifacts are its own", []suites.Event{crossTask(working, ""), crossStatus(completed)}, true, "", ""},
		{"snapshot then silence", []suites.Event{crossTask(working, "")}, false, "abcdef", "stream-across-instances,stream-artifact"},
		{"closed before the end", []suites.Event{crossTask(working, ""), crossChunk("ab", false, false)}, true, "abcdef", "stream-across-instances,stream-artifact"},
		{"no snapshot", []suites.Event{crossChunk("ab", false, false), crossChunk("cd", true, false), crossChunk("ef", true, true), crossStatus(completed)}, true, "abcdef", "stream-across-instances"},
		{"left open", []suites.Event{crossTask(working, ""), crossChunk("ab", false, false), crossChunk("cd", true, false), crossChunk("ef", true, true), crossStatus(completed)}, false, "abcdef", "stream-across-instances"},
		{"an event after the end", []suites.Event{crossTask(working, "abcdef"), crossStatus(completed), crossStatus(working)}, true, "abcdef", "stream-across-instances,stream-after-terminal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := judgeCrossStream(c.evs, c.closed, time.Second, completed, "s", c.text)
			var got []string
			for _, v := range vs {
				got = append(got, v.Invariant)
			}
			if strings.Join(got, ",") != c.want {
				t.Fatalf("violations %q, want %q: %+v", strings.Join(got, ","), c.want, vs)
			}
		})
	}
}

// The watch of a canceled task lasts past a late acknowledgement: the
// clean reference agent, answering the cancel 1.1 s into a watch of 1.2 s
// on a loaded machine, had 319 ms left for another instance's stream to
// show TASK_STATE_CANCELED, and failed ROLL-006.
func TestWatchPastALateAcknowledgement(t *testing.T) {
	t0 := time.Unix(1000, 0)
	settle := 300 * time.Millisecond
	until := t0.Add(1200 * time.Millisecond)
	ms := time.Millisecond
	for _, c := range []struct {
		name                string
		expected, sent, ack time.Duration // sent and ack after t0
		want                time.Duration
	}{
		{"early acknowledgement: until stands", 800 * ms, 200 * ms, 250 * ms, 1200 * ms},
		{"late acknowledgement: half the task past it", 800 * ms, 1000 * ms, 1100 * ms, 1500 * ms},
		{"slow cancel: twice its flight past it", 800 * ms, 500 * ms, 1100 * ms, 2300 * ms},
		{"short task: the settle window past it", 100 * ms, 1150 * ms, 1190 * ms, 1490 * ms},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := crossAck{sent: t0.Add(c.sent), at: t0.Add(c.ack)}
			if got := watchPast(until, a, c.expected, settle).Sub(t0); got != c.want {
				t.Errorf("the watch ends %s after creation, want %s", got, c.want)
			}
		})
	}
}

// A stream ROLL-006 held open with no TASK_STATE_CANCELED after the
// acknowledgement never heard of the cancel, but only once it was held past
// the cancel's own flight: one the harness closed sooner (before the
// acknowledgement, as a deadline set from the task's expected end once did
// on a loaded machine) is not judged.
func TestUnheardCancelOnAStream(t *testing.T) {
	ms := time.Millisecond
	t0 := time.Unix(1000, 0)
	// Acknowledged 2 s into the history, its round trip 1.2 s.
	ack := crossAck{sent: t0, at: t0.Add(1200 * ms), h: 2000 * ms}
	at := func(e suites.Event, d time.Duration) suites.Event { e.At = d; return e }
	broken := suites.Event{At: 2100 * ms, Err: &client.Error{Class: client.Transport}}
	for _, c := range []struct {
		name           string
		evs            []suites.Event
		closed         bool
		ended          time.Duration
		silent, judged bool
	}{
		{"CANCELED after the acknowledgement", []suites.Event{at(crossTask(a2a.TaskStateWorking, ""), 500*ms), at(crossStatus(a2a.TaskStateCanceled), 2100*ms)}, false, 5000 * ms, false, true},
		{"closed by the agent", []suites.Event{at(crossTask(a2a.TaskStateWorking, ""), 500*ms)}, true, 2500 * ms, false, true},
		{"broken by a transport error", []suites.Event{at(crossTask(a2a.TaskStateWorking, ""), 500*ms), broken}, false, 2100 * ms, false, true},
		{"held open past the flight, silent", []suites.Event{at(crossTask(a2a.TaskStateWorking, ""), 500*ms)}, false, 4500 * ms, true, true},
		{"CANCELED only before the acknowledgement, held open", []suites.Event{at(crossStatus(a2a.TaskStateCanceled), 1900*ms)}, false, 4500 * ms, true, true},
		{"closed by the harness before the acknowledgement", []suites.Event{at(crossTask(a2a.TaskStateWorking, ""), 500*ms)}, false, 1800 * ms, true, false},
		{"closed by the harness within the flight", nil, false, 3000 * ms, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			silent, judged := unheard(c.evs, c.closed, c.ended, ack)
			if silent != c.silent || judged != c.judged {
				t.Errorf("unheard = silent %v, judged %v; want %v, %v", silent, judged, c.silent, c.judged)
			}
		})
	}
}

package lifecycle

import (
	"errors"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Table tests for the pure checkers behind LIFE-015..024: each case is a
// recorded stream, list walk or history, and the invariants it must (or
// must not) break.

func ev(r a2a.StreamResponse) suites.Event { return suites.Event{Resp: r} }

func taskEv(state a2a.TaskState, arts ...a2a.Artifact) suites.Event {
	return ev(a2a.StreamResponse{Task: &a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: state}, Artifacts: arts}})
}

func statusEv(state a2a.TaskState) suites.Event {
	return ev(a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: state}}})
}

func chunkEv(text string, appended, last bool) suites.Event {
	return ev(a2a.StreamResponse{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: "t1", ContextID: "c1",
		Artifact: a2a.Artifact{ArtifactID: "a1", Parts: []a2a.Part{a2a.TextPart(text)}}, Append: appended, LastChunk: last}})
}

func msgEv(id string) suites.Event {
	return ev(a2a.StreamResponse{Message: &a2a.Message{MessageID: id, Role: a2a.RoleAgent, Parts: []a2a.Part{a2a.TextPart("hi")}}})
}

func invariantsOf(vs []invariants.Violation) string {
	var names []string
	for _, v := range vs {
		names = append(names, v.Invariant)
	}
	return strings.Join(names, ",")
}

var (
	working   = a2a.TaskStateWorking
	submitted = a2a.TaskStateSubmitted
	completed = a2a.TaskStateCompleted
)

func TestCheckTaskStream(t *testing.T) {
	good := []suites.Event{taskEv(submitted), statusEv(working), chunkEv("ab", false, false), chunkEv("cd", true, true), statusEv(completed)}
	want := suites.TaskStreamWant{Where: "s", Outcome: completed, Chunks: []string{"ab", "cd"}, WorkingFirst: true, Text: "abcd"}
	cases := []struct {
		name   string
		events []suites.Event
		closed bool
		want   string
	}{
		{"in order and closed", good, true, ""},
		{"one repeated final task is allowed", append(append([]suites.Event{}, good...), taskEv(completed)), true, ""},
		{"left open", good, false, "stream-close"},
		{"closed before terminal", good[:4], true, "stream-close"},
		{"no terminal, not closed", good[:4], false, "stream-terminal"},
		{"update first", good[1:], true, "stream-first-task"},
		{"chunk before working", []suites.Event{taskEv(submitted), chunkEv("ab", false, false), statusEv(working), chunkEv("cd", true, true), statusEv(completed)}, true, "stream-order"},
		{"chunks swapped", []suites.Event{taskEv(submitted), statusEv(working), chunkEv("cd", false, false), chunkEv("ab", true, true), statusEv(completed)}, true, "stream-order,stream-artifact"},
		{"append to unknown artifact", []suites.Event{taskEv(submitted), statusEv(working), chunkEv("ab", true, false), chunkEv("cd", true, true), statusEv(completed)}, true, "stream-artifact"},
		{"chunk after lastChunk", []suites.Event{taskEv(submitted), statusEv(working), chunkEv("ab", false, true), chunkEv("cd", true, true), statusEv(completed)}, true, "stream-artifact"},
		{"state goes back", []suites.Event{taskEv(working), statusEv(submitted), chunkEv("ab", false, false), chunkEv("cd", true, true), statusEv(completed)}, true, "stream-order,stream-order,stream-order"},
		{"event after terminal", append(append([]suites.Event{}, good...), statusEv(working)), true, "stream-after-terminal"},
		{"message mid-stream", []suites.Event{taskEv(submitted), statusEv(working), msgEv("m"), chunkEv("ab", false, false), chunkEv("cd", true, true), statusEv(completed)}, true, "stream-shape"},
		{"framing error", append([]suites.Event{{Err: &client.Error{Class: client.Protocol, Message: "id mismatch"}}}, good...), true, "stream-event"},
		{"wrong outcome", []suites.Event{taskEv(submitted), statusEv(working), chunkEv("ab", false, false), chunkEv("cd", true, true), statusEv(a2a.TaskStateFailed)}, true, "stream-outcome"},
		{"other task's event", []suites.Event{taskEv(submitted), ev(a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "t2", ContextID: "c1", Status: a2a.TaskStatus{State: working}}}),
			chunkEv("ab", false, false), chunkEv("cd", true, true), statusEv(completed)}, true, "stream-task"},
		{"empty", nil, true, "stream-first-task"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, vs := checkTaskStream(&streamLog{events: c.events, closed: c.closed}, want)
			if got := invariantsOf(vs); got != c.want {
				t.Fatalf("violations %q, want %q\n%s", got, c.want, invariants.Summarize(vs, 10))
			}
		})
	}
}

// A subscription's snapshot may already hold chunks: the ones after it
// complete the artifact, and a chunk repeated from the snapshot is caught.
func TestCheckTaskStreamFromSnapshot(t *testing.T) {
	snap := taskEv(working, a2a.Artifact{ArtifactID: "a1", Parts: []a2a.Part{a2a.TextPart("ab")}})
	w := suites.TaskStreamWant{Where: "s", Outcome: completed, Text: "abcd"}
	if _, vs := checkTaskStream(&streamLog{events: []suites.Event{snap, chunkEv("cd", true, true), statusEv(completed)}, closed: true}, w); len(vs) > 0 {
		t.Fatalf("gap closed, yet: %s", invariants.Summarize(vs, 5))
	}
	_, vs := checkTaskStream(&streamLog{events: []suites.Event{snap, chunkEv("ab", true, false), chunkEv("cd", true, true), statusEv(completed)}, closed: true}, w)
	if invariantsOf(vs) != "stream-artifact" {
		t.Fatalf("repeated chunk: %q", invariantsOf(vs))
	}
}

func TestCheckMessageStream(t *testing.T) {
	for _, c := range []struct {
		name   string
		events []suites.Event
		closed bool
		want   string
	}{
		{"one message", []suites.Event{msgEv("m1")}, true, ""},
		{"two messages", []suites.Event{msgEv("m1"), msgEv("m2")}, true, "message-stream"},
		{"left open", []suites.Event{msgEv("m1")}, false, "stream-close"},
		{"nothing", nil, true, "message-stream"},
		{"a status", []suites.Event{statusEv(completed)}, true, "message-stream"},
	} {
		if got := invariantsOf(checkMessageStream(&streamLog{events: c.events, closed: c.closed}, "s")); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCheckSameEvents(t *testing.T) {
	a := &streamLog{events: []suites.Event{taskEv(submitted), statusEv(working), chunkEv("ab", false, false), chunkEv("cd", true, true), statusEv(completed)}}
	for _, c := range []struct {
		name string
		b    []suites.Event
		want string
	}{
		{"attached after working", []suites.Event{taskEv(working), chunkEv("ab", false, false), chunkEv("cd", true, true), statusEv(completed)}, ""},
		{"attached at once, with the optional final task", []suites.Event{taskEv(submitted), statusEv(working), chunkEv("ab", false, false), chunkEv("cd", true, true), statusEv(completed), taskEv(completed)}, ""},
		{"got nothing", []suites.Event{taskEv(working)}, "stream-broadcast"},
		{"missed one in the middle", []suites.Event{taskEv(working), chunkEv("ab", false, false), statusEv(completed)}, "stream-broadcast"},
		{"reordered", []suites.Event{taskEv(working), chunkEv("cd", true, true), chunkEv("ab", false, false), statusEv(completed)}, "stream-broadcast"},
		{"stale snapshot", []suites.Event{taskEv(submitted), statusEv(completed)}, "stream-broadcast"},
	} {
		if got := invariantsOf(checkSameEvents(a, &streamLog{events: c.b}, "A", "B")); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// A closed by the harness at its patience before B, which attached
	// later and so had its patience later: B holds a chunk A never had the
	// time to get. LIFE-017 called that a lost event (stream-broadcast)
	// against the reference agent at --patience 1s.
	cutA := &streamLog{timedOut: true, events: []suites.Event{taskEv(submitted), statusEv(working), chunkEv("ab", false, false)}}
	laterB := &streamLog{timedOut: true, events: []suites.Event{taskEv(working), chunkEv("ab", false, false), chunkEv("cd", true, true)}}
	if got := invariantsOf(checkSameEvents(cutA, laterB, "A", "B")); got != "" {
		t.Errorf("streams cut by the harness at different points: %q, want no violation", got)
	}
}

func TestCheckTerminalSubscribe(t *testing.T) {
	refusal := &client.Error{Class: client.A2A, Kind: a2a.ErrUnsupportedOperation, InStream: true}
	for _, c := range []struct {
		name   string
		events []suites.Event
		want   string
	}{
		{"refused in the stream", []suites.Event{{Err: refusal}}, ""},
		{"snapshot then close", []suites.Event{taskEv(completed)}, "subscribe-terminal"},
		{"empty", nil, "subscribe-terminal"},
		{"other error", []suites.Event{{Err: &client.Error{Class: client.A2A, Kind: a2a.ErrTaskNotFound}}}, "subscribe-terminal"},
	} {
		vs, _ := checkTerminalSubscribe(&streamLog{events: c.events, closed: true}, "s")
		if got := invariantsOf(vs); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func listed(id, ts string, state a2a.TaskState) a2a.Task {
	return a2a.Task{ID: id, Status: a2a.TaskStatus{State: state, Timestamp: ts}}
}

func TestCheckPages(t *testing.T) {
	tok, end := "next", ""
	t1 := listed("t1", "2026-01-01T00:00:03.000Z", completed)
	t2 := listed("t2", "2026-01-01T00:00:02.000Z", completed)
	t3 := listed("t3", "2026-01-01T00:00:01.000Z", completed)
	busy := listed("w", "2026-01-01T00:00:09.000Z", working)
	bare := listed("u", "", completed)
	for _, c := range []struct {
		name  string
		pages []listPage
		want  string
	}{
		{"newest first", []listPage{{[]a2a.Task{t1, t2}, &tok}, {[]a2a.Task{t3}, &end}}, ""},
		{"ties allowed", []listPage{{[]a2a.Task{t1, t1b()}, &end}}, ""},
		{"oldest first", []listPage{{[]a2a.Task{t3, t2}, &tok}, {[]a2a.Task{t1}, &end}}, "list-order,list-order"},
		{"no token on the last page", []listPage{{[]a2a.Task{t1, t2}, &tok}, {[]a2a.Task{t3}, nil}}, "list-next-page-token"},
		{"page too long", []listPage{{[]a2a.Task{t1, t2, t3}, &end}}, "list-page-size"},
		{"repeat across pages", []listPage{{[]a2a.Task{t1, t2}, &tok}, {[]a2a.Task{t2, t3}, &end}}, "list-cursor"},
		{"another client's task is not judged across pages", []listPage{{[]a2a.Task{t1, t2}, &tok}, {[]a2a.Task{busy, t3}, &end}}, ""},
		{"nor within a page: it may have moved", []listPage{{[]a2a.Task{t1, busy}, &end}}, ""},
		{"the spec's own tasks are judged around it", []listPage{{[]a2a.Task{t3, busy}, &tok}, {[]a2a.Task{t1}, &end}}, "list-order"},
		{"unstamped tasks are not judged", []listPage{{[]a2a.Task{t3, bare, t1}, &end}}, "list-page-size,list-order"},
	} {
		own := func(id string) bool { return id != "w" }
		vs, _, _ := checkPages(c.pages, 2, own, "w")
		if got := invariantsOf(vs); got != c.want {
			t.Errorf("%s: %q, want %q\n%s", c.name, got, c.want, invariants.Summarize(vs, 5))
		}
	}
}

func t1b() a2a.Task { return listed("t1b", "2026-01-01T00:00:03.000Z", completed) }

func hist(ids ...string) []a2a.Message {
	var out []a2a.Message
	for _, id := range ids {
		role := a2a.RoleUser
		if strings.HasPrefix(id, "a") {
			role = a2a.RoleAgent
		}
		out = append(out, a2a.Message{MessageID: id, Role: role, Parts: []a2a.Part{a2a.TextPart("text of " + id)}})
	}
	return out
}

func TestCheckHistoryLength(t *testing.T) {
	full := hist("u1", "a1", "u2")
	for _, c := range []struct {
		name     string
		got      []a2a.Message
		n        int
		reversed bool
		want     string
	}{
		{"most recent one", hist("u2"), 1, false, ""},
		{"most recent two", hist("a1", "u2"), 2, false, ""},
		{"fewer is allowed", hist("u2"), 2, false, ""},
		{"too many", full, 1, false, "history-length"},
		{"the oldest", hist("u1"), 1, false, "history-length"},
		{"newest-first history, its first is the most recent", hist("u2"), 1, true, ""},
	} {
		f := full
		if c.reversed {
			f = hist("u2", "a1", "u1")
		}
		if got := invariantsOf(checkHistoryLength(f, c.got, c.n, c.reversed, "w")); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCheckHistory(t *testing.T) {
	sent := hist("u1", "u2")
	prompt := hist("a1")[0]
	cv := conversation{sent: sent, prompt: &prompt}
	edited := hist("u1", "a1", "u2")
	edited[2].Parts = []a2a.Part{a2a.TextPart("rewritten")}
	renamed := hist("u1", "a1", "x2")
	renamed[2].Parts = sent[1].Parts
	for _, c := range []struct {
		name string
		h    []a2a.Message
		want string
	}{
		{"chronological", hist("u1", "a1", "u2"), ""},
		{"agent reply kept after", hist("u1", "a1", "u2", "a2"), ""},
		{"reversed", hist("u2", "a1", "u1"), "history-order,history-order"},
		{"content changed", edited, "history-faithful"},
		{"messageId changed", renamed, "history-faithful"},
		{"nothing kept", nil, ""},
	} {
		vs, _ := checkHistory(c.h, cv, "w")
		if got := invariantsOf(vs); got != c.want {
			t.Errorf("%s: %q, want %q\n%s", c.name, got, c.want, invariants.Summarize(vs, 5))
		}
	}
	if !newestFirst(hist("u2", "a1", "u1"), cv) || newestFirst(hist("u1", "a1", "u2"), cv) {
		t.Fatal("newestFirst misreads the order")
	}
}

func TestRefusedAsInvalid(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&client.Error{Class: client.A2A, Binding: a2a.BindingJSONRPC, Code: a2a.CodeInvalidParams}, true},
		{&client.Error{Class: client.A2A, Binding: a2a.BindingHTTPJSON, HTTPStatus: 400}, true},
		{&client.Error{Class: client.A2A, Binding: a2a.BindingJSONRPC, Code: -32603}, false},
		{&client.Error{Class: client.Transport}, false},
		{errors.New("plain"), false},
	} {
		if got := refusedAsInvalid(c.err); got != c.want {
			t.Errorf("%v: %v, want %v", c.err, got, c.want)
		}
	}
}

// LIFE-031/032 compare refusals; what is not the agent's refusal (no
// answer, a gateway's 5xx or 429 without the binding's error body) is
// unknown, never compared, while the binding's own errors are refusals.
func TestAnswerOfTellsRefusalsFromNoAnswer(t *testing.T) {
	for _, c := range []struct {
		err     *client.Error
		unknown bool
	}{
		{&client.Error{Class: client.Transport}, true},
		{&client.Error{Class: client.HTTP, HTTPStatus: 502}, true},
		{&client.Error{Class: client.HTTP, HTTPStatus: 429}, true},
		{&client.Error{Class: client.HTTP, HTTPStatus: 403}, false},
		{&client.Error{Class: client.HTTP, HTTPStatus: 401}, false},
		{&client.Error{Class: client.A2A, HTTPStatus: 404, Kind: a2a.ErrTaskNotFound}, false},
		{&client.Error{Class: client.A2A, HTTPStatus: 500, Code: a2a.CodeInternalError}, false},
	} {
		a := answerOf(c.err, nil)
		if (a.unknown != "") != c.unknown || (!c.unknown && !a.refused()) {
			t.Errorf("%s HTTP %d: unknown %q, refused %v; want unknown %v", c.err.Class, c.err.HTTPStatus, a.unknown, a.refused(), c.unknown)
		}
	}
}

package invariants

import (
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

const (
	working   = a2a.TaskStateWorking
	completed = a2a.TaskStateCompleted
	canceled  = a2a.TaskStateCanceled
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func get(state a2a.TaskState, issued, received int) Observation {
	return Observation{TaskID: "t", State: state, Source: FromGet, Issued: ms(issued), Received: ms(received), Ref: "GetTask"}
}

func ev(ch string, state a2a.TaskState, at int) Observation {
	return Observation{TaskID: "t", State: state, Source: FromStream, Issued: ms(at), Received: ms(at), Channel: ch, Ref: "event"}
}

func push(state a2a.TaskState, at int) Observation {
	return Observation{TaskID: "t", State: state, Source: FromPush, Issued: ms(at), Received: ms(at), Channel: "push", Ref: "push"}
}

func TestTerminalImmutable(t *testing.T) {
	cases := []struct {
		name string
		obs  []Observation
		want int
	}{
		{"polls settle", []Observation{get(working, 0, 1), get(completed, 2, 3), get(completed, 4, 5)}, 0},
		{"poll after terminal regresses", []Observation{get(completed, 0, 1), get(working, 2, 3)}, 1},
		{"overlapping polls are not ordered", []Observation{get(completed, 0, 5), get(working, 1, 6)}, 0},
		{"two terminal states", []Observation{get(canceled, 0, 1), get(completed, 2, 3)}, 1},
		{"two terminal states across sources", []Observation{get(canceled, 0, 1), push(completed, 9)}, 1},
		{"stream repeats final snapshot", []Observation{ev("s1", working, 1), ev("s1", completed, 2), ev("s1", completed, 3)}, 0},
		{"stream event after terminal", []Observation{ev("s1", completed, 2), ev("s1", working, 3)}, 1},
		{"late push of earlier state is allowed", []Observation{get(completed, 0, 1), push(working, 5)}, 0},
		{"other stream delivered late is its own channel", []Observation{ev("s1", completed, 2), ev("s2", working, 3)}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := TerminalImmutable(c.obs)
			if len(vs) != c.want {
				t.Fatalf("got %d violations, want %d:\n%s", len(vs), c.want, Summarize(vs, 0))
			}
			for _, v := range vs {
				if v.Invariant == "" || v.Where == "" || v.Expected == "" || v.Actual == "" {
					t.Fatalf("incomplete violation %+v", v)
				}
			}
		})
	}
}

func TestCancelRace(t *testing.T) {
	cases := []struct {
		name          string
		answer        CancelAnswer
		obs           []Observation
		final         a2a.TaskState
		outcome       string
		violations    int
		indeterminate bool
	}{
		{"acked and stays canceled", CancelAcked, []Observation{get(canceled, 5, 6), ev("s", canceled, 6)}, canceled, "canceled", 0, false},
		{"acked then completes (scenario 3)", CancelAcked, []Observation{get(canceled, 5, 6), push(completed, 9)}, completed, "canceled", 3, false},
		{"acked after it had completed", CancelAcked, []Observation{ev("s", completed, 2), get(canceled, 5, 6)}, canceled, "canceled", 2, false},
		{"refused, completes", CancelRefused, []Observation{get(completed, 5, 6)}, completed, "completed-first", 0, false},
		{"refused yet canceled", CancelRefused, []Observation{get(canceled, 5, 6)}, canceled, "completed-first", 1, false},
		{"refused, never settles", CancelRefused, []Observation{get(working, 5, 6)}, working, "", 0, true},
		{"no answer", CancelUnknown, nil, "", "", 0, true},
		{"no answer but a violation seen", CancelUnknown, []Observation{get(canceled, 1, 2), get(completed, 3, 4)}, completed, "", 1, false},
		{"pending then canceled", CancelPending, nil, canceled, "canceled", 0, false},
		{"pending never settles", CancelPending, nil, working, "", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := CancelRace("t", c.answer, c.obs, c.final)
			if len(r.Violations) != c.violations {
				t.Fatalf("violations %d, want %d:\n%s", len(r.Violations), c.violations, Summarize(r.Violations, 0))
			}
			if (r.Indeterminate != "") != c.indeterminate {
				t.Fatalf("indeterminate %q, want %v", r.Indeterminate, c.indeterminate)
			}
			if c.violations == 0 && !c.indeterminate && r.Outcome != c.outcome {
				t.Fatalf("outcome %q, want %q", r.Outcome, c.outcome)
			}
		})
	}
}

func TestRaceBound(t *testing.T) {
	if got := RaceBound(200, 0); !strings.Contains(got, "0.015") {
		t.Fatal(got)
	}
	if got := RaceBound(10, 2); !strings.Contains(got, "2 violation") {
		t.Fatal(got)
	}
}

// snap is a GetTask answer holding artifacts (id → parts).
func snap(state a2a.TaskState, issued, received int, arts Artifacts) Observation {
	o := get(state, issued, received)
	o.Snapshot, o.Artifacts = true, arts
	return o
}

func TestTerminalImmutableArtifacts(t *testing.T) {
	one := Artifacts{"a": 1}
	cases := []struct {
		name string
		obs  []Observation
		want int
	}{
		{"artifacts settle with the terminal state", []Observation{snap(working, 0, 1, nil), snap(completed, 2, 3, one), snap(completed, 4, 5, one)}, 0},
		{"a new artifact after the cancel", []Observation{snap(canceled, 0, 1, nil), snap(canceled, 2, 3, one)}, 1},
		{"a part appended after terminal", []Observation{snap(completed, 0, 1, one), snap(completed, 2, 3, Artifacts{"a": 2})}, 1},
		{"a second artifact id after terminal", []Observation{snap(completed, 0, 1, one), snap(completed, 2, 3, Artifacts{"a": 1, "b": 1})}, 1},
		{"overlapping request is not ordered", []Observation{snap(canceled, 0, 5, nil), snap(canceled, 1, 6, one)}, 0},
		{"a slim cancel answer does not hide earlier artifacts", []Observation{snap(working, 0, 1, one), snap(canceled, 2, 3, nil), snap(canceled, 4, 5, one)}, 0},
		{"growth reported once", []Observation{snap(canceled, 0, 1, nil), snap(canceled, 2, 3, one), snap(canceled, 4, 5, Artifacts{"a": 2})}, 1},
		{"observations without a snapshot say nothing of artifacts", []Observation{snap(canceled, 0, 1, nil), get(canceled, 2, 3)}, 0},
		{"stream snapshots are not compared", []Observation{snap(canceled, 0, 1, nil), func() Observation { o := ev("s1", canceled, 5); o.Snapshot, o.Artifacts = true, one; return o }()}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := TerminalImmutable(c.obs)
			if len(vs) != c.want {
				t.Fatalf("got %d violations, want %d:\n%s", len(vs), c.want, Summarize(vs, 0))
			}
			for _, v := range vs {
				if v.Invariant != "terminal-immutable" || v.Where == "" || !strings.Contains(v.Actual, "artifact") {
					t.Fatalf("violation %+v", v)
				}
			}
		})
	}
}

// A race trial whose acknowledged cancel is followed by a GetTask that shows
// an artifact the canceled task did not hold fails, though every state
// stays TASK_STATE_CANCELED (the cross-instance executor that runs on).
func TestCancelRaceArtifactsAfterAck(t *testing.T) {
	cancelAns := snap(canceled, 5, 6, nil)
	cancelAns.Source = FromCancel
	r := CancelRace("t", CancelAcked, []Observation{snap(working, 0, 1, nil), cancelAns, snap(canceled, 7, 8, Artifacts{"a": 1})}, canceled)
	if len(r.Violations) != 1 || !strings.Contains(r.Violations[0].Actual, "new artifact a") {
		t.Fatalf("violations %v", r.Violations)
	}
}

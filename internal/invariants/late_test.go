package invariants

import (
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// One rule reads every cancel answer: only a terminal CANCELED task
// acknowledges; a non-terminal task is a cancel still pending.
func TestAnswerOf(t *testing.T) {
	task := func(s a2a.TaskState) *a2a.Task { return &a2a.Task{ID: "t", Status: a2a.TaskStatus{State: s}} }
	for _, c := range []struct {
		name   string
		task   *a2a.Task
		failed bool
		kind   a2a.ErrorKind
		want   CancelAnswer
	}{
		{"canceled", task(a2a.TaskStateCanceled), false, "", CancelAcked},
		{"working (asynchronous)", task(a2a.TaskStateWorking), false, "", CancelPending},
		{"submitted", task(a2a.TaskStateSubmitted), false, "", CancelPending},
		{"input-required", task(a2a.TaskStateInputRequired), false, "", CancelPending},
		{"already completed", task(a2a.TaskStateCompleted), false, "", CancelRefused},
		{"already failed", task(a2a.TaskStateFailed), false, "", CancelRefused},
		{"not cancelable", nil, true, a2a.ErrTaskNotCancelable, CancelRefused},
		{"not found", nil, true, a2a.ErrTaskNotFound, CancelUnknown},
		{"transport", nil, true, "", CancelUnknown},
		{"no task", nil, false, "", CancelUnknown},
		{"unknown state", task("TASK_STATE_PAUSED"), false, "", CancelUnknown},
		{"v0.3 spelling", task("canceled"), false, "", CancelUnknown},
	} {
		if got := AnswerOf(c.task, c.failed, c.kind); got != c.want {
			t.Errorf("%s: AnswerOf = %s, want %s", c.name, got, c.want)
		}
	}
}

func TestLateChange(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	cancel := Observation{TaskID: "t", State: a2a.TaskStateCanceled, Source: FromCancel, Issued: ms(90), Received: ms(100),
		Ref: "CancelTask #3", Snapshot: true, Artifacts: Artifacts{}}
	get := func(at int, s a2a.TaskState, art Artifacts) Observation {
		return Observation{TaskID: "t", State: s, Source: FromGet, Issued: ms(at - 5), Received: ms(at), Ref: "GetTask", Snapshot: true, Artifacts: art}
	}
	push := func(at int, s a2a.TaskState) Observation {
		return Observation{TaskID: "t", State: s, Source: FromPush, Issued: ms(at), Received: ms(at), Channel: "push", Ref: "push"}
	}
	art := Artifacts{"a1": 1}
	stamped := func(o Observation, at string) Observation { o.Stamp = at; return o }
	for _, c := range []struct {
		name  string
		obs   []Observation
		since time.Duration
		want  []string // invariants, in order
		delay string   // a delay the first violation states
	}{
		{"stays canceled", []Observation{cancel, get(200, a2a.TaskStateCanceled, Artifacts{}), push(300, a2a.TaskStateCanceled)}, 0, nil, ""},
		{"completes 500 ms later", []Observation{cancel, get(200, a2a.TaskStateCanceled, Artifacts{}), get(600, a2a.TaskStateCompleted, art)}, 0,
			[]string{"terminal-final", "terminal-gains-nothing"}, "500ms after the acknowledged cancel"},
		{"the agent's timestamps tell when it changed", []Observation{stamped(cancel, "2026-01-02T03:04:05.100Z"), stamped(get(9000, a2a.TaskStateCompleted, art), "2026-01-02T03:04:05.600Z")}, 0,
			[]string{"terminal-final", "terminal-gains-nothing"}, "timestamps put the change 500ms after it"},
		{"artifact only", []Observation{cancel, get(8100, a2a.TaskStateCanceled, art)}, 0, []string{"terminal-gains-nothing"}, "8s after the acknowledged cancel"},
		{"push only", []Observation{cancel, get(3200, a2a.TaskStateCanceled, Artifacts{}), push(3100, a2a.TaskStateCompleted)}, 0,
			[]string{"terminal-final"}, "3s after the acknowledged cancel"},
		{"a late push of an artifact is no evidence", []Observation{cancel, {TaskID: "t", Source: FromPush, Received: ms(900), Channel: "push", Ref: "push"}}, 0, nil, ""},
		{"a late push of an earlier state is no evidence", []Observation{cancel, push(900, a2a.TaskStateWorking)}, 0, nil, ""},
		{"judged before since: left to the spec", []Observation{cancel, get(600, a2a.TaskStateCompleted, Artifacts{})}, ms(700), nil, ""},
		{"after since", []Observation{cancel, get(600, a2a.TaskStateCompleted, Artifacts{}), get(900, a2a.TaskStateCompleted, Artifacts{})}, ms(700), nil, ""},
		{"completed first, stays", []Observation{get(100, a2a.TaskStateCompleted, art), get(5000, a2a.TaskStateCompleted, art)}, 0, nil, ""},
		{"completed, later canceled", []Observation{get(100, a2a.TaskStateCompleted, art), get(5000, a2a.TaskStateCanceled, art)}, 0,
			[]string{"terminal-final"}, "4.9s after the first terminal state (TASK_STATE_COMPLETED)"},
		{"never terminal", []Observation{get(100, a2a.TaskStateWorking, nil)}, 0, nil, ""},
		{"other task", []Observation{cancel, {TaskID: "u", State: a2a.TaskStateCompleted, Source: FromGet, Received: ms(900), Snapshot: true}}, 0, nil, ""},
	} {
		_, vs := LateChange("t", c.obs, c.since)
		var got []string
		for _, v := range vs {
			got = append(got, v.Invariant)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: violations %v, want %v: %s", c.name, got, c.want, Summarize(vs, 5))
			continue
		}
		if c.delay != "" && !strings.Contains(vs[0].Actual, c.delay) {
			t.Errorf("%s: %q does not state the delay %q", c.name, vs[0].Actual, c.delay)
		}
	}
}

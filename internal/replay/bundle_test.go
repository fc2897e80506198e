package replay

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

func exchange(seq int, at float64, url, pin, body string) reports.Exchange {
	h := http.Header{}
	if pin != "" {
		h.Set(PinHeader, pin)
	}
	return reports.Exchange{Seq: seq, AtMs: at, DurMs: 1, Direction: "out", Method: "POST", URL: url, ReqHeader: h, ReqBody: body}
}

// A rollout failure's bundle names each place its requests went by a role
// (the target, each pinned instance, any other origin), carries the change
// it crossed as a step, and says what it leaves out; without the change, a
// failure only a change can show gets no bundle.
func TestBundleOfARolloutFailure(t *testing.T) {
	r := &reports.Report{Run: reports.Run{Target: "http://127.0.0.1:9000", Seed: 7}}
	res := reports.Result{ID: "ROLL-002", Verdict: reports.Fail,
		Violations: []invariants.Violation{{Invariant: "lost-task-not-recreated"}, {Invariant: "push-config-survives-rollout"}},
		Steps:      []reports.Step{{AtMs: 30, DurMs: 5, Kind: "roll", Point: "rollout-step", Accepts: []string{"rollout-step", "restart-instance"}}},
		Transcript: []reports.Exchange{
			exchange(1, 10, "http://127.0.0.1:9000/a2a/jsonrpc", "", `{"method":"SendMessage"}`),
			exchange(2, 40, "http://127.0.0.1:9000/a2a/jsonrpc", "0", `{"method":"GetTask"}`),
			exchange(3, 41, "http://127.0.0.1:9000/a2a/jsonrpc", "1", `{"method":"GetTask"}`),
			exchange(4, 42, "http://127.0.0.1:9001/a2a/jsonrpc", "", `{"method":"GetTask"}`),
			exchange(5, 43, "http://127.0.0.1:9000/a2a/jsonrpc", "0", `{"method":"CreateTaskPushNotificationConfig"}`),
			exchange(6, 44, "grpc://127.0.0.1:9002/a2a.v1.A2AService/GetTask", "", ""),
			{Seq: 7, AtMs: 45, Direction: "in", Method: "POST", URL: "/hook/x"},
			exchange(8, 46, "http://127.0.0.1:9000/a2a/jsonrpc", "0", `{"method":"SendMessage"}`),
		}}
	b, why := For(r, res)
	if b == nil {
		t.Fatalf("no bundle: %s", why)
	}
	if want := []string{"target", "instance-0", "instance-1", "origin-1"}; !slices.Equal(b.Roles(), want) {
		t.Errorf("roles %v, want %v", b.Roles(), want)
	}
	var roles []string
	for _, q := range b.Requests {
		roles = append(roles, q.role())
	}
	if want := []string{"target", "instance-0", "instance-1", "origin-1", "instance-0"}; !slices.Equal(roles, want) {
		t.Errorf("request roles %v, want %v", roles, want)
	}
	if !slices.Equal(b.Judges, []string{"lost-task-not-recreated"}) {
		t.Errorf("judges %v: want only the invariant a replay judges", b.Judges)
	}
	if len(b.Steps) != 1 || b.Steps[0].AtMs != 30 {
		t.Errorf("steps %+v", b.Steps)
	}
	skipped := strings.Join(b.Skipped, "; ")
	for _, w := range []string{"1 gRPC", "1 webhook", "1 push config"} {
		if !strings.Contains(skipped, w) {
			t.Errorf("skipped %q lacks %q", skipped, w)
		}
	}
	res.Steps = nil
	if b, why := For(r, res); b != nil || !strings.Contains(why, "change") {
		t.Errorf("a failure only a change shows, without the change: bundle %v, why %q", b != nil, why)
	}
	res.Violations = []invariants.Violation{{Invariant: "etag-tracks-card"}}
	if b, why := For(r, res); b != nil || !strings.Contains(why, "change") {
		t.Errorf("a card's ETag across a change, without the change: bundle %v, why %q", b != nil, why)
	}
	// A fail no replay judges says what it rests on.
	for inv, want := range map[string]string{"push-delivered": "webhook receiver", "card-only-when-ready": "no hook command stops or starts"} {
		res.Violations = []invariants.Violation{{Invariant: inv}}
		if b, why := For(r, res); b != nil || !strings.Contains(why, want) {
			t.Errorf("%s: bundle %v, why %q: want it to say %q", inv, b != nil, why, want)
		}
	}
}

// A bundle with one role takes one URL; one with several needs one per
// role, and refuses a role it does not have.
func TestReplayTargetsByRole(t *testing.T) {
	one := &Bundle{Requests: []Request{{Exchange: reports.Exchange{URL: "http://a/x"}}}}
	if m, err := targets(one, Options{Target: "http://127.0.0.1:1"}); err != nil || m[RoleTarget].Host != "127.0.0.1:1" {
		t.Errorf("one role, one URL: %v %v", m, err)
	}
	two := &Bundle{Origins: []Origin{{Role: "instance-0"}, {Role: "instance-1"}}}
	if _, err := targets(two, Options{Target: "http://127.0.0.1:1"}); err == nil || !strings.Contains(err.Error(), "ROLE=URL") {
		t.Errorf("two roles, one URL: %v", err)
	}
	if _, err := targets(two, Options{Targets: map[string]string{"instance-0": "http://127.0.0.1:1"}}); err == nil || !strings.Contains(err.Error(), "instance-1") {
		t.Errorf("a role without a URL: %v", err)
	}
	if _, err := targets(two, Options{Targets: map[string]string{"instance-0": "http://127.0.0.1:1", "instance-1": "http://127.0.0.1:1", "instance-9": "http://127.0.0.1:1"}}); err == nil {
		t.Error("a role the bundle does not have was accepted")
	}
}

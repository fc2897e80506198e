package runner_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Under driver none (a --target run) the harness controls no instance: every
// rollout spec is could-not-run, naming the drivers that would run it, and
// none passes.
func TestRolloutSpecsNeedADriver(t *testing.T) {
	a, err := fakes.New(fakes.Options{Name: "target"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a)
	defer srv.Close()
	if err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer a.Shutdown(context.Background())
	r := runCLI(t, nil, "--target", srv.URL, "--suite", "rollout", "--seed", "2")
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	n := 0
	for _, res := range r.report.Results {
		if res.Suite != suites.Rollout {
			continue
		}
		n++
		if res.Verdict != reports.CouldNotRun {
			t.Errorf("%s: %s under driver none, want could-not-run: %s", res.ID, res.Verdict, res.Reason)
		}
		if !strings.Contains(res.Reason, `driver "none"`) || !strings.Contains(res.Reason, "embedded") {
			t.Errorf("%s: the reason does not name the driver it ran under and the one that would enable it: %s", res.ID, res.Reason)
		}
	}
	if want := len(suites.InSuites(suites.Rollout)); n != want {
		t.Fatalf("%d rollout results, want %d", n, want)
	}
}

// Under the process driver there is no CDN of the harness's (the vendor's
// instances are fronted by the balancer alone), so ROLL-007 is
// could-not-run and names the driver it ran under and the one that has it.
func TestStaleCDNSpecNeedsTheEmbeddedDriver(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(""), "--instances", "2",
		"--focus", "ROLL-007", "--seed", "3", "--header", "Authorization: Bearer x")
	if r.report == nil || len(r.report.Results) != 1 {
		t.Fatalf("want one result (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	res := r.report.Results[0]
	if res.Verdict != reports.CouldNotRun {
		t.Errorf("ROLL-007: %s under driver process, want could-not-run: %s", res.Verdict, res.Reason)
	}
	if !strings.Contains(res.Reason, `driver "process"`) || !strings.Contains(res.Reason, "embedded") {
		t.Errorf("ROLL-007: the reason does not name the driver it ran under and the one that would enable it: %s", res.Reason)
	}
}

// ROLL-009 on the embedded driver (3 instances): every phase registered
// and was accepted, the one through the draining instance included (the
// driver holds the old instance's drain open while the spec acts), and
// every config got its terminal state. The fault matrix test proves the
// other way (push-config-lost-on-drain).
func TestMidRolloutRegistrationReachesTheDrainingInstance(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--focus", "ROLL-009", "--seed", "9")
	res := result(t, r, "ROLL-009")
	if res.Verdict != reports.Pass {
		t.Fatalf("ROLL-009 on the clean embedded agent: %s: %s\n%v", res.Verdict, res.Reason, res.Observations)
	}
	for _, want := range []string{"old-before-drain: 3 registered, 3 accepted", "old-draining: 3 registered, 3 accepted", "new-while-old-drains: 3 registered, 3 accepted"} {
		if !strings.Contains(res.Observations["phases"], want) {
			t.Errorf("phases %q lacks %q", res.Observations["phases"], want)
		}
	}
	if !strings.Contains(res.Observations["counts"], "9 judged: 9 got their task's terminal state, 0 lost") {
		t.Errorf("counts: %s", res.Observations["counts"])
	}
}

// ROLL-009 against the reference agent made slow (1 s steps, driven by the
// prompt map, no directive) as separate processes rolled by the process
// driver: a correct agent, so it passes, whatever its drain let through.
func TestSlowAgentMidRolloutRegistrationPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("rolls a slow agent's processes")
	}
	t.Parallel()
	cfg := promptMapConfig(t)
	r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(" --delay 1s --prompt-map --no-directive"), "--instances", "3",
		"--config", cfg, "--focus", "ROLL-009", "--seed", "4", "--header", "Authorization: Bearer x")
	res := result(t, r, "ROLL-009")
	if res.Verdict != reports.Pass {
		log, _ := os.ReadFile(filepath.Join(r.out, "agent.log"))
		t.Fatalf("ROLL-009 on the slow process agent: %s: %s\n%v\nagent.log (tail):\n%s", res.Verdict, res.Reason, res.Observations, tail(string(log), 3000))
	}
	if res.Observations["behaviour"] != "prompt-map" || res.Observations["prompt-keys"] != "slow" {
		t.Errorf("not driven by the prompt map's slow key: %v", res.Observations)
	}
	t.Logf("phases: %s; counts: %s", res.Observations["phases"], res.Observations["counts"])
}

// A correct agent that refuses registrations it cannot confirm yet (503
// with Retry-After, scenario 2's advice) is retried, not failed: each
// instance refuses its first one, so the registration through the old
// instance before its drain and the one through the new instance are each
// refused once and accepted on a retry, and every accepted config is
// delivered.
func TestMidRolloutRefusedRegistrationIsRetriedNotFailed(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(" --refuse-push-configs 1"), "--instances", "2",
		"--focus", "ROLL-009", "--seed", "6", "--header", "Authorization: Bearer x")
	res := result(t, r, "ROLL-009")
	if res.Verdict != reports.Pass {
		t.Fatalf("ROLL-009 against an agent that refuses honestly: %s: %s\n%v", res.Verdict, res.Reason, res.Observations)
	}
	for _, want := range []string{"old-before-drain: 2 registered, 2 accepted (2 after a refusal)", "new-while-old-drains: 2 registered, 2 accepted (2 after a refusal)"} {
		if !strings.Contains(res.Observations["phases"], want) {
			t.Errorf("phases %q lacks %q", res.Observations["phases"], want)
		}
	}
}

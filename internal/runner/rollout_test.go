package runner_test

import (
	"context"
	"net/http/httptest"
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

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

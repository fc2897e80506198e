package clientproof_test

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"testing"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/cli"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Ginkgo's RunSpecs runs once per process, so every run here is a child
// process: this test binary re-executed as the CLI.
const cliEnv = "A2A_CONFORM_TEST_AS_CLI"

// stepDelayEnv, in a CLI child, makes every embedded instance (and the
// scripted agent of the client cases) slow: each task step takes at least
// this long.
const stepDelayEnv = "A2A_CONFORM_TEST_STEP_DELAY"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		if d, err := time.ParseDuration(os.Getenv(stepDelayEnv)); err == nil && d > 0 {
			runner.EmbeddedTweak = func(o *fakes.Options) { o.StepDelay = d }
		}
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	// The runs wait on the scripted agent, not on the CPU: four at a time
	// unless -parallel says otherwise, as in internal/runner. The proofs
	// all start (64): the slow client's two run at once and proofRuns
	// holds the others to six, eight in all (alone on two cores: 77 s; 105
	// s with sixteen at once, where the CPU ran out).
	testkit.DefaultParallelProofs(max(4, runtime.GOMAXPROCS(0)), 64)
	dir, err := os.MkdirTemp("", "clientproof-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	driverBin, err = testkit.BuildRefDriver(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// proofRuns holds the client variants' proof runs, but for the slow
// client's two, to six at a time.
var proofRuns = testkit.NewLimit(6)

// driverBin is the reference client driver built alone (testkit.BuildRefDriver).
var driverBin string

type cliRun struct {
	exit   int
	stdout string
	stderr string
	out    string
	report *reports.Report
}

func verdicts(r *reports.Report) map[string]reports.Verdict {
	m := map[string]reports.Verdict{}
	for _, res := range r.Results {
		m[res.ID] = res.Verdict
	}
	return m
}

// result returns the result of one spec, failing the test when it is missing.
func result(t *testing.T, r cliRun, id string) reports.Result {
	t.Helper()
	if r.report == nil {
		t.Fatalf("no report (exit %d)\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
	}
	for _, res := range r.report.Results {
		if res.ID == id {
			return res
		}
	}
	t.Fatalf("no result for %s\nstdout:\n%s", id, r.stdout)
	return reports.Result{}
}

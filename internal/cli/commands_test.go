package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
)

// The matrix and flakes commands re-run the CLI as child processes; in this
// test binary a child with cliEnv set acts as the CLI.
const cliEnv = "A2A_CONFORM_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	executable = func() (string, error) { return os.Args[0], nil }
	// Every child this binary starts (the matrix's and flakes' runs, the
	// replays, the fake agents) is this binary acting as the CLI.
	_ = os.Setenv(cliEnv, "1")
	// The matrix's client rows start a driver for every case: the driver
	// built alone starts on a third of this binary's CPU.
	dir, err := os.MkdirTemp("", "cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin, err := testkit.BuildRefDriver(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	clientDriver = func() string { return reports.ShellQuote(bin) }
	// The tests here wait on child runs, not on the CPU: eight at a time
	// unless -parallel says otherwise.
	testkit.DefaultParallel(8)
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// One fault through the matrix command: the clean agent and the fault each
// run in a child, the expectation holds, and a partial matrix writes no table.
func TestMatrixCommandOnOneFault(t *testing.T) {
	t.Parallel()
	table := filepath.Join(t.TempDir(), "m.md")
	var so, se bytes.Buffer
	code := Main([]string{"matrix", "--fault", "no-cache-headers", "--seed", "5", "--out", table, "--work", t.TempDir()}, &so, &se)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, so.String(), se.String())
	}
	for _, want := range []string{"run --seed 5 ", "run --seed 6 --fault no-cache-headers --suite discovery", "clean agent: no fail, no indeterminate"} {
		if !strings.Contains(so.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, so.String())
		}
	}
	if _, err := os.Stat(table); err == nil {
		t.Error("a matrix of one fault wrote the table")
	}
}

// Flakes over two clean runs and two runs of one fault: both series run,
// with seeds of their own, and the detection line is there.
func TestFlakesCommandShape(t *testing.T) {
	t.Parallel()
	var so, se bytes.Buffer
	// One suite keeps the clean runs short; a fault of another suite
	// (cancel-then-complete names lifecycle specs) is left out.
	code := Main([]string{"flakes", "--runs", "2", "--fault-runs", "2", "--fault", "no-cache-headers,cancel-then-complete", "--suite", "discovery",
		"--seed", "40", "--work", t.TempDir()}, &so, &se)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, so.String(), se.String())
	}
	for _, want := range []string{"seeds 40–43", "Clean reference agent, 2 runs of the suites discovery:", "no-cache-headers", "2/2 100%", "4 runs in", "1 of 1 faults caught in every run"} {
		if !strings.Contains(so.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, so.String())
		}
	}
	if strings.Contains(so.String(), "cancel-then-complete") {
		t.Errorf("a fault of another suite ran:\n%s", so.String())
	}
	so.Reset()
	se.Reset()
	if code := Main([]string{"flakes", "--suite", "discovery,nosuch"}, &so, &se); code != 2 || !strings.Contains(se.String(), `unknown suite "nosuch"`) {
		t.Errorf("unknown suite: exit %d, stderr %q", code, se.String())
	}
}

func runWith(seed int64, v map[string]reports.Verdict) *harnessRun {
	r := &harnessRun{Seed: seed, Report: &reports.Report{}}
	for id, x := range v {
		r.Report.Results = append(r.Report.Results, reports.Result{ID: id, Verdict: x})
	}
	return r
}

func TestVerdictChangesNameTheSeeds(t *testing.T) {
	t.Parallel()
	p, i := reports.Pass, reports.Indeterminate
	runs := []*harnessRun{
		runWith(1, map[string]reports.Verdict{"LIFE-014": p, "DISC-001": p}),
		runWith(2, map[string]reports.Verdict{"LIFE-014": i, "DISC-001": p}),
		runWith(3, map[string]reports.Verdict{"LIFE-014": p, "DISC-001": p}),
		runWith(4, map[string]reports.Verdict{"LIFE-014": p}),
		{Seed: 5},
	}
	changes, broken := verdictChanges(runs)
	if len(broken) != 1 || broken[0].Seed != 5 {
		t.Errorf("broken %v, want the run without a report", broken)
	}
	if len(changes) != 2 {
		t.Fatalf("changes %+v, want DISC-001 (missing once) and LIFE-014", changes)
	}
	if c := changes[1]; c.Spec != "LIFE-014" || c.Counts != "pass ×3, indeterminate ×1" || c.Seeds != "pass: 1, 3, 4; indeterminate: 2" {
		t.Errorf("LIFE-014: %+v", c)
	}
	if c := changes[0]; c.Spec != "DISC-001" || !strings.Contains(c.Counts, "(no result)") {
		t.Errorf("DISC-001: %+v", c)
	}
}

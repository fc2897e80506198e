package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
)

// cli runs the CLI in a child process (Ginkgo's RunSpecs runs once per
// process, and the retries spawn children of their own).
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, so.String(), se.String()
}

// The whole loop a vendor's CI goes through, against the embedded agent
// with a fault that fails DISC-017 (a MUST): a starting baseline from the
// report, refused until its reason is written; then the listed fail is
// expected (exit 0 though a MUST failed), and once the fault is gone the
// entry is "fixed" and fails the build until removed. An entry naming no
// spec fails it too. Each run's report carries the baseline's outcome and
// still verifies.
func TestBaselineGate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := func(s string) string { return filepath.Join(dir, s) }
	fault := []string{"run", "--suite", "discovery", "--fault", "card-signature-stale", "--seed", "3"}

	code, so, se := cli(t, append(fault, "--out", p("first"))...)
	if code != 1 {
		t.Fatalf("the faulty run exits %d, want 1\n%s\n%s", code, so, se)
	}
	code, so, se = cli(t, "baseline", p("first/report.json"), "--out", p("base.yaml"), "--expires", "30d")
	if code != 0 || !strings.Contains(so, "1 entries") {
		t.Fatalf("baseline: exit %d\n%s\n%s", code, so, se)
	}
	code, so, se = cli(t, append(fault, "--out", p("refused"), "--expect", p("base.yaml"))...)
	if code != 2 || !strings.Contains(se, "entry DISC-017") || !strings.Contains(se, "placeholder") {
		t.Fatalf("an unfilled baseline must be a usage error naming the entry: exit %d\n%s", code, se)
	}
	if _, err := os.Stat(p("refused")); err == nil {
		t.Error("the refused run ran anyway")
	}

	text, _ := os.ReadFile(p("base.yaml"))
	filled := strings.Replace(string(text), "TODO: why is this expected?", "ACME-7: signing moves to the gateway in Q1", 1)
	os.WriteFile(p("base.yaml"), []byte(filled), 0o644)

	code, so, se = cli(t, append(fault, "--out", p("expected"), "--expect", p("base.yaml"))...)
	if code != 0 || !strings.Contains(so, "expected   DISC-017") {
		t.Fatalf("a listed fail is expected: exit %d\n%s\n%s", code, so, se)
	}
	r := verified(t, p("expected/report.json"))
	if r.Baseline == nil || r.Baseline.Failed != 0 || len(r.Baseline.Entries) != 1 || r.Baseline.Entries[0].Outcome != reports.OutcomeExpected {
		t.Fatalf("report's baseline %+v", r.Baseline)
	}
	if r.Summary.Score.MustFailed != 1 {
		t.Error("the baseline changes the exit code, never the verdicts or the score")
	}
	md, _ := os.ReadFile(p("expected/summary.md"))
	if !strings.Contains(string(md), "| expected | DISC-017 | fail | fail |") {
		t.Errorf("summary.md lacks the baseline row:\n%s", md)
	}

	code, so, se = cli(t, "run", "--suite", "discovery", "--seed", "3", "--out", p("fixed"), "--expect", p("base.yaml"))
	if code != 1 || !strings.Contains(so, "FIXED") || !strings.Contains(so, "remove it from the baseline") {
		t.Fatalf("a listed fail that passes fails the build: exit %d\n%s\n%s", code, so, se)
	}
	if r := verified(t, p("fixed/report.json")); r.Baseline.Entries[0].Outcome != reports.OutcomeFixed {
		t.Errorf("outcome %+v", r.Baseline.Entries[0])
	}

	os.WriteFile(p("unknown.yaml"), []byte(filled+"  - {id: DISC-999, verdict: fail, reason: renamed}\n"), 0o644)
	code, so, _ = cli(t, append(fault, "--out", p("unknown"), "--expect", p("unknown.yaml"))...)
	if code != 1 || !strings.Contains(so, "UNKNOWN    DISC-999") {
		t.Errorf("an entry naming no spec fails the build: exit %d\n%s", code, so)
	}
}

// --retry-unexpected re-runs the unexpected fail alone, with the run's
// seed, and records the attempt; a deterministic fault fails again, so the
// spec is not flaky and the exit code stays 1. The run also writes one ACTS
// report per transport, each valid against the draft's schema.
func TestRetryUnexpectedAndACTS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, so, se := cli(t, "run", "--suite", "discovery", "--fault", "card-signature-stale", "--seed", "3", "--out", dir, "--retry-unexpected", "2")
	if code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, so, se)
	}
	if !strings.Contains(so, "DISC-017 attempt 2: fail") || !strings.Contains(so, "DISC-017 attempt 3: fail") {
		t.Errorf("the attempts are not printed:\n%s", so)
	}
	r := verified(t, filepath.Join(dir, "report.json"))
	for _, res := range r.Results {
		switch {
		case res.ID == "DISC-017":
			if len(res.Attempts) != 2 || res.Attempts[0].Verdict != reports.Fail || res.Flipped() {
				t.Errorf("DISC-017 attempts %+v", res.Attempts)
			}
		case len(res.Attempts) > 0:
			t.Errorf("%s (%s) was retried", res.ID, res.Verdict)
		}
	}
	child, err := reports.ReadJSON(filepath.Join(dir, "retries", "DISC-017", "1", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if child.Run.Seed != r.Run.Seed || strings.Join(child.Run.Focus, ",") != "DISC-017" || strings.Join(child.Run.Faults, ",") != "card-signature-stale" {
		t.Errorf("the retry is not the same run of the spec alone: seed %d focus %v faults %v", child.Run.Seed, child.Run.Focus, child.Run.Faults)
	}

	raw, err := os.ReadFile("../../reports/testdata/acts-report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	c := jsonschema.NewCompiler()
	c.AddResource("acts.json", doc)
	sch, err := c.Compile("acts.json")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "acts-report-*.json"))
	var transports []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
		transports = append(transports, inst.(map[string]any)["transport"].(string))
	}
	if strings.Join(transports, ",") != "grpc,jsonrpc,rest" {
		t.Errorf("ACTS reports for %v, want one per transport of the reference agent", transports)
	}
}

func verified(t *testing.T, path string) *reports.Report {
	t.Helper()
	r, problems, err := reports.VerifyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Errorf("%s does not verify: %v", path, problems)
	}
	return r
}

func TestChildArgsDropWhatTheRetrySets(t *testing.T) {
	t.Parallel()
	got := childArgs([]string{"--suite", "discovery", "--out", "d", "--seed=4", "-focus", "X", "--expect", "b.yaml", "--retry-unexpected=2", "--previous", "r.json", "--config", "c.yaml", "--no-directive"})
	if strings.Join(got, " ") != "--suite discovery --config c.yaml --no-directive" {
		t.Errorf("child args %q", got)
	}
}

func TestSummaryCommandMatchesTheRun(t *testing.T) {
	t.Parallel()
	var so, se bytes.Buffer
	if code := Main([]string{"summary"}, &so, &se); code != 2 {
		t.Errorf("summary without a report exits %d", code)
	}
}

// A spec whose verdict flips on a re-run is flaky: it keeps its first
// verdict, the attempts stop at the flip, and with a baseline it fails the
// build unless its entry says flaky. The child run here is a script that
// always passes the spec, standing in for a spec that flakes.
func TestFlakyIsNeverGreen(t *testing.T) {
	// Not parallel: it swaps the package's executable, which the parallel
	// tests' child runs read (TestFlakesCommandShape once ran this test's
	// script, gone with its directory).
	dir := t.TempDir()
	script := filepath.Join(dir, "passes.sh")
	os.WriteFile(script, []byte(`#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in --out) out="$2"; shift;; esac; shift; done
mkdir -p "$out" && printf '{"results":[{"id":"DISC-017","verdict":"pass"}]}' > "$out/report.json"
`), 0o755)
	saved := executable
	executable = func() (string, error) { return script, nil }
	defer func() { executable = saved }()

	for _, tc := range []struct {
		listed string
		exit   int
		row    string
	}{
		{"", 1, reports.OutcomeFlaky}, // unlisted: retried, flips
		{"flaky", 0, reports.OutcomeExpected},
	} {
		out := filepath.Join(dir, "listed-"+tc.listed)
		raw := []byte("expected:\n  - {id: DISC-003, verdict: warn, reason: the CDN}\n")
		if tc.listed != "" {
			raw = []byte("expected:\n  - {id: DISC-017, verdict: " + tc.listed + ", reason: ACME-9}\n")
		}
		b, err := reports.ParseBaseline(raw)
		if err != nil {
			t.Fatal(err)
		}
		g := &gate{cfg: runner.Config{RetryUnexpected: 3, Expect: "b.yaml", Out: out}, args: []string{"--suite", "discovery"},
			base: b, baseRaw: raw, now: time.Now}
		r := &reports.Report{Run: reports.Run{Seed: 5}, Results: []reports.Result{{ID: "DISC-017", Level: "MUST", Verdict: reports.Fail, Reason: "bad signature"}}}
		o := &runner.Outcome{Report: r, Exit: runner.ExitFailed}
		var so, se bytes.Buffer
		g.after(context.Background(), o, &so, &se)
		res := r.Results[0]
		if tc.listed == "flaky" {
			if len(res.Attempts) != 0 {
				t.Errorf("an entry listed flaky is expected, not retried: %+v", res.Attempts)
			}
		} else if res.Verdict != reports.Fail || len(res.Attempts) != 1 || !res.Flipped() || !strings.Contains(so.String(), "DISC-017 is FLAKY") {
			t.Errorf("listed %s: verdict %s attempts %+v\n%s%s", tc.listed, res.Verdict, res.Attempts, so.String(), se.String())
		}
		var row reports.BaselineOutcome
		for _, e := range r.Baseline.Entries {
			if e.ID == "DISC-017" {
				row = e
			}
		}
		if o.Exit != tc.exit || row.Outcome != tc.row {
			t.Errorf("listed %q: exit %d row %+v, want exit %d outcome %s", tc.listed, o.Exit, row, tc.exit, tc.row)
		}
		written, err := reports.ReadJSON(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		if written.Summary.Score.Passed != 0 || written.Results[0].Verdict != reports.Fail || !written.Results[0].Flipped() && tc.listed == "" {
			t.Error("a flaky spec never counts as passed")
		}
	}
}

// An interrupted or unreachable run is neither retried nor judged against
// the baseline (every spec it never reached would be "unexpected"), and it
// keeps its own exit code.
func TestInterruptedRunIsNotJudged(t *testing.T) {
	t.Parallel()
	raw := []byte("expected:\n  - {id: DISC-017, verdict: fail, reason: ACME-9}\n")
	b, _ := reports.ParseBaseline(raw)
	for _, run := range []reports.Run{{Interrupted: "SIGINT"}, {Unreachable: true}} {
		g := &gate{cfg: runner.Config{RetryUnexpected: 2, Expect: "b.yaml", Out: t.TempDir()}, base: b, baseRaw: raw, now: time.Now}
		r := &reports.Report{Run: run, Results: []reports.Result{{ID: "DISC-001", Verdict: reports.CouldNotRun}, {ID: "DISC-017", Verdict: reports.Fail}}}
		o := &runner.Outcome{Report: r, Exit: 130}
		var so, se bytes.Buffer
		g.after(context.Background(), o, &so, &se)
		if o.Exit != 130 || r.Baseline != nil || len(r.Results[1].Attempts) != 0 || !strings.Contains(so.String(), "not judged") {
			t.Errorf("%+v: exit %d baseline %+v attempts %v\n%s", run, o.Exit, r.Baseline, r.Results[1].Attempts, so.String())
		}
	}
}

// The gate against the reference agent made slow (every step 400ms) under
// the process driver, serving no gRPC: the retry's child run starts its own
// agent, the listed fail is expected, the unlisted one fails the build
// after its attempt, and only the two declared transports get an ACTS
// report.
func TestGateOnASlowAgentUnderTheProcessDriver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := filepath.Join(dir, "base.yaml")
	os.WriteFile(base, []byte("expected:\n  - {id: LIFE-013, verdict: fail, reason: 'ACME-2: cancelling a terminal task answers 200'}\n"), 0o644)
	agent := reports.ShellQuote(os.Args[0]) + " fake --listen 127.0.0.1:{port} --grpc-listen off --delay 400ms --fault cancel-terminal-accepted,context-mismatch-accepted"
	out := filepath.Join(dir, "out")
	code, so, se := cli(t, "run", "--agent-cmd", agent, "--focus", "LIFE-010,LIFE-012,LIFE-013", "--seed", "5",
		"--out", out, "--expect", base, "--retry-unexpected", "1")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (LIFE-010 is not in the baseline)\n%s\n%s", code, so, se)
	}
	r := verified(t, filepath.Join(out, "report.json"))
	rows := map[string]reports.BaselineOutcome{}
	for _, e := range r.Baseline.Entries {
		rows[e.ID] = e
	}
	if rows["LIFE-013"].Outcome != reports.OutcomeExpected || rows["LIFE-010"].Outcome != reports.OutcomeUnexpected || len(rows) != 2 {
		t.Errorf("baseline rows %+v", rows)
	}
	for _, res := range r.Results {
		want := 0
		if res.ID == "LIFE-010" {
			want = 1
		}
		if len(res.Attempts) != want || want == 1 && res.Attempts[0].Verdict != reports.Fail {
			t.Errorf("%s (%s): attempts %+v", res.ID, res.Verdict, res.Attempts)
		}
	}
	files, _ := filepath.Glob(filepath.Join(out, "acts-report-*.json"))
	if len(files) != 2 || !strings.Contains(files[0], "-jsonrpc-") || !strings.Contains(files[1], "-rest-") {
		t.Errorf("ACTS reports %v, want jsonrpc and rest only", files)
	}
}

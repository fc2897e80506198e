// Package interop runs the harness against agents nobody here wrote the
// protocol code of, and holds their expected verdicts.
//
// js-agent/ is a small agent on the official JS SDK (@a2a-js/sdk, pinned by
// its package-lock.json) with the directive extension. TestJSSDKAgent starts
// it through the process driver, runs every suite, and compares each spec's
// verdict with baseline.json, where every non-pass carries a one-line reason
// citing ../../shared/a2a-v1.md. A verdict that changes fails the test:
// either the SDK, the agent or the harness changed, and someone must say
// which. UPDATE_BASELINE=1 rewrites the verdicts and keeps the reasons of the
// ones unchanged; a new non-pass gets a TODO that fails the test until a
// person writes its reason.
package interop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/cli"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// cliEnv makes the test binary act as the CLI, so the run gets a process of
// its own (one Ginkgo run per process).
const cliEnv = "A2A_CONFORM_INTEROP_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const baselineFile = "baseline.json"

// npmCITimeout bounds `npm ci`; from the npm cache it takes seconds.
const npmCITimeout = 3 * time.Minute

// runTimeout bounds the whole harness run (about 15 s on the 2-core machine).
const runTimeout = 5 * time.Minute

// Baseline is baseline.json: the expected verdict of every spec.
type Baseline struct {
	Agent string           `json:"agent"`
	Note  string           `json:"note,omitempty"`
	Specs map[string]Entry `json:"specs"`
}

// Entry is one spec's expected verdict; Why is required for every non-pass
// (not-applicable included): one line, citing a2a-v1.md.
type Entry struct {
	Verdict reports.Verdict `json:"verdict"`
	Why     string          `json:"why,omitempty"`
}

const todo = "TODO: justify against ../shared/a2a-v1.md, or fix the harness"

// need finds a tool or skips loudly (fails in CI, where .ci/run installs it).
func need(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err == nil {
		return p
	}
	msg := fmt.Sprintf("%s not on PATH: the interop test against the JS SDK agent needs node and npm (apt-get install -y nodejs npm)", tool)
	if os.Getenv("CI") != "" {
		t.Fatal(msg + "; .ci/run must install them")
	}
	t.Skip("SKIPPING the JS SDK interop test: " + msg)
	return ""
}

func TestJSSDKAgent(t *testing.T) {
	node := need(t, "node")
	npm := need(t, "npm")

	dir, err := filepath.Abs("js-agent")
	if err != nil {
		t.Fatal(err)
	}
	npmCI(t, npm, dir)

	out := t.TempDir()
	agent := fmt.Sprintf("'%s' '%s' --port {port}", node, filepath.Join(dir, "agent.js"))
	rep, stdout := run(t, out, "--agent-cmd", agent, "--seed", "12")
	if rep == nil {
		t.Fatalf("no report.json; the run printed:\n%s\nagent.log:\n%s", stdout, tail(filepath.Join(out, "agent.log")))
	}
	got := map[string]reports.Result{}
	for _, r := range rep.Results {
		got[r.ID] = r
	}

	base := readBaseline(t)
	if os.Getenv("UPDATE_BASELINE") != "" {
		writeBaseline(t, base, got)
		base = readBaseline(t)
	}

	var ids []string
	for _, info := range suites.All() {
		ids = append(ids, info.ID)
	}
	for id := range base.Specs {
		if !slices.Contains(ids, id) {
			t.Errorf("%s: in %s but no longer a registered spec (UPDATE_BASELINE=1 drops it)", id, baselineFile)
		}
	}
	for _, id := range ids {
		want, ok := base.Specs[id]
		res, ran := got[id]
		switch {
		case !ran:
			t.Errorf("%s: not in the report", id)
		case !ok:
			t.Errorf("%s: %s, and %s has no entry for it (UPDATE_BASELINE=1, then justify)", id, res.Verdict, baselineFile)
		case res.Verdict != want.Verdict:
			t.Errorf("%s: verdict changed: baseline %s (%s), now %s: %s", id, want.Verdict, want.Why, res.Verdict, res.Reason)
		case want.Verdict != reports.Pass && (want.Why == "" || want.Why == todo):
			t.Errorf("%s: %s with no justification in %s: %s", id, want.Verdict, baselineFile, res.Reason)
		}
	}
	if t.Failed() {
		t.Logf("the run printed:\n%s", stdout)
	}
}

// npmCI installs the agent's dependencies exactly as the committed lockfile
// says. It prefers the npm cache; without network or cache the test cannot
// run, which is a skip outside CI.
func npmCI(t *testing.T, npm, dir string) {
	t.Helper()
	cmd := exec.Command(npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	var outb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &outb
	timer := time.AfterFunc(npmCITimeout, func() { _ = cmd.Process.Kill() })
	err := cmd.Run()
	timer.Stop()
	if err != nil {
		msg := fmt.Sprintf("npm ci in %s failed (%v): is the npm registry or cache reachable?\n%s", dir, err, outb.String())
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip("SKIPPING the JS SDK interop test: " + msg)
	}
}

// run runs the CLI in a child process and returns its report.
func run(t *testing.T, out string, args ...string) (*reports.Report, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"run", "--out", out}, args...)...)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	cmd.WaitDelay = 10 * time.Second
	var outb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &outb
	timer := time.AfterFunc(runTimeout, func() { _ = cmd.Process.Kill() })
	err := cmd.Run()
	timer.Stop()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("running the CLI: %v", err)
	}
	rep, rerr := reports.ReadJSON(filepath.Join(out, "report.json"))
	if rerr != nil {
		return nil, outb.String()
	}
	return rep, outb.String()
}

func tail(file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-40):], "\n")
}

func readBaseline(t *testing.T) Baseline {
	t.Helper()
	b := Baseline{Specs: map[string]Entry{}}
	data, err := os.ReadFile(baselineFile)
	if os.IsNotExist(err) {
		return b
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &b); err != nil {
		t.Fatalf("%s: %v", baselineFile, err)
	}
	return b
}

// writeBaseline records the verdicts of this run, keeping the reason of every
// verdict that did not change.
func writeBaseline(t *testing.T, old Baseline, got map[string]reports.Result) {
	t.Helper()
	next := Baseline{Agent: old.Agent, Note: old.Note, Specs: map[string]Entry{}}
	for id, r := range got {
		e := Entry{Verdict: r.Verdict}
		if prev, ok := old.Specs[id]; ok && prev.Verdict == r.Verdict {
			e.Why = prev.Why
		}
		if e.Verdict != reports.Pass && e.Why == "" {
			e.Why = todo
		}
		if e.Verdict == reports.Pass {
			e.Why = ""
		}
		next.Specs[id] = e
	}
	data, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(baselineFile, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", baselineFile)
}

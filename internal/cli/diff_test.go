package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
)

// diffReport writes a report of the given verdicts, by spec ID, and returns
// its path.
func diffReport(t *testing.T, dir, name, version string, verdicts map[string]reports.Verdict) string {
	t.Helper()
	r := &reports.Report{
		Implementation:  reports.Implementation{Name: "Acme", Version: version},
		Harness:         reports.Harness{Name: "a2a-conform", Version: "test"},
		ProtocolVersion: "1.0",
		Run:             reports.Run{Start: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Topology: "none", Seed: 7, Requirements: "a2a-1.0.1-r3"},
	}
	for _, id := range []string{"DISC-001", "LIFE-001", "LIFE-002", "PUSH-001"} {
		v, ok := verdicts[id]
		if !ok {
			continue
		}
		res := reports.Result{ID: id, Title: "spec " + id, Suite: "lifecycle", Level: reports.LevelMust, Verdict: v}
		if v != reports.Pass {
			res.Reason = "because of " + id
		}
		r.Results = append(r.Results, res)
	}
	p := filepath.Join(dir, name)
	if err := reports.WriteJSON(p, r); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDiffCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	P, F, C := reports.Pass, reports.Fail, reports.CouldNotRun
	old := diffReport(t, dir, "old.json", "1.0", map[string]reports.Verdict{"DISC-001": P, "LIFE-001": P, "LIFE-002": F, "PUSH-001": P})
	better := diffReport(t, dir, "better.json", "1.1", map[string]reports.Verdict{"DISC-001": P, "LIFE-001": P, "LIFE-002": P, "PUSH-001": P})
	unjudged := diffReport(t, dir, "unjudged.json", "1.2", map[string]reports.Verdict{"DISC-001": P, "LIFE-001": C, "LIFE-002": F, "PUSH-001": P})
	narrower := diffReport(t, dir, "narrower.json", "1.3", map[string]reports.Verdict{"DISC-001": P, "LIFE-001": P, "LIFE-002": F})

	code, so, se := run("diff", old, better)
	if code != 0 || !strings.Contains(so, "### Improvements (1)") || !strings.Contains(so, "0 regressions") {
		t.Errorf("an improvement: exit %d, want 0\n%s%s", code, so, se)
	}
	code, so, se = run("diff", old, unjudged)
	if code != 1 || !strings.Contains(so, "| LIFE-001 | MUST | pass | could-not-run | passed, no longer judged (could-not-run) |") {
		t.Errorf("a pass now could-not-run: exit %d, want 1 and the row\n%s%s", code, so, se)
	}
	// The other way round: could-not-run → pass is a pass gained.
	code, so, _ = run("diff", unjudged, old)
	if code != 0 || !strings.Contains(so, "### Improvements (1)") {
		t.Errorf("could-not-run → pass and fail → fail: exit %d\n%s", code, so)
	}
	if code, so, _ := run("diff", old, narrower); code != 1 || !strings.Contains(so, "passed, no longer run") {
		t.Errorf("a passing spec missing from the new report: exit %d, want 1\n%s", code, so)
	}
	if code, so, _ := run("diff", old, old); code != 0 || !strings.Contains(so, "4 unchanged") {
		t.Errorf("a report against itself: exit %d\n%s", code, so)
	}

	// JSON, flags after the files.
	code, so, se = run("diff", old, unjudged, "--format", "json")
	var d reports.ReportDiff
	if err := json.Unmarshal([]byte(so), &d); err != nil || code != 1 {
		t.Fatalf("--format json: exit %d, %v\n%s%s", code, err, so, se)
	}
	if d.Kind != reports.DiffKind || d.Regressions() != 1 || d.Old.File != old || len(d.Changes) != 1 || d.Changes[0].Why == "" {
		t.Errorf("JSON diff %+v", d)
	}

	// Different runs are still compared, and said to differ.
	other := diffReport(t, dir, "other.json", "2.0", map[string]reports.Verdict{"DISC-001": P})
	r, _ := reports.ReadJSON(other)
	r.Run.Requirements, r.Harness.Version, r.Run.Seed, r.Run.Target = "a2a-1.0.1-r2", "next", 9, "https://agent.example.test"
	if err := reports.WriteJSON(other, r); err != nil {
		t.Fatal(err)
	}
	_, so, _ = run("diff", old, other)
	for _, w := range []string{"**The two runs differ**", "requirement set: a2a-1.0.1-r3 → a2a-1.0.1-r2", "harness: test → next", "seed: 7 → 9", "target: (none) → https://agent.example.test"} {
		if !strings.Contains(so, w) {
			t.Errorf("differences lack %q:\n%s", w, so)
		}
	}

	// An edited report is compared, with its problems at the top.
	edited := filepath.Join(dir, "edited.json")
	b, _ := os.ReadFile(better)
	if err := os.WriteFile(edited, []byte(strings.Replace(string(b), `"title": "spec LIFE-002"`, `"title": "spec LIFE-002 edited"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, so, _ := run("diff", old, edited); code != 0 || !strings.Contains(so, "**The new report does not verify**") || !strings.Contains(so, "digest") {
		t.Errorf("an edited report: exit %d\n%s", code, so)
	}
}

func TestDiffCommandUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := diffReport(t, dir, "good.json", "1", map[string]reports.Verdict{"DISC-001": reports.Pass})
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"one file", []string{"diff", good}, "Usage: a2a-conform diff"},
		{"three files", []string{"diff", good, good, good}, "Usage: a2a-conform diff"},
		{"missing", []string{"diff", good, filepath.Join(dir, "nope.json")}, "no such file"},
		{"not JSON", []string{"diff", write("text.json", "not json at all"), good}, "not a report"},
		{"empty", []string{"diff", good, write("empty.json", "")}, "not a report"},
		{"an array", []string{"diff", good, write("array.json", "[1,2]")}, "not a report"},
		{"no kind", []string{"diff", good, write("object.json", "{}")}, "not a ConformanceReport"},
		{"another kind", []string{"diff", good, write("sc.json", `{"apiVersion":"a2a-conform.dev/v1alpha1","kind":"Scorecard"}`)}, "not a ConformanceReport"},
		{"a future version", []string{"diff", good, write("v2.json", `{"apiVersion":"a2a-conform.dev/v2","kind":"ConformanceReport","results":[]}`)}, "not a ConformanceReport"},
		{"results not a list", []string{"diff", good, write("r.json", `{"apiVersion":"a2a-conform.dev/v1alpha1","kind":"ConformanceReport","results":{"a":1}}`)}, "not a report"},
		{"bad format", []string{"diff", good, good, "--format", "html"}, "want markdown or json"},
		{"unknown flag", []string{"diff", "--colour", good, good}, "unknown flag --colour"},
	} {
		code, so, se := run(c.args...)
		if code != 2 || !strings.Contains(se, c.want) {
			t.Errorf("%s: exit %d, want 2 and %q\nstdout %s\nstderr %s", c.name, code, c.want, so, se)
		}
	}
	if code, so, _ := run("diff", "--help"); code != 0 && !strings.Contains(so, "regression") {
		t.Errorf("--help: exit %d", code)
	}
}

// Hostile but decodable reports: the comparison never panics, never emits
// raw markup, and exits 0, 1 or 2.
func TestDiffCommandHostileReports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := diffReport(t, dir, "good.json", "1", map[string]reports.Verdict{"DISC-001": reports.Pass, "LIFE-001": reports.Fail})
	head := `{"apiVersion":"a2a-conform.dev/v1alpha1","kind":"ConformanceReport",`
	long := strings.Repeat("<script>|\n", 200000)
	for i, body := range []string{
		head + `"results":null}`,
		head + `"results":[{"id":"DISC-001"},{"id":"DISC-001","verdict":"pass"},{}]}`,
		head + `"results":[{"id":"DISC-001","verdict":"passed","reason":"` + strings.ReplaceAll(strings.ReplaceAll(long, "\n", `\n`), "<", `\u003c`) + `"}]}`,
		head + `"results":[{"id":"<img src=x onerror=alert(1)>|","verdict":"fail","level":"MUST|x","title":"<b>"}],"implementation":{"name":"<script>alert(1)</script>"}}`,
		head + `"results":[{"id":"DISC-001","verdict":"fail","reason":"\ud800 bad surrogate"}],"run":{"seed":9007199254740993}}`,
		head + `"results":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`,
		head + `"digest":"sha256:zz","summary":{"total":-1},"run":{"unreachable":true},"results":[{"id":"DISC-001","verdict":"pass"}]}`,
	} {
		p := filepath.Join(dir, "hostile.json")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"diff", good, p}, {"diff", p, good}, {"diff", p, good, "--format", "json"}} {
			code, so, se := run(args...)
			if code < 0 || code > 2 {
				t.Errorf("case %d %v: exit %d\n%s", i, args[1:], code, se)
			}
			if strings.Contains(so, "<script") || strings.Contains(so, "<img") {
				t.Errorf("case %d %v: raw markup in the output", i, args[1:])
			}
			if len(so) > 1<<20 {
				t.Errorf("case %d %v: %d bytes of output", i, args[1:], len(so))
			}
		}
	}
}

// A vendor's CI: last release's report, then this build's run with
// --previous. report.html shows the regression; the exit code is the run's
// own (1: a MUST failed), and diff gates on the regression. A --previous
// that is not a report stops the run before it starts.
func TestRunWithPrevious(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := func(s string) string { return filepath.Join(dir, s) }
	code, so, se := cli(t, "run", "--suite", "discovery", "--seed", "3", "--out", p("release"))
	if code != 0 {
		t.Fatalf("the clean run exits %d\n%s\n%s", code, so, se)
	}
	code, so, se = cli(t, "run", "--suite", "discovery", "--fault", "card-signature-stale", "--seed", "3", "--out", p("build"), "--previous", p("release/report.json"))
	if code != 1 || !strings.Contains(so, "since "+p("release/report.json")+": 1 regression · ") {
		t.Fatalf("the faulty run with --previous: exit %d, want 1 and the tally\n%s\n%s", code, so, se)
	}
	page, _ := os.ReadFile(p("build/report.html"))
	for _, w := range []string{`<section id="changes">`, "<h3>Regressions (1)</h3>", `<a href="#DISC-017">DISC-017</a>`, "passed, now fails",
		"faults injected: (none) → card-signature-stale"} {
		if !strings.Contains(string(page), w) {
			t.Errorf("report.html lacks %q", w)
		}
	}
	r := verified(t, p("build/report.json"))
	if strings.Contains(strings.Join(r.Run.Args, " "), "previous") {
		t.Errorf("--previous is in the run's args: %q", r.Run.Args)
	}
	if code, so, _ := run("diff", p("release/report.json"), p("build/report.json")); code != 1 || !strings.Contains(so, "| DISC-017 |") {
		t.Errorf("diff: exit %d, want 1\n%s", code, so)
	}

	os.WriteFile(p("junk.json"), []byte("{"), 0o644)
	code, _, se = cli(t, "run", "--suite", "discovery", "--out", p("never"), "--previous", p("junk.json"))
	if code != 2 || !strings.Contains(se, "--previous") {
		t.Errorf("a --previous that is not a report: exit %d, want 2\n%s", code, se)
	}
	if _, err := os.Stat(p("never")); err == nil {
		t.Error("the run ran with an unreadable --previous")
	}
}

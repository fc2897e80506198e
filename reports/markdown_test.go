package reports

import (
	"strings"
	"testing"
)

// What the agent controls must not break the table, inject HTML, or start a
// workflow command of its own; passes stay out; failures come first, and the
// baseline's failing rows before its expected ones.
func TestMarkdownSummaryEscapesAndOrders(t *testing.T) {
	r := &Report{
		Implementation: Implementation{Name: "Evil | <b>Agent</b>", Version: "1"},
		Harness:        Harness{Version: "t"},
		Run:            Run{Seed: 7},
		Results: []Result{
			{ID: "LIFE-014", Verdict: Fail, Level: "MUST", Title: "t", Reason: "completed | after <script>x</script> cancel\n::error::forged 100%"},
			{ID: "DISC-001", Verdict: Pass, Level: "MUST", Title: "ok"},
			{ID: "DISC-003", Verdict: Warn, Level: "SHOULD", Title: "w", Reason: "[click](http://evil)"},
			{ID: "LIFE-020", Verdict: Indeterminate, Level: "MUST", Title: "i", Attempts: []Attempt{{Verdict: Pass}}},
		},
	}
	r.Summary = SummarizeReport(r)
	r.Baseline = &Baseline{File: "b.yaml", Digest: "sha256:ab", Failed: 1, Entries: []BaselineOutcome{
		{ID: "DISC-003", Expected: "warn", Got: Warn, Outcome: OutcomeExpected, Reason: "CDN"},
		{ID: "LIFE-014", Got: Fail, Outcome: OutcomeUnexpected, Why: "fail is not in the baseline"},
	}}
	md := Markdown(r, MarkdownOptions{})
	for _, want := range []string{
		"**1 of 4 passed (25%)**", "| LIFE-014 | fail | MUST |", "&lt;script&gt;", "Evil &#124; &lt;b&gt;Agent&lt;/b&gt;",
		"indeterminate (flaky: indeterminate, then pass)", "&#91;click&#93;(http://evil)", "**1 row(s) fail the build**",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "::") || strings.Contains(l, "<script>") {
			t.Errorf("summary line carries agent text unescaped: %q", l)
		}
	}
	if strings.Contains(md, "DISC-001") {
		t.Error("passing specs belong in report.html, not the summary table")
	}
	if i, j := strings.Index(md, "| LIFE-014 | fail"), strings.Index(md, "| LIFE-020 | indeterminate"); i < 0 || j < 0 || i > j {
		t.Error("fails come before indeterminate")
	}
	if i, j := strings.Index(md, "| **unexpected** | LIFE-014"), strings.Index(md, "| expected | DISC-003"); i < 0 || j < 0 || i > j {
		t.Errorf("baseline rows that fail the build come first:\n%s", md)
	}

	lines := strings.Split(strings.TrimSpace(Annotations(r)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "::error title=LIFE-014 MUST%3A t::") ||
		!strings.Contains(lines[0], "%0A::error::forged 100%25") {
		t.Errorf("annotation must be one escaped line per fail, got %q", lines)
	}
	if len(lines) == 2 && !strings.HasPrefix(lines[1], "::warning title=LIFE-020 flaky::") {
		t.Errorf("a flaky spec is a warning, got %q", lines[1])
	}
}

func TestMarkdownSaysInterruptedAndUnreachable(t *testing.T) {
	r := &Report{Run: Run{Interrupted: "SIGTERM", Unreachable: true}}
	md := Markdown(r, MarkdownOptions{Problems: []string{"digest mismatch"}})
	for _, want := range []string{"interrupted (SIGTERM)", "could not be reached", "does not verify"} {
		if !strings.Contains(md, want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
}

package reports

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseBaselineRefusesWhatCannotBeTrusted(t *testing.T) {
	good := `expected:
  - id: LIFE-010
    verdict: fail
    reason: "ACME-123: contexts are not checked yet"
    expires: 2027-03-01
  - id: DISC-003
    verdict: warn
    reason: the CDN strips Cache-Control
`
	b, err := ParseBaseline([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Expected) != 2 || b.Expected[0].Expires != "2027-03-01" || b.Expected[1].Verdict != "warn" {
		t.Fatalf("parsed %+v", b.Expected)
	}
	j, err := ParseBaseline([]byte(`{"expected":[{"id":" life-010","verdict":"fail","reason":"json works too"}]}`))
	if err != nil {
		t.Fatalf("JSON baseline: %v", err)
	}
	if j.Expected[0].ID != "LIFE-010" {
		t.Errorf("ID %q not normalised as the harness spells it", j.Expected[0].ID)
	}
	for name, tc := range map[string]struct{ doc, want string }{
		"placeholder reason": {"expected:\n  - id: LIFE-010\n    verdict: fail\n    reason: 'TODO: why is this expected?'\n", "entry LIFE-010 (line 2): the reason is still the placeholder"},
		"no reason":          {"expected:\n  - id: LIFE-010\n    verdict: fail\n", "entry LIFE-010 (line 2): no reason"},
		"pass expected":      {"expected:\n  - id: LIFE-010\n    verdict: pass\n    reason: x\n", `verdict "pass"`},
		"bad date":           {"expected:\n  - id: LIFE-010\n    verdict: fail\n    reason: x\n    expires: next year\n", "want a date YYYY-MM-DD"},
		"duplicate":          {"expected:\n  - {id: LIFE-010, verdict: fail, reason: x}\n  - {id: LIFE-010, verdict: fail, reason: y}\n", "listed twice (also line 2)"},
		"typo key":           {"expected:\n  - id: LIFE-010\n    verdict: fail\n    reasons: x\n", "reasons"},
		"empty":              {"", "empty file"},
	} {
		_, err := ParseBaseline([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", name, err, tc.want)
		}
	}
}

// Every outcome, each for the reason the rule gives.
func TestEvaluateBaselineOutcomes(t *testing.T) {
	b := &BaselineFile{Expected: []BaselineEntry{
		{ID: "A-1", Verdict: "fail", Reason: "r"},                        // still fails: expected
		{ID: "A-2", Verdict: "fail", Reason: "r"},                        // passes now: fixed
		{ID: "A-3", Verdict: "fail", Reason: "r"},                        // indeterminate: changed, not fixed
		{ID: "A-4", Verdict: "fail", Reason: "r"},                        // could-not-run: changed, not fixed
		{ID: "A-5", Verdict: "fail", Reason: "r", Expires: "2026-11-30"}, // expired yesterday
		{ID: "A-6", Verdict: "fail", Reason: "r", Expires: "2026-12-01"}, // expires today: still holds
		{ID: "GONE-1", Verdict: "fail", Reason: "r"},                     // no such spec
		{ID: "A-7", Verdict: "fail", Reason: "r"},                        // not selected in this run
		{ID: "A-8", Verdict: "flaky", Reason: "r"},                       // flaky and passing: expected
		{ID: "A-9", Verdict: "fail", Reason: "r"},                        // flipped on retry: flaky
	}}
	results := []Result{
		{ID: "A-1", Verdict: Fail}, {ID: "A-2", Verdict: Pass}, {ID: "A-3", Verdict: Indeterminate},
		{ID: "A-4", Verdict: CouldNotRun}, {ID: "A-5", Verdict: Fail}, {ID: "A-6", Verdict: Fail},
		{ID: "A-8", Verdict: Pass},
		{ID: "A-9", Verdict: Fail, Attempts: []Attempt{{Verdict: Pass}}},
		{ID: "B-1", Verdict: Fail},                                                // unlisted: unexpected
		{ID: "B-2", Verdict: Pass},                                                // fine
		{ID: "B-3", Verdict: NotApplicable},                                       // fine
		{ID: "B-4", Verdict: Indeterminate},                                       // unlisted: unexpected
		{ID: "B-5", Verdict: Fail, Attempts: []Attempt{{Verdict: Fail}}},          // retried, same: unexpected
		{ID: "B-6", Verdict: Fail, Attempts: []Attempt{{Error: "crashed"}}},       // an attempt with no verdict decides nothing
		{ID: "B-7", Verdict: Indeterminate, Attempts: []Attempt{{Verdict: Pass}}}, // flaky, never green
	}
	known := func(id string) bool { return !strings.HasPrefix(id, "GONE") }
	today := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	got := EvaluateBaseline("b.yaml", []byte("x"), b, results, known, today)
	want := map[string]string{
		"A-1": OutcomeExpected, "A-2": OutcomeFixed, "A-3": OutcomeChanged, "A-4": OutcomeChanged,
		"A-5": OutcomeExpired, "A-6": OutcomeExpected, "GONE-1": OutcomeUnknown, "A-7": OutcomeNotRun,
		"A-8": OutcomeExpected, "A-9": OutcomeFlaky,
		"B-1": OutcomeUnexpected, "B-4": OutcomeUnexpected, "B-5": OutcomeUnexpected, "B-6": OutcomeUnexpected, "B-7": OutcomeFlaky,
	}
	seen := map[string]bool{}
	failed := 0
	for _, row := range got.Entries {
		seen[row.ID] = true
		if row.Outcome != want[row.ID] {
			t.Errorf("%s: outcome %q, want %q (%s)", row.ID, row.Outcome, want[row.ID], row.Why)
		}
		if FailsGate(row.Outcome) {
			failed++
			if row.Why == "" {
				t.Errorf("%s: a failing outcome must say what to do", row.ID)
			}
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("no row for %s", id)
		}
	}
	for _, id := range []string{"B-2", "B-3"} {
		if seen[id] {
			t.Errorf("a %s result is not a baseline row", id)
		}
	}
	if got.Failed != failed || failed != 11 {
		t.Errorf("Failed = %d, counted %d, want 11", got.Failed, failed)
	}
	if !strings.HasPrefix(got.Digest, "sha256:") || got.File != "b.yaml" {
		t.Errorf("file %q digest %q", got.File, got.Digest)
	}
	if row := got.Entries[1]; !strings.Contains(row.Why, "remove it from the baseline") {
		t.Errorf("fixed row says %q", row.Why)
	}
}

func TestRetryableSkipsWhatARerunCannotChange(t *testing.T) {
	b := &BaselineFile{Expected: []BaselineEntry{{ID: "A-1", Verdict: "fail"}, {ID: "A-2", Verdict: "indeterminate"}, {ID: "A-3", Verdict: "flaky"}}}
	for _, tc := range []struct {
		r    Result
		want bool
	}{
		{Result{ID: "A-1", Verdict: Fail}, false},         // expected
		{Result{ID: "A-2", Verdict: Fail}, true},          // listed indeterminate, got fail: changed
		{Result{ID: "A-3", Verdict: Fail}, false},         // listed flaky
		{Result{ID: "B-1", Verdict: Indeterminate}, true}, // unexpected
		{Result{ID: "B-2", Verdict: Warn}, true},
		{Result{ID: "B-3", Verdict: CouldNotRun}, false}, // says what the run lacked
		{Result{ID: "B-4", Verdict: Pass}, false},
	} {
		if got := Retryable(tc.r, b); got != tc.want {
			t.Errorf("%s %s: retryable %v, want %v", tc.r.ID, tc.r.Verdict, got, tc.want)
		}
	}
}

// The starting file lists every non-pass but not-applicable, each with a
// reason the run refuses until someone writes one.
func TestNewBaselineFileIsRefusedUntilFilled(t *testing.T) {
	r := &Report{Implementation: Implementation{Name: "Agent\nX"}, Harness: Harness{Version: "v1"}, Results: []Result{
		{ID: "A-1", Verdict: Fail, Title: "it's a \"title\": with: colons"}, {ID: "A-2", Verdict: Pass},
		{ID: "A-3", Verdict: NotApplicable}, {ID: "A-4", Verdict: CouldNotRun},
	}}
	text, n := NewBaselineFile(r, "2027-01-01")
	if n != 2 {
		t.Fatalf("%d entries:\n%s", n, text)
	}
	_, err := ParseBaseline(text)
	if err == nil || !strings.Contains(err.Error(), "entry A-1") || !strings.Contains(err.Error(), "entry A-4") {
		t.Fatalf("the starting file must be refused naming each entry, got %v\n%s", err, text)
	}
	filled := strings.ReplaceAll(string(text), "TODO: why is this expected?", "ACME-1:")
	b, err := ParseBaseline([]byte(filled))
	if err != nil {
		t.Fatalf("filled: %v\n%s", err, filled)
	}
	if b.Expected[0].ID != "A-1" || b.Expected[0].Verdict != "fail" || b.Expected[1].Verdict != "could-not-run" || b.Expected[1].Expires != "2027-01-01" {
		t.Errorf("entries %+v", b.Expected)
	}
	if !strings.Contains(b.Expected[0].Reason, `"title": with: colons`) {
		t.Errorf("title not kept in the reason: %q", b.Expected[0].Reason)
	}
}

// The HTML page carries the baseline's rows and each spec's re-runs, and its
// gate line follows the baseline rather than "any MUST fail".
func TestHTMLShowsBaselineAndAttempts(t *testing.T) {
	r := &Report{Results: []Result{
		{ID: "LIFE-014", Verdict: Fail, Level: "MUST", Title: "t", Reason: "r", Attempts: []Attempt{{Verdict: Pass}}},
	}}
	r.Summary = SummarizeReport(r)
	r.Baseline = &Baseline{File: "vendor-baseline.yaml", Digest: "sha256:ab", Failed: 1, Entries: []BaselineOutcome{
		{ID: "LIFE-014", Expected: "fail", Got: Fail, Outcome: OutcomeFlaky, Why: "its verdict changed <between> attempts"},
	}}
	b, err := renderHTML(r, HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		"Baseline vendor-baseline.yaml: 1 row fails the build; see Baseline below", `<section id="baseline">`,
		"its verdict changed &lt;between&gt; attempts", "flaky: fail, then pass",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "failed: the run fails (exit 1)") {
		t.Error("with a baseline, the MUST rule does not decide the exit code")
	}
	path := t.TempDir() + "/junit.xml"
	if err := WriteJUnit(path, r); err != nil {
		t.Fatal(err)
	}
	if x, _ := os.ReadFile(path); !strings.Contains(string(x), `<property name="attempts" value="flaky: fail, then pass">`) {
		t.Errorf("junit.xml does not carry the attempts:\n%s", x)
	}
}

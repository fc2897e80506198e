package reports

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The whole rule of ClassifyChange, one row per (old, new) pair of the six
// verdicts, absence ("") and an unknown verdict: the table
// docs/report-format.md "Comparing two reports" prints.
func TestClassifyChangeTable(t *testing.T) {
	const (
		R = Regressed
		I = Improved
		C = Shifted
		A = Added
		D = Removed
		S = Same
	)
	unknown := Verdict("passed")
	cols := []Verdict{Pass, Warn, Fail, CouldNotRun, Indeterminate, NotApplicable, unknown, ""}
	// want[old][new], in cols order.
	want := map[Verdict][]Change{
		//              pass warn fail cnr indet n/a unknown absent
		Pass:          {S, R, R, R, R, R, R, R},
		Warn:          {I, S, R, C, C, C, C, D},
		Fail:          {I, I, S, C, C, C, C, D},
		CouldNotRun:   {I, R, R, S, C, C, C, D},
		Indeterminate: {I, R, R, C, S, C, C, D},
		NotApplicable: {I, R, R, C, C, S, C, D},
		unknown:       {I, R, R, C, C, C, S, D},
		"":            {A, A, A, A, A, A, A, S},
	}
	for old, row := range want {
		for i, nw := range cols {
			got, why := ClassifyChange(old, nw)
			if got != row[i] {
				t.Errorf("%q → %q: %q (%s), want %q", old, nw, got, why, row[i])
			}
			if got != Same && why == "" {
				t.Errorf("%q → %q: no why", old, nw)
			}
		}
	}
	// The words a reader sees for the cases the rule is about.
	for _, c := range []struct {
		old, new Verdict
		why      string
	}{
		{Pass, CouldNotRun, "passed, no longer judged (could-not-run)"},
		{Pass, Indeterminate, "passed, no longer judged (indeterminate)"},
		{Pass, NotApplicable, "passed, no longer judged (not-applicable)"},
		{Pass, "", "passed, no longer run"},
		{Fail, CouldNotRun, "no longer judged (could-not-run): the fail is not shown fixed"},
		{CouldNotRun, Fail, "a new fail"},
		{Pass, unknown, `passed, no longer judged (unknown verdict "passed")`},
	} {
		if _, why := ClassifyChange(c.old, c.new); why != c.why {
			t.Errorf("%s → %s: why %q, want %q", c.old, c.new, why, c.why)
		}
	}
}

func TestSameReasonMasksIdsAndNumbers(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"terminal-immutable at task e266dab3-1b68-47ab-b085-dd24030d95d5, push 9 at 817ms",
			"terminal-immutable at task e03dfc18-d59e-4c3c-90dc-657b9609b352, push 9 at 847ms", true},
		{"GetTask #244 (JSONRPC) at 117ms", "GetTask  #339 (JSONRPC)\nat 116ms", true},
		{"card etag \"5f3a9c01\" served", "card etag \"0b7e41d2\" served", true},
		{"expected TASK_STATE_CANCELED, got TASK_STATE_COMPLETED", "expected TASK_STATE_CANCELED, got TASK_STATE_WORKING", false},
		{"the webhook receiver is not reachable", "the directive extension is not advertised", false},
		{"", "", true},
		{"", "something", false},
	} {
		if got := sameReason(c.a, c.b); got != c.same {
			t.Errorf("sameReason(%q, %q) = %v, want %v (masked %q / %q)", c.a, c.b, got, c.same, maskReason(c.a), maskReason(c.b))
		}
	}
}

// diffPair is two reports of one implementation: old is the sample, new
// the sample with edits.
func diffPair(edit func(old, new *Report)) (*Report, *Report) {
	old, new := sampleReport("Acme", "1.0"), sampleReport("Acme", "1.1")
	new.Run.Start = old.Run.Start.Add(24 * 3600e9)
	if edit != nil {
		edit(old, new)
	}
	old.Summary, new.Summary = SummarizeReport(old), SummarizeReport(new)
	return old, new
}

func resultOf(r *Report, id string) *Result {
	for i := range r.Results {
		if r.Results[i].ID == id {
			return &r.Results[i]
		}
	}
	panic("no " + id)
}

func TestDiffReports(t *testing.T) {
	old, new := diffPair(func(old, new *Report) {
		resultOf(new, "DISC-001").Verdict, resultOf(new, "DISC-001").Reason = CouldNotRun, "the target timed out"
		resultOf(new, "LIFE-012").Verdict = Warn // fail → warn: improvement
		resultOf(new, "PUSH-003").Verdict, resultOf(new, "PUSH-003").Reason = Pass, ""
		resultOf(new, "ROLL-002").Reason = "after the card rotated, another thing broke"
		resultOf(new, "LIFE-020").Reason = strings.ReplaceAll(resultOf(old, "LIFE-020").Reason, "200", "180") // numbers only: same
		// DISC-007 only in old (not-applicable: removed), ROLL-001 only in old (pass: regression)
		var keep []Result
		for _, x := range new.Results {
			if x.ID != "DISC-007" && x.ID != "ROLL-001" {
				keep = append(keep, x)
			}
		}
		new.Results = append(keep, Result{ID: "LIFE-099", Title: "new spec", Suite: "lifecycle", Level: LevelMust, Verdict: Fail, Reason: "broken"})
		new.Run.Requirements, old.Run.Requirements = "a2a-1.0.1-r3", "a2a-1.0.1-r2"
		new.Run.Seed = old.Run.Seed + 1
	})
	d := DiffReports(old, new, "old.json", "new.json", nil, nil)
	got := map[string]Change{}
	for _, c := range d.Changes {
		got[c.ID] = c.Change
	}
	want := map[string]Change{
		"DISC-001": Regressed, "ROLL-001": Regressed,
		"LIFE-012": Improved, "PUSH-003": Improved,
		"ROLL-002": Reworded,
		"LIFE-099": Added, "DISC-007": Removed,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("changes %v\nwant    %v", got, want)
	}
	if d.Regressions() != 2 || d.Counts["unchanged"] != len(old.Results)-6 {
		t.Errorf("counts %v", d.Counts)
	}
	if d.Changes[0].ID != "DISC-001" || d.Changes[1].ID != "ROLL-001" {
		t.Errorf("regressions first, by ID: %v", d.Changes[:2])
	}
	diffs := strings.Join(d.Differences, "\n")
	for _, w := range []string{"requirement set: a2a-1.0.1-r2 → a2a-1.0.1-r3", "seed: "} {
		if !strings.Contains(diffs, w) {
			t.Errorf("differences lack %q:\n%s", w, diffs)
		}
	}
	if strings.Contains(diffs, "implementation") {
		t.Errorf("a new version of the same implementation is not a difference:\n%s", diffs)
	}

	md := d.Markdown()
	for _, w := range []string{"## a2a-conform diff: Acme 1.0 → Acme 1.1", "**2 regressions** · 2 improvements",
		"### Regressions (2)", "| DISC-001 | MUST | pass | could-not-run | passed, no longer judged (could-not-run) | the target timed out |",
		"| ROLL-001 | INVARIANT | pass | - | passed, no longer run | (not in the new report) |",
		"### Reason changed, same verdict (1)", "### Added: only in the new report (1)", "**The two runs differ**"} {
		if !strings.Contains(md, w) {
			t.Errorf("Markdown lacks %q:\n%s", w, md)
		}
	}

	// A result without a verdict is there, unjudged: not an absent spec.
	blank := &Report{Results: []Result{{ID: "DISC-001"}, {ID: "LIFE-001", Verdict: Fail}}}
	for _, c := range DiffReports(old, blank, "", "", nil, nil).Changes {
		if c.ID == "DISC-001" && (c.Change != Regressed || c.Why != `passed, no longer judged (unknown verdict "(no verdict)")`) {
			t.Errorf("pass → no verdict: %+v", c)
		}
	}
	for _, c := range DiffReports(blank, old, "", "", nil, nil).Changes {
		if c.ID == "DISC-001" && c.Change != Improved {
			t.Errorf("no verdict → pass: %+v", c)
		}
	}

	same := DiffReports(old, old, "", "", nil, nil)
	if len(same.Changes) != 0 || same.Regressions() != 0 || len(same.Differences) != 0 {
		t.Errorf("a report against itself: %+v", same)
	}
	if !strings.Contains(same.Markdown(), "0 regressions · 0 improvements") {
		t.Errorf("no change:\n%s", same.Markdown())
	}
}

// Reasons and IDs come from the vendor: they must not break a table, inject
// HTML or run on without bound, in Markdown or JSON.
func TestDiffEscapesAndBoundsVendorText(t *testing.T) {
	long := strings.Repeat("A|", 1<<20)
	old, new := diffPair(func(old, new *Report) {
		resultOf(new, "DISC-001").Verdict = Fail
		resultOf(new, "DISC-001").Reason = "line one | cell\nline two " + payloadImg + " [link](javascript:x) `code`"
		resultOf(new, "LIFE-001").Verdict, resultOf(new, "LIFE-001").Reason = Fail, long
		new.Implementation.Name = payloadPlain + "|x"
	})
	d := DiffReports(old, new, "o|ld.json", "new.json", nil, []Problem{{Where: "/digest", Message: payloadImg}})
	md := d.Markdown()
	for _, bad := range []string{"<img", "<script", "onerror=\"", "](javascript", "`code`"} {
		if strings.Contains(md, bad) {
			t.Errorf("Markdown carries %q unescaped", bad)
		}
	}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| DISC-001 |") && strings.Count(l, "|") != 7 {
			t.Errorf("a vendor's pipe or newline broke the row: %q", l)
		}
	}
	if !strings.Contains(md, "line one &#124; cell line two &lt;img") {
		t.Errorf("reason not flattened and escaped:\n%s", md)
	}
	if len(md) > 64<<10 {
		t.Errorf("Markdown is %d bytes for two changes", len(md))
	}
	for _, c := range d.Changes {
		if len(c.NewReason) > diffMaxReason+8 {
			t.Errorf("%s: reason of %d bytes kept", c.ID, len(c.NewReason))
		}
	}
	j, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(j), "<img") || len(j) > 64<<10 {
		t.Errorf("JSON: %d bytes, raw markup %v", len(j), strings.Contains(string(j), "<img"))
	}
	if !strings.Contains(md, "**The new report does not verify**") {
		t.Errorf("problems not stated:\n%s", md[:min(len(md), 2000)])
	}
}

// Many changes stay within a CI summary's size, and say how many were left
// out.
func TestDiffMarkdownBudget(t *testing.T) {
	old, new := &Report{}, &Report{}
	for i := range 5000 {
		id := fmt.Sprintf("LIFE-%04d", i)
		old.Results = append(old.Results, Result{ID: id, Title: "t", Level: LevelMust, Verdict: Pass})
		new.Results = append(new.Results, Result{ID: id, Title: "t", Level: LevelMust, Verdict: Fail, Reason: strings.Repeat("<|>", 400)})
	}
	d := DiffReports(old, new, "", "", nil, nil)
	md := d.Markdown()
	if d.Regressions() != 5000 || len(md) > 1<<20 || !strings.Contains(md, "4800 more changed specs are left out") {
		t.Errorf("%d regressions, %d bytes, tail %q", d.Regressions(), len(md), md[max(0, len(md)-300):])
	}
}

// renderWithDiff renders new's report.html with the changes since old.
func renderWithDiff(t *testing.T, old, new *Report) string {
	t.Helper()
	b, err := renderHTML(new, HTMLOptions{Diff: DiffReports(old, new, "previous/report.json", "", nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHTMLShowsChangesSinceThePreviousReport(t *testing.T) {
	old, new := diffPair(func(old, new *Report) {
		resultOf(new, "DISC-001").Verdict, resultOf(new, "DISC-001").Reason = Indeterminate, "timed out "+payloadImg
		resultOf(new, "PUSH-003").Verdict, resultOf(new, "PUSH-003").Reason = Pass, ""
		resultOf(new, "ROLL-002").Reason = "another reason " + payloadPlain
		new.Results = slices.DeleteFunc(new.Results, func(x Result) bool { return x.ID == "ROLL-001" })
		old.Implementation.Version = "1.0" + payloadScript
		new.Run.Seed = old.Run.Seed + 1
	})
	page := renderWithDiff(t, old, new)
	for _, w := range []string{
		`<section id="changes">`, "<h2>Changes since the previous report</h2>",
		`<a href="#changes">2 regressions</a> since the previous report.`,
		"<h3>Regressions (2)</h3>", "<h3>Improvements (1)</h3>", "<h3>Reason changed, same verdict (1)</h3>",
		`<td class="id"><a href="#DISC-001">DISC-001</a></td>`, // in this report: linked
		`<td class="id">ROLL-001</td>`,                         // gone from it: not linked
		"passed, no longer judged (indeterminate)", "timed out &lt;img src=x onerror=",
		"before: after the card rotated", "The two runs differ", "seed: ",
	} {
		if !strings.Contains(page, w) {
			t.Errorf("report.html lacks %q", w)
		}
	}
	if i := strings.Index(page, `<section id="changes">`); i < 0 || strings.Contains(page[i:i+strings.Index(page[i:], "</section>")], "<img") ||
		strings.Contains(page[i:i+strings.Index(page[i:], "</section>")], "<script") {
		t.Error("the changes section carries vendor markup unescaped")
	}

	// No change: the section says so; without a previous report, no section.
	same := renderWithDiff(t, old, old)
	if !strings.Contains(same, "No regression since the <a href=\"#changes\">previous report</a>.") || !strings.Contains(same, "No spec changed its verdict or its reason.") {
		t.Error("a report compared with itself does not say that nothing changed")
	}
	if strings.Contains(render(t, new), `id="changes"`) {
		t.Error("a page without a previous report has a changes section")
	}
}

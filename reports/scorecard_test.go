package reports

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// verified writes r and reads it back, as the scorecard CLI would get it.
func verified(t *testing.T, r *Report) *Report {
	t.Helper()
	back, _ := written(t, r)
	return back
}

func TestSlugify(t *testing.T) {
	tests := map[string]string{
		"Acme Travel Agent":       "acme-travel-agent",
		"../../etc":               "etc",
		"..":                      "implementation",
		"":                        "implementation",
		"/":                       "implementation",
		`C:\Windows\System`:       "c-windows-system",
		"a/../../b":               "a-b",
		"  Ünïcode—Agent  ":       "n-code-agent",
		"CON":                     "con-agent",
		"Agent (beta) v2.0!":      "agent-beta-v2-0",
		strings.Repeat("x", 200):  strings.Repeat("x", 80),
		strings.Repeat("ab-", 40): strings.TrimRight(strings.Repeat("ab-", 27), "-"),
	}
	for in, want := range tests {
		got := Slugify(in)
		if got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
		if !slugPattern.MatchString(got) {
			t.Errorf("Slugify(%q) = %q escapes the slug pattern", in, got)
		}
	}
}

func TestBuildScorecardMatrix(t *testing.T) {
	acme := sampleReport("Acme Travel Agent", "2.3.1")
	globex := sampleReport("Globex", "1.0")
	globex.Results = globex.Results[:4] // an older harness, fewer specs
	globex.Results[0].Verdict, globex.Results[0].Reason = Fail, "no card at the well-known path"
	sc, err := BuildScorecard([]*Report{verified(t, globex), verified(t, acme)})
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Vendors) != 2 || sc.Vendors[0].Slug != "acme-travel-agent" || sc.Vendors[1].Slug != "globex" {
		t.Fatalf("vendors = %+v", sc.Vendors)
	}
	if len(sc.Specs) != len(acme.Results) {
		t.Fatalf("rows = %d, want the union %d", len(sc.Specs), len(acme.Results))
	}
	row := map[string]ScorecardSpec{}
	for i, sp := range sc.Specs {
		row[sp.ID] = sp
		if i > 0 && compareSpecIDs(sc.Specs[i-1].ID, sp.ID) >= 0 {
			t.Errorf("rows out of order: %s before %s", sc.Specs[i-1].ID, sp.ID)
		}
	}
	if got := row["DISC-001"].Verdicts; got[0] != "pass" || got[1] != "fail" {
		t.Errorf("DISC-001 = %v", got)
	}
	if got := row["ROLL-002"].Verdicts; got[0] != "fail" || got[1] != NotRun {
		t.Errorf("ROLL-002 = %v, want fail and not-run", got)
	}
	// Both are scored against the same set (here, with none declared, the
	// union): globex's missing specs count as not passed, its own
	// not-applicable DISC-007 stays out of its denominator.
	if g := sc.Vendors[1]; g.Score.Denominator != len(acme.Results)-1 || g.Score.Passed != 1 ||
		g.ReportScore.Denominator != 3 || len(g.Partial) != 1 || !strings.Contains(g.Partial[0], "declared specs not run") {
		t.Errorf("globex: score %+v, its own %+v, partial %q", g.Score, g.ReportScore, g.Partial)
	}
	if a := sc.Vendors[0]; len(a.Partial) != 0 || a.Score != a.ReportScore {
		t.Errorf("acme ran the whole set: score %+v vs its own %+v, partial %q", a.Score, a.ReportScore, a.Partial)
	}
	if sc.Declared != len(acme.Results) || !strings.Contains(strings.Join(sc.Notes, " "), "No spec set was declared") {
		t.Errorf("declared %d, notes %q", sc.Declared, sc.Notes)
	}
}

// Scores side by side are comparable: one declared set for every report; a
// filtered or interrupted run is partial, never a full badge, whatever it
// passed (issue 19: --focus DISC-001 against a faulty agent was "1/1, 100 %").
func TestScorecardScoresEveryReportAgainstTheDeclaredSet(t *testing.T) {
	full := sampleReport("Full", "1")
	var declared []DeclaredSpec
	for _, r := range full.Results {
		declared = append(declared, DeclaredSpec{ID: r.ID, Title: r.Title, Suite: r.Suite, Level: r.Level, Sections: r.Sections})
	}
	declared = append(declared, DeclaredSpec{ID: "ROLL-099", Title: "a spec no report ran", Suite: "rollout", Level: LevelMust})

	focused := sampleReport("Focused", "1")
	focused.Results = focused.Results[1:2] // DISC-002, a pass
	focused.Run.Focus = []string{"DISC-002"}
	interrupted := sampleReport("Stopped", "1")
	interrupted.Run.Interrupted = "SIGTERM"
	sc, err := BuildScorecard([]*Report{verified(t, full), verified(t, focused), verified(t, interrupted)}, declared...)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]ScorecardVendor{}
	for _, v := range sc.Vendors {
		by[v.Implementation.Name] = v
	}
	f := by["Focused"]
	if f.ReportScore.Passed != 1 || f.ReportScore.Denominator != 1 {
		t.Fatalf("the focused report's own score: %+v", f.ReportScore)
	}
	if f.Score.Denominator != len(declared) || f.Score.Passed != 1 || f.Score.Percent == 100 {
		t.Errorf("the focused report scored %+v against %d declared specs", f.Score, len(declared))
	}
	if !strings.Contains(strings.Join(f.Partial, "; "), "filtered selection (--focus DISC-002)") {
		t.Errorf("focused partial = %q", f.Partial)
	}
	if b := badgeFor(f); !strings.Contains(b, "partial 1/") || strings.Contains(b, badgeBrightGreen) {
		t.Errorf("a focused run's badge must say partial and never be full: %s", b)
	}
	st := by["Stopped"]
	if st.Interrupted != "SIGTERM" || !strings.Contains(strings.Join(st.Partial, "; "), "interrupted by SIGTERM") {
		t.Errorf("interrupted: %q, partial %q", st.Interrupted, st.Partial)
	}
	// Even the complete report lacks ROLL-099: no report looks complete
	// against a set it did not run.
	if fu := by["Full"]; fu.Score.Denominator != fu.ReportScore.Denominator+1 || len(fu.Partial) != 1 {
		t.Errorf("full: %+v vs %+v, partial %q", fu.Score, fu.ReportScore, fu.Partial)
	}
	page, err := renderScorecard(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"interrupted (SIGTERM)", "filtered selection (--focus DISC-002)", "scored against the same " + fmt.Sprint(len(declared)) + " specs"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("scorecard.html lacks %q", want)
		}
	}
	row := map[string]ScorecardSpec{}
	for _, sp := range sc.Specs {
		row[sp.ID] = sp
	}
	if r := row["ROLL-099"]; r.Undeclared || r.Verdicts[0] != NotRun {
		t.Errorf("a declared spec no report ran still has its row: %+v", r)
	}
}

func TestBuildScorecardRejectsUnverifiedReports(t *testing.T) {
	good := verified(t, sampleReport("Good", "1"))
	edited := verified(t, sampleReport("Edited", "1"))
	edited.raw = nil // as if built in memory
	edited.Results[5].Verdict = Pass
	unwritten := sampleReport("Never Written", "1")
	_, err := BuildScorecard([]*Report{good, edited, unwritten})
	if err == nil {
		t.Fatal("edited and undigested reports accepted")
	}
	for _, want := range []string{`report 2 ("Edited" "1")`, "summary", `report 3 ("Never Written" "1")`, "digest"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), `"Good"`) {
		t.Errorf("the good report was blamed: %v", err)
	}
	if _, err := BuildScorecard(nil); err == nil {
		t.Error("empty scorecard built")
	}
}

// Several reports of one implementation are all listed, each in a column of
// its own, and a note says so: none is dropped silently.
func TestBuildScorecardListsEveryReportOfAnImplementation(t *testing.T) {
	old := sampleReport("Acme", "1.0")
	newer := sampleReport("Acme", "1.0")
	newer.Run.Start = old.Run.Start.Add(24 * time.Hour)
	newer.Results[0].Verdict, newer.Results[0].Reason = Fail, "regressed"
	other := sampleReport("Acme", "2.0")
	sc, err := BuildScorecard([]*Report{verified(t, newer), verified(t, old), verified(t, other)})
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Vendors) != 3 {
		t.Fatalf("columns = %d, want one per report", len(sc.Vendors))
	}
	if v := sc.Vendors; !v[0].Start.Equal(old.Run.Start) || !v[1].Start.Equal(newer.Run.Start) || sc.Specs[0].Verdicts[1] != "fail" {
		t.Fatalf("columns %+v, want the 1.0 runs in start order", v)
	}
	if n := strings.Join(sc.Notes, " "); !strings.Contains(n, "Acme 1.0: 2 reports, all listed") {
		t.Fatalf("notes = %v, want one about the two 1.0 reports", sc.Notes)
	}
	seen := map[string]bool{}
	for _, v := range sc.Vendors {
		if seen[v.Slug] {
			t.Fatalf("slug %s twice", v.Slug)
		}
		seen[v.Slug] = true
	}
	if sc.Vendors[2].Slug != "acme-2-0" {
		t.Fatalf("slugs = %v", seen)
	}
}

func TestAssignSlugsNeverCollide(t *testing.T) {
	rs := []*Report{
		{Implementation: Implementation{Name: "Foo Agent"}},
		{Implementation: Implementation{Name: "foo-agent", Version: "x"}},
		{Implementation: Implementation{Name: "FOO AGENT", Version: "y"}},
		{Implementation: Implementation{Name: "foo agent-x"}},
	}
	seen := map[string]bool{}
	for _, s := range assignSlugs(rs) {
		if seen[s] || !slugPattern.MatchString(s) {
			t.Fatalf("slug %q duplicated or unsafe in %v", s, assignSlugs(rs))
		}
		seen[s] = true
	}
}

func TestWriteScorecard(t *testing.T) {
	evil := sampleReport("../../etc", "1")
	evil.Results[0].Verdict, evil.Results[0].Reason = Warn, "x"
	sc, err := BuildScorecard([]*Report{verified(t, sampleReport("Acme", "1")), verified(t, evil)})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	explained := map[string]bool{}
	explain := func(id string) string { explained[id] = true; return "Explains " + id + " <b>bold</b>" }
	if err := WriteScorecard(dir, sc, explain); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	want := []string{
		"out/badges/acme.svg", "out/badges/etc.svg", "out/scorecard.html", "out/scorecard.json",
		"out/vendors/acme/report.html", "out/vendors/acme/report.json",
		"out/vendors/etc/report.html", "out/vendors/etc/report.json",
	}
	if strings.Join(files, "\n") != strings.Join(want, "\n") {
		t.Fatalf("files written:\n%s\nwant:\n%s", strings.Join(files, "\n"), strings.Join(want, "\n"))
	}
	if len(explained) != len(sc.Specs) {
		t.Errorf("explain called for %d of %d specs", len(explained), len(sc.Specs))
	}

	// The copied report.json is the submitted file: it verifies.
	if _, ps, err := VerifyFile(filepath.Join(dir, "vendors/etc/report.json")); err != nil || ps != nil {
		t.Fatalf("copied report does not verify: %v %v", err, ps)
	}
	var back Scorecard
	b, _ := os.ReadFile(filepath.Join(dir, "scorecard.json"))
	if err := json.Unmarshal(b, &back); err != nil || back.Kind != ScorecardKind || len(back.Vendors) != 2 {
		t.Fatalf("scorecard.json: %v %+v", err, back)
	}

	page, _ := os.ReadFile(filepath.Join(dir, "scorecard.html"))
	html := string(page)
	// Every cell links to the vendor's page at the spec's anchor, and the
	// vendor page has that anchor.
	vendorPage, _ := os.ReadFile(filepath.Join(dir, "vendors/acme/report.html"))
	for _, sp := range sc.Specs {
		if !strings.Contains(html, `href="vendors/acme/report.html#`+sp.ID+`"`) {
			t.Errorf("no cell links to vendors/acme/report.html#%s", sp.ID)
		}
		if !strings.Contains(string(vendorPage), `id="`+sp.ID+`"`) {
			t.Errorf("vendor page lacks anchor %s", sp.ID)
		}
	}
	if !strings.Contains(html, "Explains DISC-001 &lt;b&gt;bold&lt;/b&gt;") {
		t.Error("explain text missing or not escaped")
	}
	if !strings.Contains(html, "<b>5</b>/10") {
		t.Error("column header lacks the score with its denominator")
	}
	if strings.Contains(html, "<b>bold</b>") {
		t.Error("explain text rendered as markup")
	}

	// Slugs are re-checked before they become paths.
	sc.Vendors[1].Slug = "../../escape"
	if err := WriteScorecard(filepath.Join(root, "again"), sc, nil); err == nil || !strings.Contains(err.Error(), "unsafe slug") {
		t.Fatalf("unsafe slug written: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "escape")); err == nil {
		t.Fatal("a file escaped the scorecard directory")
	}
	if err := WriteScorecard(dir, &Scorecard{Vendors: sc.Vendors}, nil); err == nil {
		t.Fatal("scorecard without reports written")
	}
}

func TestBadge(t *testing.T) {
	tests := []struct {
		v      ScorecardVendor
		text   string
		colour string
	}{
		{ScorecardVendor{ProtocolVersion: "1.0", Score: Score{Passed: 57, Denominator: 57}}, "57/57", badgeBrightGreen},
		{ScorecardVendor{ProtocolVersion: "1.0", Score: Score{Passed: 41, Denominator: 57}}, "41/57", badgeYellow},
		{ScorecardVendor{ProtocolVersion: "1.0", Score: Score{Passed: 52, Denominator: 57}}, "52/57", badgeGreen},
		{ScorecardVendor{ProtocolVersion: "1.0", Score: Score{Passed: 1, Denominator: 57}}, "1/57", badgeRed},
		{ScorecardVendor{ProtocolVersion: "1.0", Unreachable: true, Score: Score{Denominator: 57}}, "unreachable", badgeGrey},
		{ScorecardVendor{ProtocolVersion: "1.0"}, "no specs", badgeGrey},
		{ScorecardVendor{ProtocolVersion: `1"<x>&`, Score: Score{Passed: 1, Denominator: 1}}, "1/1", badgeBrightGreen},
	}
	for _, tc := range tests {
		svg := badgeFor(tc.v)
		var doc struct {
			XMLName xml.Name
			Title   string `xml:"title"`
		}
		if err := xml.Unmarshal([]byte(svg), &doc); err != nil {
			t.Fatalf("badge is not well-formed XML: %v\n%s", err, svg)
		}
		if doc.XMLName.Local != "svg" || !strings.HasSuffix(doc.Title, ": "+tc.text) || !strings.HasPrefix(doc.Title, "A2A v") {
			t.Errorf("badge title %q, want A2A v…: %s", doc.Title, tc.text)
		}
		if !strings.Contains(svg, `fill="`+tc.colour+`"`) {
			t.Errorf("%s: colour is not %s", tc.text, tc.colour)
		}
	}
	if w := regexp.MustCompile(`width="(\d+)"`).FindStringSubmatch(badgeFor(tests[1].v)); w == nil || w[1] == "0" {
		t.Error("badge has no width")
	}
}

func TestBuildScorecardFilesNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := WriteJSON(good, sampleReport("Good", "1")); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(good)
	bad := filepath.Join(dir, "edited.json")
	os.WriteFile(bad, edit(t, raw, func(doc map[string]any) {
		doc["implementation"].(map[string]any)["name"] = "Edited"
		result(doc, 5)["verdict"] = "pass"
	}), 0o644)
	junk := filepath.Join(dir, "junk.json")
	os.WriteFile(junk, []byte("not json"), 0o644)

	_, err := BuildScorecardFiles([]string{good, bad, junk})
	if err == nil {
		t.Fatal("edited and junk files accepted")
	}
	for _, want := range []string{bad + ` ("Edited" "1"): rejected`, "/digest", junk} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), good) {
		t.Errorf("good file blamed: %v", err)
	}
	sc, err := BuildScorecardFiles([]string{good})
	if err != nil || len(sc.Vendors) != 1 {
		t.Fatalf("good file: %v", err)
	}
}

// Client reports (implementation.role "client") get a matrix of their own:
// the agents' matrix keeps the agents and their specs, the clients' the
// clients and the client specs.
func TestScorecardShowsClientsApart(t *testing.T) {
	agent := sampleReport("Acme Travel Agent", "2.3.1")
	cl := sampleReport("Globex client", "1.0")
	cl.Implementation.Role, cl.Run.Mode = "client", "client"
	cl.Results = []Result{{ID: "CLI-001", Title: "The client sends A2A-Version on every request", Suite: "client", Level: LevelMust,
		Sections: []string{"3.6"}, Verdict: Fail, Reason: "no A2A-Version"}}
	sc, err := BuildScorecard([]*Report{verified(t, agent), verified(t, cl)})
	if err != nil {
		t.Fatal(err)
	}
	page, err := renderScorecard(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	i := strings.Index(html, `<section id="clients">`)
	if i < 0 {
		t.Fatalf("no clients section:\n%s", html)
	}
	agents, clients := html[:i], html[i:]
	if strings.Contains(agents, "CLI-001") || strings.Contains(agents, "Globex client") {
		t.Errorf("the agents' part shows the client or its spec")
	}
	if !strings.Contains(clients, "CLI-001") || !strings.Contains(clients, "Globex client") || strings.Contains(clients, "DISC-001") {
		t.Errorf("the clients' matrix should hold the client and CLI-001 only")
	}
	// Without a client report nothing changes.
	only, _ := BuildScorecard([]*Report{verified(t, agent)})
	page, _ = renderScorecard(only, nil)
	if strings.Contains(string(page), `id="clients"`) {
		t.Errorf("a clients section without client reports")
	}
}

// A report is scored against the requirement set it names, and its column
// says so when that is not the current one; one naming none, or one the
// harness does not know, is scored against the current set and says that.
// No score is re-scored silently against a set its run did not name.
func TestScorecardScoresEachReportAgainstItsOwnRequirementSet(t *testing.T) {
	base := sampleReport("Base", "1")
	var older []DeclaredSpec
	for _, r := range base.Results {
		older = append(older, DeclaredSpec{ID: r.ID, Title: r.Title, Suite: r.Suite, Level: r.Level, Sections: r.Sections})
	}
	current := append(slices.Clone(older), DeclaredSpec{ID: "ROLL-099", Title: "a spec added later", Suite: "rollout", Level: LevelMust})
	sets := RequirementSets{Current: "a2a-1.0.1-r2", Sets: map[string][]DeclaredSpec{"a2a-1.0.1-r1": older, "a2a-1.0.1-r2": current}}

	named := func(name, set string) *Report {
		r := sampleReport(name, "1")
		r.Run.Requirements = set
		return verified(t, r)
	}
	sc, err := BuildScorecardSets([]*Report{
		named("Old", "a2a-1.0.1-r1"), named("New", "a2a-1.0.1-r2"), named("None", ""), named("Unknown", "a2a-9.9-r9"),
	}, sets)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]ScorecardVendor{}
	for _, v := range sc.Vendors {
		by[v.Implementation.Name] = v
	}
	cases := []struct {
		name, set, note string
		denominator     int
	}{
		{"Old", "a2a-1.0.1-r1", "scored against its own requirement set a2a-1.0.1-r1", by["Old"].ReportScore.Denominator},
		{"New", "a2a-1.0.1-r2", "", by["New"].ReportScore.Denominator + 1},
		{"None", "a2a-1.0.1-r2", "names no requirement set", by["None"].ReportScore.Denominator + 1},
		{"Unknown", "a2a-1.0.1-r2", "a2a-9.9-r9, which this harness does not know", by["Unknown"].ReportScore.Denominator + 1},
	}
	for _, c := range cases {
		v := by[c.name]
		if v.Requirements != c.set || (c.note == "") != (v.RequirementsNote == "") || !strings.Contains(v.RequirementsNote, c.note) {
			t.Errorf("%s: set %q, note %q; want %q, %q", c.name, v.Requirements, v.RequirementsNote, c.set, c.note)
		}
		if v.Score.Denominator != c.denominator {
			t.Errorf("%s: scored against %d specs, want %d", c.name, v.Score.Denominator, c.denominator)
		}
	}
	if !strings.Contains(strings.Join(sc.Notes, " "), "Not every column is scored against the current requirement set a2a-1.0.1-r2") {
		t.Errorf("notes: %q", sc.Notes)
	}
	page, err := renderScorecard(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"set a2a-1.0.1-r1", "scored against its own requirement set a2a-1.0.1-r1"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("scorecard.html lacks %q", want)
		}
	}
}

// The scorecard says, per client spec, what of the client its verdicts
// judge, and, in each vendor's cell, who supplied the piece in that run.
func TestScorecardSaysWhatAClientVerdictJudges(t *testing.T) {
	acme := sampleReport("Acme", "1")
	acme.Results[0].Judges = &Judged{What: JudgesSupplied, Pieces: []string{PieceReceiver}, By: map[string]string{PieceReceiver: SuppliedByKit}}
	sc, err := BuildScorecard([]*Report{verified(t, acme)})
	if err != nil {
		t.Fatal(err)
	}
	var sp *ScorecardSpec
	for i := range sc.Specs {
		if sc.Specs[i].ID == acme.Results[0].ID {
			sp = &sc.Specs[i]
		}
	}
	if sp == nil || sp.Judges == nil || sp.Judges.What != JudgesSupplied || len(sp.By) != 1 || sp.By[0][PieceReceiver] != SuppliedByKit {
		t.Fatalf("scorecard spec %+v", sp)
	}
	page, err := renderScorecard(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"judges what SDKs may leave to the application, supplied here as the driver says: the push receiver", "(here: the harness&#39;s driver kit)"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the scorecard does not say %q", want)
		}
	}
}

// A result's findings reach the scorecard, per vendor, and the cell's
// tooltip: a terminal state broken after the spec's own watch is seen
// where vendors are compared.
func TestScorecardCarriesFindings(t *testing.T) {
	a := sampleReport("acme", "1.0")
	b := sampleReport("bolt", "2.0")
	for i := range a.Results {
		if a.Results[i].Verdict == Pass {
			a.Results[i].Verdict = Fail
			a.Results[i].Reason = "terminal-final"
			a.Results[i].Findings = []string{"1 of 3 task(s) watched until the run's end broke their terminal state"}
			break
		}
	}
	sc, err := BuildScorecard([]*Report{verified(t, a), verified(t, b)})
	if err != nil {
		t.Fatal(err)
	}
	var found int
	for _, sp := range sc.Specs {
		if sp.Findings == nil {
			continue
		}
		found++
		if len(sp.Findings) != 2 || len(sp.Findings[0])+len(sp.Findings[1]) != 1 {
			t.Errorf("%s: findings %v, want one, for one vendor", sp.ID, sp.Findings)
		}
	}
	if found != 1 {
		t.Fatalf("%d specs carry findings, want 1", found)
	}
	html, err := renderScorecard(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), "found: 1 of 3 task(s) watched until the run") {
		t.Error("the cell's tooltip does not show the finding")
	}
}

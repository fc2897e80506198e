package reports

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
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
	if sc.Vendors[1].Score.Denominator != 3 || sc.Vendors[1].Score.Passed != 1 {
		t.Errorf("globex score = %+v", sc.Vendors[1].Score)
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

func TestBuildScorecardKeepsLatestRunPerImplementation(t *testing.T) {
	old := sampleReport("Acme", "1.0")
	newer := sampleReport("Acme", "1.0")
	newer.Run.Start = old.Run.Start.Add(24 * time.Hour)
	newer.Results[0].Verdict, newer.Results[0].Reason = Fail, "regressed"
	other := sampleReport("Acme", "2.0")
	sc, err := BuildScorecard([]*Report{verified(t, newer), verified(t, old), verified(t, other)})
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Vendors) != 2 {
		t.Fatalf("columns = %d, want one per name+version", len(sc.Vendors))
	}
	v := sc.Vendors[0]
	if v.Implementation.Version != "1.0" || !v.Start.Equal(newer.Run.Start) || sc.Specs[0].Verdicts[0] != "fail" {
		t.Fatalf("kept %+v, want the later run", v)
	}
	if len(sc.Notes) == 0 || !strings.Contains(sc.Notes[0], "superseded") {
		t.Fatalf("notes = %v, want one about the superseded report", sc.Notes)
	}
	// Two versions of one name: the slug carries the version to stay unique.
	if sc.Vendors[0].Slug != "acme-1-0" || sc.Vendors[1].Slug != "acme-2-0" {
		t.Fatalf("slugs = %s, %s", sc.Vendors[0].Slug, sc.Vendors[1].Slug)
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

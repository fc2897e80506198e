package reports

import (
	"fmt"
	"strings"
	"testing"
)

// A spec that could not check every part of its title is never a pass, and
// what it left unchecked shows in the summary, the HTML and the scorecard,
// not only in an observation (issue 8).
func TestPartialResultsShowEverywhere(t *testing.T) {
	r := sampleReport("Acme", "1")
	r.Results[0].Verdict, r.Results[0].Reason = CouldNotRun, "not every part of the requirement was checked"
	r.Results[0].Unchecked = []string{"supportedInterfaces[2] (GRPC <x>): the harness does not speak GRPC"}
	r.Summary = SummarizeReport(r)
	if r.Summary.Partial != 1 {
		t.Fatalf("summary.partial = %d, want 1", r.Summary.Partial)
	}
	back, raw := written(t, r)
	if ps := Verify(back, raw); len(ps) > 0 {
		t.Fatalf("a partial result does not verify: %v", ps)
	}

	html, err := renderHTML(back, HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 with parts of the requirement unchecked", "Not checked", "(GRPC &lt;x&gt;): the harness does not speak GRPC"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}

	sc, err := BuildScorecard([]*Report{back})
	if err != nil {
		t.Fatal(err)
	}
	page, err := renderScorecard(sc, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "(partial)") {
		t.Errorf("scorecard.html does not mark the partial cell")
	}
	if u := sc.Specs[0].Unchecked; len(u) != 1 || len(u[0]) != 1 {
		t.Errorf("scorecard.json unchecked = %v", u)
	}

	// A pass that admits unchecked parts is an edited or broken report.
	r.Results[0].Verdict = Pass
	r.Summary = SummarizeReport(r)
	edited, raw := written(t, r)
	if ps := Verify(edited, raw); !strings.Contains(fmtProblems(ps), "unchecked") {
		t.Errorf("verify accepts a pass with unchecked parts: %v", ps)
	}
}

func fmtProblems(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

// A report stopped by a signal, or filtered, says so on its first line, and
// verify's reasons name it, however well what ran went.
func TestInterruptedOrFilteredReportSaysPartial(t *testing.T) {
	r := sampleReport("Acme", "1")
	r.Run.Interrupted = "SIGTERM"
	r.Run.Focus = []string{"DISC-001"}
	r.Summary = SummarizeReport(r)
	back, raw := written(t, r)
	if ps := Verify(back, raw); len(ps) > 0 {
		t.Fatalf("does not verify: %v", ps)
	}
	why := strings.Join(PartialReasons(back, nil), "; ")
	for _, want := range []string{"interrupted by SIGTERM", "filtered selection (--focus DISC-001)"} {
		if !strings.Contains(why, want) {
			t.Errorf("reasons %q lack %q", why, want)
		}
	}
	r.Run.DeclaredSpecs = len(r.Results) + 5
	if why := strings.Join(PartialReasons(r, nil), "; "); !strings.Contains(why, "of the "+fmt.Sprint(len(r.Results)+5)+" specs its harness declares") {
		t.Errorf("a report short of its harness's set: %q", why)
	}
	html, err := renderHTML(back, HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Partial run: ", "interrupted by SIGTERM"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

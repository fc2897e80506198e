package cli

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// The committed table must be what the registries say today: adding a fault,
// naming another spec, or changing a spec's level without rerunning
// `a2a-conform matrix --out docs/fault-matrix.md` fails here.
func TestFaultMatrixIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../../" + MatrixDoc)
	if err != nil {
		t.Fatalf("%v: run `go run ./cmd/a2a-conform matrix` from the repository root", err)
	}
	if want := ExpectedMatrix(); string(got) != want {
		t.Fatalf("%s is stale: run `go run ./cmd/a2a-conform matrix` from the repository root and commit it.\n%s", MatrixDoc, firstDiff(string(got), want))
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n  committed: " + a + "\n  expected:  " + b
		}
	}
	return ""
}

// A run that saw other verdicts than the registry expects renders a table
// that differs from the expected one (so the staleness test would refuse to
// let it be committed), and every broken expectation is listed as a problem.
func TestMatrixShowsBrokenExpectations(t *testing.T) {
	run := &harnessRun{Seed: 9, Args: []string{"--fault", "x"}, Report: &reports.Report{Results: []reports.Result{
		{ID: "LIFE-011", Verdict: reports.Pass},
		{ID: "LIFE-012", Verdict: reports.Fail},
		{ID: "DISC-003", Verdict: reports.Fail},
	}}}
	row := &faultRow{Run: run, Suites: []string{"lifecycle"}}
	row.Fault.Name = "x"
	row.Fault.Specs = []string{"LIFE-011", "LIFE-012", "LIFE-014"}
	row.judge()
	m := matrix{Clean: cleanResult{Specs: 3, Bad: []string{"LIFE-014 indeterminate"}}, Rows: []*faultRow{row}}
	probs := strings.Join(m.problems(), "\n")
	for _, want := range []string{
		"clean reference agent: LIFE-014 indeterminate",
		"x: LIFE-011 gave pass, want fail (a2a-conform run --seed 9 --fault x)",
		"x: LIFE-014 gave no result, want fail",
	} {
		if !strings.Contains(probs, want) {
			t.Errorf("problems lack %q:\n%s", want, probs)
		}
	}
	if strings.Contains(probs, "LIFE-012") {
		t.Errorf("a held expectation listed as a problem:\n%s", probs)
	}
	if len(row.Others) != 1 || row.Others[0] != "DISC-003 fail" {
		t.Errorf("others %v, want the unnamed DISC-003 fail", row.Others)
	}
	md := m.Markdown()
	for _, want := range []string{"**LIFE-014 indeterminate**", "LIFE-011: **pass** (want fail)", "LIFE-012: fail", "LIFE-014: **no result** (want fail)"} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
}

package cli

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
)

// The committed table must be what the registries say today: adding a fault,
// naming another spec, or changing a spec's level without rerunning
// `a2a-conform matrix --out docs/fault-matrix.md` fails here.
func TestFaultMatrixIsCurrent(t *testing.T) {
	t.Parallel()
	got, err := os.ReadFile("../../" + MatrixDoc)
	if err != nil {
		t.Fatalf("%v: run `go run ./cmd/a2a-conform matrix` from the repository root", err)
	}
	// The variants table's run cells (counts, reasons) are what the last
	// run saw; its names, flags and suites must match the registry.
	if want := maskVariantRuns(ExpectedMatrix()); maskVariantRuns(string(got)) != want {
		t.Fatalf("%s is stale: run `go run ./cmd/a2a-conform matrix` from the repository root and commit it.\n%s", MatrixDoc, firstDiff(maskVariantRuns(string(got)), want))
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
	t.Parallel()
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

// A correct variant may get no fail, and no warning or indeterminate it does
// not allow; could-not-runs are listed, not asserted. The table shows
// every non-pass, and the staleness test sees only the registry's cells.
func TestVariantRowsJudgeEveryNonPass(t *testing.T) {
	t.Parallel()
	v := variant{Name: "v", Agent: "--push-delay 3s", Allowed: map[string]string{"PUSH-002": "allowed here"}}
	run := &harnessRun{Seed: 5, Args: []string{"--agent-cmd", "agent fake --listen 127.0.0.1:{port}"}, Report: &reports.Report{Results: []reports.Result{
		{ID: "PUSH-000", Verdict: reports.Pass},
		{ID: "PUSH-001", Verdict: reports.CouldNotRun, Reason: "no receiver"},
		{ID: "PUSH-004", Verdict: reports.Fail, Reason: "pushed | late"},
		{ID: "PUSH-003", Verdict: reports.Indeterminate, Reason: "waited 10s"},
		{ID: "PUSH-002", Verdict: reports.Indeterminate, Reason: "late, not lost"},
		{ID: "PUSH-010", Verdict: reports.Warn, Reason: "loopback accepted at http://127.0.0.1:43121/hook/8d152075-4ffd-453a-ad5f-cfdc70b10f41 after 1.25s (§13.2) and /hook/961bff3db0ed5f8844b19d18"},
	}}}
	row := &variantRow{Variant: v, Run: run}
	row.judge()
	probs := strings.Join(row.problems(), "\n")
	for _, want := range []string{"variant v: PUSH-004 fail: pushed | late (a2a-conform matrix --variant v --seed 5)",
		"variant v: PUSH-003 indeterminate: waited 10s", "variant v: PUSH-010 warn: loopback accepted"} {
		if !strings.Contains(probs, want) {
			t.Errorf("problems lack %q:\n%s", want, probs)
		}
	}
	if strings.Contains(probs, "PUSH-002") || strings.Contains(probs, "PUSH-001") {
		t.Errorf("an allowed indeterminate or a could-not-run listed as a problem:\n%s", probs)
	}
	if row.Counts[reports.Pass] != 1 || row.Counts[reports.Indeterminate] != 2 || len(row.NonPass) != 5 || row.NonPass[0].ID != "PUSH-001" {
		t.Errorf("counts %v, non-passes %v", row.Counts, row.NonPass)
	}
	md := variantsMarkdown([]*variantRow{row})
	for _, want := range []string{"| v | `--push-delay 3s` | - | discovery, lifecycle, webhook, rollout | 1 | 1 | 0 | 1 | 2 | 1 | PUSH-001 could-not-run, PUSH-002 indeterminate, PUSH-003 **indeterminate**, PUSH-004 **fail**, PUSH-010 **warn** |",
		"PUSH-002 indeterminate on v: late, not lost", "PUSH-003 **indeterminate** on v: waited N s", `PUSH-004 **fail** on v: pushed \| late`,
		"PUSH-010 **warn** on v: loopback accepted at http://127.0.0.1:PORT/hook/ID after N s (§13.2) and /hook/ID", "PUSH-002 may warn or be indeterminate: allowed here"} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	// A non-pass two variants share, with the same reason, is listed once.
	other := &variantRow{Variant: variant{Name: "w"}, Run: &harnessRun{Report: &reports.Report{Results: []reports.Result{
		{ID: "PUSH-001", Verdict: reports.CouldNotRun, Reason: "no receiver"}}}}}
	other.judge()
	both := variantsMarkdown([]*variantRow{row, other})
	if !strings.Contains(both, "- PUSH-001 could-not-run on every variant: no receiver\n") || !strings.Contains(both, "- PUSH-003 **indeterminate** on v: waited N s\n") {
		t.Errorf("shared non-passes not grouped:\n%s", both)
	}
	unrun := variantsMarkdown([]*variantRow{{Variant: v}})
	if maskVariantRuns(md) != maskVariantRuns(unrun) {
		t.Errorf("masked tables differ by their run cells:\n%s\n%s", maskVariantRuns(md), maskVariantRuns(unrun))
	}
	v.Agent = "--push-delay 4s"
	if maskVariantRuns(md) == maskVariantRuns(variantsMarkdown([]*variantRow{{Variant: v}})) {
		t.Error("a changed flag went unseen by the mask")
	}
}

// A variant's run: the process driver starts this binary as the agent (the
// next build too), on every suite, with the receiver port filled in.
func TestVariantArgsUseTheProcessDriver(t *testing.T) {
	t.Parallel()
	vs, err := pickVariants([]string{"webhook-allow-list"}, false)
	if err != nil || len(vs) != 1 {
		t.Fatalf("%v %v", vs, err)
	}
	args := strings.Join(variantArgs(vs[0], "/x y/a2a-conform", "4242", "/pm.yaml"), "\n")
	for _, want := range []string{"--agent-cmd\n'/x y/a2a-conform' fake --listen 127.0.0.1:{port} --store sqlite:{store}",
		"--webhook-allow http://127.0.0.1:4242/hook/", "--agent-cmd-next\n'/x y/a2a-conform' fake", "--instances\n2",
		"--suite\ndiscovery,lifecycle,webhook,rollout", "--webhook-listen\n127.0.0.1:4242"} {
		if !strings.Contains(args, want) {
			t.Errorf("args lack %q:\n%s", want, args)
		}
	}
	if _, err := pickVariants([]string{"nope"}, false); err == nil || !strings.Contains(err.Error(), "slow-steps") {
		t.Errorf("unknown variant: %v", err)
	}
}

// The matrix's client rows run as children (`client` with the reference
// driver, clean and with each client fault that names specs) and meet every
// expectation, and render as the committed table expects: the clean driver
// passes every client spec, and each client fault is caught by every spec it
// names (fail for a MUST spec, warn for a SHOULD one). This is the second
// half of each client spec's proof, run once, here. A proof test: it runs
// with A2A_CONFORM_PROOFS (testkit.ProofsEnv; .ci/run's proof step), each
// shard its share of the faults (and the clean driver in the first).
func TestProofMatrixClientRows(t *testing.T) {
	shard := testkit.Proofs(t)
	t.Parallel()
	faults := []clientdriver.Fault{} // not nil: nil would mean every fault
	for k, f := range clientdriver.Faults() {
		if shard.Takes(k) {
			faults = append(faults, f)
		}
	}
	rows := newClientRows(t.TempDir(), 7, faults)
	want := []*clientRow{expectedClientRows()[0]}
	for _, r := range expectedClientRows()[1:] {
		if slices.ContainsFunc(faults, func(f clientdriver.Fault) bool { return f.Name == r.Fault.Name }) {
			want = append(want, r)
		}
	}
	if shard.I > 1 { // the clean driver runs in the first shard only
		rows, want = rows[1:], want[1:]
	}
	var runs []*harnessRun
	for _, r := range rows {
		if r.Run != nil {
			runs = append(runs, r.Run)
		}
	}
	runAll(context.Background(), runs, 8, func(*harnessRun) {})
	for _, r := range rows {
		r.judge()
	}
	if ps := clientProblems(rows); len(ps) > 0 {
		t.Fatalf("client rows: %s", strings.Join(ps, "\n"))
	}
	if got, want := clientsMarkdown(rows), clientsMarkdown(want); got != want {
		t.Errorf("client table differs from the expected one:\n%s\nwant:\n%s", got, want)
	}
}

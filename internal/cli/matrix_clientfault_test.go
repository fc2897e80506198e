package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// One client fault through the matrix command: the clean reference client
// driver and the fault each run in a child (the client suite, the fault's
// specs focused), no clean agent nor agent fault runs, the expectation
// holds, and no table is written.
func TestMatrixCommandOnOneClientFault(t *testing.T) {
	t.Parallel()
	table := filepath.Join(t.TempDir(), "m.md")
	var so, se bytes.Buffer
	code := Main([]string{"matrix", "--fault", "picks-last-interface", "--seed", "5", "--out", table, "--work", t.TempDir()}, &so, &se)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, so.String(), se.String())
	}
	out := so.String()
	for _, want := range []string{"0 faults · 1 client faults", "client --seed 5 --client-cmd", "client --seed 6 --client-cmd", "--fault picks-last-interface' --focus CLI-005",
		"clean reference client driver: every client spec passes; 1 of 1 client faults caught by every spec they name"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"clean agent", "a2a-conform run "} {
		if strings.Contains(out, not) {
			t.Errorf("a client fault ran the agent side (%q):\n%s", not, out)
		}
	}
	if _, err := os.Stat(table); err == nil {
		t.Error("a matrix of one client fault wrote the table")
	}
}

// An unknown name is a usage error that lists both kinds of fault; agent
// and client names may be mixed.
func TestMatrixFaultNames(t *testing.T) {
	t.Parallel()
	var so, se bytes.Buffer
	if code := Main([]string{"matrix", "--fault", "no-such-fault"}, &so, &se); code != runner.ExitUsage {
		t.Errorf("unknown fault: exit %d, want 2 (usage)\n%s", code, se.String())
	}
	for _, want := range []string{`unknown fault "no-such-fault"`, "not an agent fault (", "cancel-then-complete", "nor a client fault of the reference client driver (", "picks-last-interface"} {
		if !strings.Contains(se.String(), want) {
			t.Errorf("error lacks %q:\n%s", want, se.String())
		}
	}
	agent, client, err := splitFaultNames([]string{"cancel-then-complete", "picks-last-interface", "no-fallback"})
	if err != nil || len(agent) != 1 || agent[0] != "cancel-then-complete" || len(client) != 2 || client[0].Name != "picks-last-interface" || client[1].Name != "no-fallback" {
		t.Errorf("split: agent %v, client %v, err %v", agent, client, err)
	}
}

// A name means one fault: no agent fault shares a name with a client fault.
func TestAgentAndClientFaultNamesAreDisjoint(t *testing.T) {
	t.Parallel()
	for _, f := range clientdriver.Faults() {
		if _, err := fakes.LookupFault(f.Name); err == nil {
			t.Errorf("%s is both an agent fault and a client fault: `matrix --fault %s` cannot tell which", f.Name, f.Name)
		}
	}
}

// A client fault that a spec it names let pass is a problem of the run,
// with the verdict it gave and the one it owed.
func TestClientRowShowsBrokenExpectations(t *testing.T) {
	t.Parallel()
	row := &clientRow{Fault: clientdriver.Fault{Name: "x", Specs: []string{"CLI-005", "CLI-001"}},
		Run: runWith(3, map[string]reports.Verdict{"CLI-005": reports.Pass, "CLI-001": reports.Fail})}
	row.judge()
	probs := strings.Join(clientProblems([]*clientRow{row}), "\n")
	if !strings.Contains(probs, "client x: CLI-005 was pass, want fail") || strings.Contains(probs, "CLI-001") {
		t.Errorf("problems:\n%s", probs)
	}
}

// A correct client variant may get no fail, and no warning or
// indeterminate its entry does not allow; could-not-runs are listed, not
// asserted. The table shows every non-pass, and the staleness test sees
// only the registry's cells.
func TestClientVariantRowsJudgeEveryNonPass(t *testing.T) {
	t.Parallel()
	v := clientdriver.Variant{Name: "cv", Specs: []string{"CLI-020"}, Allowed: map[string]string{"CLI-036": "allowed here"}}
	results := []reports.Result{{ID: "CLI-001", Verdict: reports.Pass}, {ID: "CLI-036", Verdict: reports.Warn, Reason: "allowed"},
		{ID: "CLI-020", Verdict: reports.Warn, Reason: "no conditional GET at http://127.0.0.1:4242/x"},
		{ID: "CLI-023", Verdict: reports.Fail, Reason: "merged"}, {ID: "CLI-021", Verdict: reports.CouldNotRun, Reason: "no driver"}}
	row := &clientVariantRow{Variant: v, Run: &harnessRun{Seed: 4, Report: &reports.Report{Results: results}}}
	row.judge()
	probs := strings.Join(clientVariantProblems([]*clientVariantRow{row}), "\n")
	for _, want := range []string{"client variant cv: CLI-020 warn: no conditional GET", "client variant cv: CLI-023 fail: merged (a2a-conform matrix --variant cv --seed 4)"} {
		if !strings.Contains(probs, want) {
			t.Errorf("problems lack %q:\n%s", want, probs)
		}
	}
	if strings.Contains(probs, "CLI-036") || strings.Contains(probs, "CLI-021") {
		t.Errorf("an allowed warning or a could-not-run listed as a problem:\n%s", probs)
	}
	md := clientVariantsMarkdown([]*clientVariantRow{row})
	for _, want := range []string{"| cv | CLI-020 | 1 | 2 | 0 | 1 | 0 | 1 | CLI-020 **warn**, CLI-021 could-not-run, CLI-023 **fail**, CLI-036 warn, **5 results, not one per client spec (" + strconv.Itoa(len(suites.InSuites(suites.Client))) + ")** |",
		"- CLI-020 **warn** on cv: no conditional GET at http://127.0.0.1:PORT/x", "CLI-036 may warn or be indeterminate: allowed here"} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(probs, "client variant cv: 5 results, not one per client spec") {
		t.Errorf("a run without every client spec is not a problem:\n%s", probs)
	}
	unrun := clientVariantsMarkdown([]*clientVariantRow{{Variant: v}})
	if maskVariantRuns(md) != maskVariantRuns(unrun) {
		t.Errorf("masked tables differ by their run cells:\n%s\n%s", maskVariantRuns(md), maskVariantRuns(unrun))
	}
	v.Specs = []string{"CLI-021"}
	if maskVariantRuns(md) == maskVariantRuns(clientVariantsMarkdown([]*clientVariantRow{{Variant: v}})) {
		t.Error("a changed spec list went unseen by the mask")
	}
	// A spec whose reading the variant takes must pass it: a could-not-run
	// there left the reading unchecked, as TestProofClientVariantsGetNoUnallowedNonPass holds.
	named := &clientVariantRow{Variant: clientdriver.Variant{Name: "cn", Specs: []string{"CLI-021"}},
		Run: &harnessRun{Seed: 4, Report: &reports.Report{Results: results}}}
	named.judge()
	if p := strings.Join(clientVariantProblems([]*clientVariantRow{named}), "\n"); !strings.Contains(p, "client variant cn: CLI-021 could-not-run: no driver") {
		t.Errorf("a could-not-run on a spec the variant names is not a problem:\n%s", p)
	}
	agent, client := splitVariantNames([]string{"slow-steps", "slow", "query-version"})
	if len(agent) != 1 || agent[0] != "slow-steps" || len(client) != 2 {
		t.Errorf("split: agent %v, client %v", agent, client)
	}
}

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
)

// One client fault through the matrix command: the clean reference client
// driver and the fault each run in a child (the client suite, the fault's
// specs focused), no clean agent nor agent fault runs, the expectation
// holds, and no table is written.
func TestMatrixCommandOnOneClientFault(t *testing.T) {
	t.Setenv(cliEnv, "1")
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
	for _, f := range clientdriver.Faults() {
		if _, err := fakes.LookupFault(f.Name); err == nil {
			t.Errorf("%s is both an agent fault and a client fault: `matrix --fault %s` cannot tell which", f.Name, f.Name)
		}
	}
}

// A client fault that a spec it names let pass is a problem of the run,
// with the verdict it gave and the one it owed.
func TestClientRowShowsBrokenExpectations(t *testing.T) {
	row := &clientRow{Fault: clientdriver.Fault{Name: "x", Specs: []string{"CLI-005", "CLI-001"}},
		Run: runWith(3, map[string]reports.Verdict{"CLI-005": reports.Pass, "CLI-001": reports.Fail})}
	row.judge()
	probs := strings.Join(clientProblems([]*clientRow{row}), "\n")
	if !strings.Contains(probs, "client x: CLI-005 was pass, want warn") || strings.Contains(probs, "CLI-001") {
		t.Errorf("problems:\n%s", probs)
	}
}

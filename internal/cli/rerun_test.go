package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// rerun repeats a report from the report alone: the same flags and seed,
// the same verdicts, and a flag given after the report wins.
func TestRerunRepeatsTheReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, again := filepath.Join(dir, "first"), filepath.Join(dir, "again")
	cli := func(args ...string) string {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), cliEnv+"=1")
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	cli("run", "--fault", "cancel-then-complete", "--focus", "LIFE-011,DISC-001", "--out", first)
	out := cli("rerun", filepath.Join(first, "report.json"), "--out", again)
	a, err := reports.ReadJSON(filepath.Join(first, "report.json"))
	if err != nil {
		t.Fatalf("first run: %v", err)
	}
	b, err := reports.ReadJSON(filepath.Join(again, "report.json"))
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	if a.Run.Seed != b.Run.Seed || !slices.Equal(a.Run.Faults, b.Run.Faults) || !slices.Equal(a.Run.Focus, b.Run.Focus) {
		t.Errorf("rerun ran another run: seed %d/%d faults %v/%v focus %v/%v", a.Run.Seed, b.Run.Seed, a.Run.Faults, b.Run.Faults, a.Run.Focus, b.Run.Focus)
	}
	for i := range a.Results {
		if a.Results[i].ID != b.Results[i].ID || a.Results[i].Verdict != b.Results[i].Verdict {
			t.Errorf("%s: %s, rerun %s %s", a.Results[i].ID, a.Results[i].Verdict, b.Results[i].ID, b.Results[i].Verdict)
		}
	}
	// A flag after the report wins over the report's.
	args, _ := RerunArgs(a, []string{"--focus", "DISC-001"})
	if strings.Contains(strings.Join(args, " "), "LIFE-011") {
		t.Errorf("--focus after the report did not replace the report's: %q", args)
	}
	if !strings.Contains(strings.Join(args, " "), "--seed=") {
		t.Errorf("the report's seed is lost: %q", args)
	}
}

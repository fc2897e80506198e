//go:build unix

package runner_test

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// A run stopped by a signal still writes its reports, marked interrupted,
// and exits 128 + the signal, never 0 (issue 19: SIGTERM gave exit 0 and a
// report nobody could tell from a complete one). Every spec it did not
// finish is could-not-run or indeterminate, and verify calls it partial.
func TestSignalledRunIsMarkedInterrupted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig  syscall.Signal
		name string
		exit int
	}{{syscall.SIGTERM, "SIGTERM", 143}, {syscall.SIGINT, "SIGINT", 130}} {
		out := t.TempDir()
		cmd := exec.Command(os.Args[0], "run", "--out", out, "--suite", "lifecycle", "--seed", "3")
		cmd.Env = append(os.Environ(), cliEnv+"=1")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var rest bytes.Buffer
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Signal once the first spec has a verdict: the run is under way.
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			rest.WriteString(sc.Text() + "\n")
			if strings.HasPrefix(sc.Text(), "LIFE-") {
				break
			}
		}
		_ = cmd.Process.Signal(tc.sig)
		_, _ = io.Copy(&rest, stdout)
		err = cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != tc.exit {
			t.Errorf("%s: exit %d, want %d\n%s", tc.name, code, tc.exit, rest.String())
		}
		r, err := reports.ReadJSON(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatalf("%s: no report: %v\n%s", tc.name, err, rest.String())
		}
		if r.Run.Interrupted != tc.name {
			t.Errorf("%s: run.interrupted = %q", tc.name, r.Run.Interrupted)
		}
		if ps := reports.Verify(r, nil); len(ps) > 0 {
			t.Errorf("%s: the interrupted report does not verify: %v", tc.name, ps)
		}
		if !strings.Contains(strings.Join(reports.PartialReasons(r, nil), "; "), "interrupted by "+tc.name) {
			t.Errorf("%s: not partial: %q", tc.name, reports.PartialReasons(r, nil))
		}
		notPassed := 0
		for _, res := range r.Results {
			if res.Verdict == reports.CouldNotRun || res.Verdict == reports.Indeterminate {
				notPassed++
			}
		}
		if notPassed == 0 {
			t.Errorf("%s: every spec finished before the signal, which proves nothing; results %v", tc.name, verdicts(r))
		}
	}
}

//go:build unix

package runner_test

import (
	"os"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// An agent process that dies mid-run is reported with its exit status and
// the tail of its log, the specs it was not there for are never failed on
// the harness's own balancer 502s, and the run does not exit 0 (issue 19: a
// killed agent gave 26 fails "got HTTP 502").
func TestAgentThatDiesMidRunIsNotBlamedForTheHarnessErrors(t *testing.T) {
	t.Parallel()
	// The shell leads the group: it starts the reference agent, kills it
	// after a few seconds, says so, and exits 7. The agent takes 500 ms a
	// step, so that the suite is still running when it dies: against the
	// fast agent the whole lifecycle suite could end within those seconds on
	// a fast machine, and then nothing was left to be blamed.
	cmd := "'" + os.Args[0] + "' fake --listen 127.0.0.1:{port} --store sqlite:{store} --name proc-{instance} --delay 500ms & pid=$!; sleep 4; kill -9 $pid; echo 'out of memory, giving up'; exit 7"
	r := runCLI(t, nil, "--agent-cmd", cmd, "--suite", "lifecycle", "--seed", "5", "--header", "Authorization: Bearer x")
	if r.report == nil {
		t.Fatalf("no report, exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	if r.exit == 0 {
		t.Errorf("exit 0 for a run whose agent died")
	}
	notes := strings.Join(r.report.Run.Notes, "\n")
	for _, want := range []string{"agent instance 0 exited during the run", "exit status 7", "out of memory, giving up"} {
		if !strings.Contains(notes, want) {
			t.Errorf("run notes lack %q:\n%s", want, notes)
		}
	}
	blamed := 0
	for _, res := range r.report.Results {
		if res.Verdict == reports.Fail || res.Verdict == reports.Warn {
			if strings.Contains(res.Reason, "502") {
				t.Errorf("%s %s on the balancer's 502: %s", res.ID, res.Verdict, res.Reason)
			}
		}
		if strings.Contains(res.Reason, "agent instance 0 exited") {
			blamed++
		}
	}
	if blamed == 0 {
		t.Errorf("no result names the agent's exit as its cause: %v", verdicts(r.report))
	}
}

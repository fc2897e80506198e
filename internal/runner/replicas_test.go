package runner_test

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
)

// The second shapes of the replicated-deployment bugs users report, under
// the process driver (the reference agent as two `a2a-conform fake`
// processes sharing one SQLite file, the fault switched on in both), each
// failing the spec that names it with what shows it; and the forwarding
// replicas, which must pass all three specs. The embedded driver's runs are
// the fault matrix's (a2a-conform matrix --fault NAME).
func TestProofReplicaBugsUnderTheProcessDriver(t *testing.T) {
	testkit.WholeProof(t)
	if testing.Short() {
		t.Skip("starts the agent's processes five times")
	}
	t.Parallel()
	for _, c := range []struct {
		name, flags, spec string
		// shows is what the failing spec's reason must name.
		shows string
	}{
		{"forward-to-owner", " --forward-to-owner", "ROLL-005,ROLL-006,ROLL-010", ""},
		{"subscribe-unknown-on-replica", " --fault subscribe-unknown-on-replica", "ROLL-005", "TaskNotFoundError"},
		{"cancel-unpushed-across-replicas", " --fault cancel-unpushed-across-replicas", "ROLL-006", "TASK_STATE_CANCELED, owed after the acknowledged cancel"},
		{"resume-from-stale-copy", " --fault resume-from-stale-copy", "ROLL-010", "gone: the turn was written over newer state"},
		{"stale-copy-reopens-ended", " --fault stale-copy-reopens-ended", "ROLL-010", "a task in a terminal state cannot restart"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(c.flags), "--instances", "2",
				"--focus", c.spec, "--seed", "26", "--header", "Authorization: Bearer x")
			if r.report != nil && r.report.Run.Topology != "process" {
				t.Errorf("topology %q, want process", r.report.Run.Topology)
			}
			want := reports.Fail
			if c.shows == "" {
				want = reports.Pass
			}
			for _, id := range strings.Split(c.spec, ",") {
				res := result(t, r, id)
				switch {
				case res.Verdict != want:
					t.Errorf("%s with %s: %s, want %s: %s\n%v", id, c.name, res.Verdict, want, res.Reason, res.Observations)
				case want == reports.Fail && !strings.Contains(res.Reason, c.shows):
					t.Errorf("%s with %s: the reason does not name %q:\n%s", id, c.name, c.shows, res.Reason)
				}
			}
		})
	}
}

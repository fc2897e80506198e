//go:build unix

package runner_test

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// validatorsOnProcesses runs ROLL-011 on two `a2a-conform fake` processes
// sharing one SQLite file, rolled to the next generation by the same
// command, each started with extra.
func validatorsOnProcesses(extra string) []string {
	cmd := referenceAgentCmd(" --generation {generation} " + extra)
	return []string{"--agent-cmd", cmd, "--agent-cmd-next", cmd, "--instances", "2", "--focus", "ROLL-011", "--seed", "5"}
}

// ROLL-011 on both drivers: each shape of per-instance validators is caught
// (an ETag seeded per instance warns; a Last-Modified taken from the
// instance's start fails, by the stale card it leads to mid-rollout), and
// correct deployments pass, the comparisons made. The clean embedded
// deployment is TestCleanReferenceAgentPassesEverySpec's. A process
// serving gRPC names its own listener in the card, so the processes that
// must serve one card run without it.
func TestCardValidatorsAcrossInstances(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		want reports.Verdict
		says string // in the reason, or for a pass in the observations
	}{
		{"embedded/etag-per-instance", []string{"--focus", "ROLL-011", "--seed", "5", "--fault", "etag-per-instance"}, reports.Warn, "whenever instance 1"},
		{"embedded/last-modified-per-instance", []string{"--focus", "ROLL-011", "--seed", "5", "--fault", "last-modified-per-instance"}, reports.Fail, "304 Not Modified"},
		{"process/one-card", validatorsOnProcesses("--grpc-listen off"), reports.Pass, "HTTP 200"},
		{"process/omit-etag", validatorsOnProcesses("--grpc-listen off --omit-etag"), reports.Pass, "HTTP 200"},
		{"process/etag-per-instance", validatorsOnProcesses("--grpc-listen off --fault etag-per-instance"), reports.Warn, "whenever instance 1"},
		{"process/last-modified-per-instance", validatorsOnProcesses("--fault last-modified-per-instance"), reports.Fail, "304 Not Modified"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := result(t, runCLI(t, nil, c.args...), "ROLL-011")
			if res.Verdict != c.want {
				t.Fatalf("%s, want %s: %s\n%v", res.Verdict, c.want, res.Reason, res.Observations)
			}
			text := res.Reason
			if c.want == reports.Pass {
				text = res.Observations["revalidation"]
				if cards := res.Observations["cards"]; strings.Contains(cards, "differ") || res.Observations["restart.card"] != "" {
					t.Errorf("the processes' cards were not compared: %v", res.Observations)
				}
			}
			if !strings.Contains(text, c.says) {
				t.Errorf("%q not in %q", c.says, text)
			}
		})
	}
}

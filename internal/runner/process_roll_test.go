package runner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// rollFocus are the rollout specs the process tests run: a rotation, a
// rolling restart under load, and streams and cancels across instances.
const rollFocus = "ROLL-001,ROLL-002,ROLL-003,ROLL-005,ROLL-006"

func checkRolled(t *testing.T, r cliRun) {
	t.Helper()
	if r.exit != 0 || r.report == nil {
		log, _ := os.ReadFile(filepath.Join(r.out, "agent.log"))
		t.Fatalf("exit %d, report %v\nstdout:\n%s\nstderr:\n%s\nagent.log (tail):\n%s", r.exit, r.report != nil, r.stdout, r.stderr, tail(string(log), 3000))
	}
	if r.report.Run.Topology != "process" {
		t.Errorf("run.topology %q, want process", r.report.Run.Topology)
	}
	for _, res := range r.report.Results {
		if res.Verdict != reports.Pass {
			t.Errorf("%s: %s: %s", res.ID, res.Verdict, res.Reason)
		}
	}
	log, err := os.ReadFile(filepath.Join(r.out, "agent.log"))
	if err != nil {
		t.Fatal(err)
	}
	// Each replaced instance's output is kept: the first generation's and
	// the next ones' lines are all in agent.log.
	for _, want := range []string{"rolling 2 instance(s) to generation 2", "generation 2 started", "[agent 0]", "[agent 1]"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("agent.log lacks %q", want)
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// The reference agent as separate `a2a-conform fake` processes sharing one
// SQLite file, rolled to the next build (--agent-cmd-next) one instance at a
// time behind the harness's balancer: the rollout specs pass.
func TestProcessDriverRollsTheReferenceAgent(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(""),
		"--agent-cmd-next", referenceAgentCmd(" --generation {generation}"), "--instances", "2",
		"--focus", rollFocus, "--seed", "1", "--header", "Authorization: Bearer x")
	checkRolled(t, r)
}

// A vendor-style start script (it execs the agent, as a container
// entrypoint does) is rolled the same way.
func TestProcessDriverRollsAVendorScript(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "start-agent.sh")
	body := "#!/bin/sh\n# usage: start-agent.sh PORT INSTANCE GENERATION STORE\nset -e\necho \"start-agent: instance $2 generation $3 on port $1\"\n" +
		"exec '" + os.Args[0] + "' fake --listen \"127.0.0.1:$1\" --store \"sqlite:$4\" --name \"vendor-$2\" --generation \"$3\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := script + " {port} {instance} {generation} {store}"
	r := runCLI(t, nil, "--agent-cmd", cmd, "--agent-cmd-next", cmd, "--instances", "2",
		"--focus", rollFocus, "--seed", "2", "--header", "Authorization: Bearer x")
	checkRolled(t, r)
	log, _ := os.ReadFile(filepath.Join(r.out, "agent.log"))
	if !strings.Contains(string(log), "start-agent: instance 1 generation 2") {
		t.Errorf("agent.log lacks the script's own line for the second generation")
	}
}

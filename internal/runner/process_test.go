//go:build unix

package runner_test

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/cli"
	"github.com/a2a-conform/a2a-conform/reports"
)

// referenceAgentCmd is the vendor's command for the process driver: this
// test binary, which the CLI child re-executes with cliEnv inherited, so that
// it acts as the CLI and `fake` serves the reference agent.
func referenceAgentCmd(extra string) string {
	return "'" + os.Args[0] + "' fake --listen 127.0.0.1:{port} --store sqlite:{store} --name proc-{instance}" + extra
}

var listening = regexp.MustCompile(`\[agent (\d+)\] a2a-conform fake proc-(\d+) listening on (http://127\.0\.0\.1:\d+)`)

// agentURLs reads the instances' URLs from the run's agent log.
func agentURLs(t *testing.T, out string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "agent.log"))
	if err != nil {
		t.Fatalf("agent log: %v", err)
	}
	urls := map[string]string{}
	for _, m := range listening.FindAllStringSubmatch(string(b), -1) {
		if m[1] != m[2] {
			t.Errorf("log prefix [agent %s] on instance proc-%s's line", m[1], m[2])
		}
		urls[m[1]] = m[3]
	}
	return urls
}

// assertStopped checks that nothing answers at the instances' addresses any
// more: the run stopped every agent process it started.
func assertStopped(t *testing.T, urls ...string) {
	t.Helper()
	for _, u := range urls {
		if c, err := net.DialTimeout("tcp", strings.TrimPrefix(u, "http://"), time.Second); err == nil {
			c.Close()
			t.Errorf("%s still answers after the run", u)
		}
	}
}

func TestProcessDriverRunsTheVendorCommand(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(""), "--instances", "2",
		"--suite", "discovery", "--seed", "1", "--header", "Authorization: Bearer x")
	if r.exit != 0 || r.report == nil {
		t.Fatalf("exit %d, report %v\nstdout:\n%s\nstderr:\n%s", r.exit, r.report != nil, r.stdout, r.stderr)
	}
	if r.report.Run.Topology != "process" {
		t.Errorf("run.topology %q, want process", r.report.Run.Topology)
	}
	if len(r.report.Results) == 0 {
		t.Fatal("no results")
	}
	for _, res := range r.report.Results {
		if res.Verdict != reports.Pass && res.Verdict != reports.NotApplicable {
			t.Errorf("%s: %s: %s", res.ID, res.Verdict, res.Reason)
		}
	}
	urls := agentURLs(t, r.out)
	if len(urls) != 2 || urls["0"] == urls["1"] {
		t.Fatalf("want two instances on their own ports in agent.log, got %v", urls)
	}
	if r.report.Run.Target != urls["0"] {
		t.Errorf("target %q, want instance 0 at %q", r.report.Run.Target, urls["0"])
	}
	assertStopped(t, urls["0"], urls["1"])
}

// A fault switched on in the vendor's command line is caught by its spec.
func TestProcessDriverCatchesAFaultInTheVendorCommand(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(" --fault cancel-then-complete"), "--instances", "2",
		"--focus", "LIFE-012", "--seed", "1", "--header", "Authorization: Bearer x")
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	if got := verdicts(r.report)["LIFE-012"]; got != reports.Fail || r.exit != 1 {
		log, _ := os.ReadFile(filepath.Join(r.out, "agent.log"))
		t.Fatalf("LIFE-012 %q, exit %d; want fail, exit 1\n%s\nreason: %s\nagent.log:\n%s", got, r.exit, r.stdout, r.report.Results[0].Reason, log)
	}
	urls := agentURLs(t, r.out)
	if len(urls) != 2 {
		t.Fatalf("want two instances in agent.log, got %v", urls)
	}
	assertStopped(t, urls["0"], urls["1"])
}

// An agent command that exits at once means the target could not be
// reached: exit 3, every spec could-not-run, and the reason quotes the agent.
func TestProcessDriverAgentThatExitsIsUnreachable(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--agent-cmd", "echo boom; exit 7", "--suite", "discovery", "--seed", "1")
	if r.exit != 3 || r.report == nil {
		t.Fatalf("exit %d (want 3), report %v\nstdout:\n%s\nstderr:\n%s", r.exit, r.report != nil, r.stdout, r.stderr)
	}
	if r.report.Run.Topology != "process" || !r.report.Run.Unreachable {
		t.Errorf("run.topology %q unreachable %v", r.report.Run.Topology, r.report.Run.Unreachable)
	}
	if len(r.report.Results) == 0 {
		t.Fatal("no results")
	}
	for _, res := range r.report.Results {
		if res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, "boom") || !strings.Contains(res.Reason, "exit status 7") {
			t.Errorf("%s: %s: %s", res.ID, res.Verdict, res.Reason)
		}
	}
	log, err := os.ReadFile(filepath.Join(r.out, "agent.log"))
	if err != nil || !strings.Contains(string(log), "[agent 0] boom") {
		t.Errorf("agent.log lacks the agent's output: %q %v", log, err)
	}
	assertStopped(t, r.report.Run.Target)
}

// Misused process-driver flags are refused before anything starts.
func TestProcessDriverFlagsThatAreUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "http://127.0.0.1:1", "--instances", "2"}, "--instances needs --agent-cmd or the embedded agent"},
		{[]string{"--agent-cmd", "x {port}", "--instances", "17"}, "between 1 and 16"},
		{[]string{"--agent-cmd", "x {port}", "--fault", "v03-card"}, "put faults in the --agent-cmd command line"},
		{[]string{"--agent-cmd-next", "y {port}"}, "--agent-cmd-next needs --agent-cmd"},
		{[]string{"--agent-cmd", "x {port}", "--target", "http://127.0.0.1:1"}, "not both"},
	} {
		var so, se bytes.Buffer
		args := append([]string{"run", "--out", t.TempDir()}, c.args...)
		if code := cli.Main(args, &so, &se); code != 2 || !strings.Contains(se.String(), c.want) {
			t.Errorf("%v: exit %d, want 2 with %q\n%s", c.args, code, c.want, se.String())
		}
	}
}

// A credential the agent prints at start-up reaches neither agent.log, the
// could-not-run reasons, nor the terminal.
func TestProcessDriverRedactsSecretsFromAgentOutput(t *testing.T) {
	t.Parallel()
	canary := "canary-5e1f9a77c3"
	r := runCLI(t, nil, "--agent-cmd", "echo my token is "+canary+"; exit 3", "--header", "Authorization: Bearer "+canary,
		"--suite", "discovery")
	if r.exit != 3 || r.report == nil {
		t.Fatalf("exit %d\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	if !strings.Contains(r.report.Results[0].Reason, "my token is [REDACTED]") {
		t.Fatalf("the agent's output is not quoted (redacted) in the reason: %q", r.report.Results[0].Reason)
	}
	files, _ := filepath.Glob(filepath.Join(r.out, "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), canary) {
			t.Errorf("%s contains the credential", filepath.Base(f))
		}
	}
	if strings.Contains(r.stdout+r.stderr, canary) {
		t.Error("the terminal output contains the credential")
	}
}

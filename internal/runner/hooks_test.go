//go:build unix

package runner_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/cli"
	"github.com/a2a-conform/a2a-conform/internal/replay"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// staging is the deployment behind --target in the hooks tests: the
// reference agent as a separate `a2a-conform fake` process on a fixed
// loopback port with a SQLite store, which nothing but the hooks change.
// The hooks are a small shell script that asks the controller here (a
// loopback endpoint) to carry out its point: rotate-card and rollout-step
// restart the agent one generation on (card version 1.<N>.0, so a new card
// and ETag), restart-instance restarts it as it was. The controller owns
// the agent's process, so it is always reaped.
type staging struct {
	t      *testing.T
	dir    string
	addr   string
	faults string
	extra  []string
	ctl    *httptest.Server
	script string

	mu    sync.Mutex
	cmd   *exec.Cmd
	gen   int
	calls []map[string]string
	// podNames names each start of the agent anew (staging-0, staging-1,
	// …), as Kubernetes names a replaced pod: a restart then shows in the
	// A2A-Conform-Instance header.
	podNames bool
	starts   int
}

func startStaging(t *testing.T, fault string, extra ...string) *staging {
	t.Helper()
	// The agent is restarted on this address by the hooks: it must be one
	// no other test can take meanwhile.
	addr := testkit.FreeAddr(t)
	s := &staging{t: t, dir: t.TempDir(), addr: addr, faults: fault, extra: extra}
	if err := s.start(1); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	s.ctl = httptest.NewServer(http.HandlerFunc(s.control))
	t.Cleanup(s.ctl.Close)
	s.script = filepath.Join(s.dir, "staging-hook.sh")
	body := "#!/bin/sh\n# A staging hook: asks the deployment controller to carry out $A2A_CONFORM_POINT.\n" +
		"echo \"hook $A2A_CONFORM_POINT for $A2A_CONFORM_SPEC: generation $A2A_CONFORM_GENERATION, tasks [$A2A_CONFORM_TASK_IDS], instance [$A2A_CONFORM_INSTANCE]\"\n" +
		hookClientEnv + "=1 exec '" + os.Args[0] + "' '" + s.ctl.URL + "'\n"
	if err := os.WriteFile(s.script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *staging) url() string { return "http://" + s.addr }

// start runs the agent at generation gen and waits until its card answers 200.
func (s *staging) start(gen int) error {
	name := "staging-0"
	if s.podNames {
		name = fmt.Sprintf("staging-%d", s.starts)
	}
	s.starts++
	args := []string{"fake", "--listen", s.addr, "--grpc-listen", "off", "--store", "sqlite:" + filepath.Join(s.dir, "store.db"),
		"--name", name, "--generation", strconv.Itoa(gen)}
	if s.faults != "" {
		args = append(args, "--fault", s.faults)
	}
	args = append(args, s.extra...)
	log, err := os.OpenFile(filepath.Join(s.dir, "agent.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd, s.gen = cmd, gen
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(s.url() + "/.well-known/agent-card.json"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the agent at generation %d did not serve its card within 15s", gen)
}

// stop drains the agent (SIGTERM), killing it after 5 s.
func (s *staging) stop() {
	if s.cmd == nil {
		return
	}
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	s.cmd = nil
}

func (s *staging) control(w http.ResponseWriter, r *http.Request) {
	var env map[string]string
	if err := json.NewDecoder(r.Body).Decode(&env); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, env)
	point := strings.TrimPrefix(r.URL.Path, "/")
	gen := s.gen
	switch point {
	case "rotate-card", "rollout-step":
		gen++
	case "restart-instance":
	default:
		http.Error(w, "unknown point "+point, http.StatusNotFound)
		return
	}
	if want := strconv.Itoa(gen); env["A2A_CONFORM_GENERATION"] != want {
		http.Error(w, fmt.Sprintf("the hook says generation %s, the deployment goes to %s", env["A2A_CONFORM_GENERATION"], want), http.StatusConflict)
		return
	}
	s.stop()
	if err := s.start(gen); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	fmt.Fprintf(w, "%s done: staging-0 serves generation %d\n", point, gen)
}

func (s *staging) hookCalls() []map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]string(nil), s.calls...)
}

// runHooks runs the rollout suite against the staging agent with every hook
// point given to the script.
func (s *staging) runHooks(t *testing.T, seed string, extra ...string) cliRun {
	t.Helper()
	args := append([]string{"--target", s.url(), "--suite", "rollout", "--seed", seed,
		"--hook-rotate-card", s.script, "--hook-restart-instance", s.script, "--hook-rollout-step", s.script,
		"--header", "Authorization: Bearer staging-token"}, extra...)
	return runCLI(t, nil, args...)
}

// hooksRun are the rollout specs that run under the hooks driver, and what
// each ends with against the clean agent: ROLL-008 can check only part of
// its title through one endpoint, so it is could-not-run at best.
var hooksRun = map[string]reports.Verdict{
	"ROLL-001": reports.Pass,
	"ROLL-002": reports.Pass,
	"ROLL-008": reports.CouldNotRun,
}

// checkHooksVerdicts checks every rollout result against want (ID →
// verdict; the hooksRun specs not in want keep their clean verdict); the
// specs that need single instances must be could-not-run, naming the hooks
// driver and the drivers that would run them.
func checkHooksVerdicts(t *testing.T, r cliRun, want map[string]reports.Verdict) {
	t.Helper()
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	if r.report.Run.Topology != "hooks" {
		t.Errorf("run.topology %q, want hooks", r.report.Run.Topology)
	}
	seen := 0
	for _, res := range r.report.Results {
		t.Logf("%s %s: %s\n   observations: %v", res.ID, res.Verdict, res.Reason, res.Observations)
		if res.Suite != suites.Rollout {
			continue
		}
		if !rollout18[res.ID] {
			continue // a later spec says for itself what it does under hooks
		}
		seen++
		expect, runs := want[res.ID]
		if !runs {
			expect, runs = hooksRun[res.ID]
		}
		switch {
		case runs && res.Verdict != expect:
			t.Errorf("%s: %s, want %s: %s\nobservations: %v", res.ID, res.Verdict, expect, res.Reason, res.Observations)
		case runs && res.Verdict == reports.Fail && !strings.Contains(r.stdout, res.ID):
			t.Errorf("%s failed but the run's output does not name it", res.ID)
		case runs:
		case res.Verdict != reports.CouldNotRun:
			t.Errorf("%s: %s under the hooks driver, want could-not-run: %s", res.ID, res.Verdict, res.Reason)
		case !strings.Contains(res.Reason, `driver "hooks"`) || !strings.Contains(res.Reason, "embedded"):
			t.Errorf("%s: the reason names neither the hooks driver nor the one that would run it: %s", res.ID, res.Reason)
		}
	}
	if seen != len(rollout18) {
		t.Errorf("%d results of ROLL-001…008, want %d", seen, len(rollout18))
	}
}

// rollout18 are the rollout specs this file proves under the hooks driver.
var rollout18 = map[string]bool{"ROLL-001": true, "ROLL-002": true, "ROLL-003": true, "ROLL-004": true,
	"ROLL-005": true, "ROLL-006": true, "ROLL-007": true, "ROLL-008": true}

// The clean reference agent behind a --target, changed only by the hooks:
// ROLL-001 and ROLL-002 run and pass, ROLL-008 runs and is could-not-run
// for the part it cannot see, the rest are could-not-run naming what hooks
// cannot give. The hooks got the point, spec, generation, task ids and the
// instance the agent named, and the run's report and hooks.log show what
// they did.
func TestHooksDriverRunsTheRolloutSpecsItCan(t *testing.T) {
	t.Parallel()
	s := startStaging(t, "")
	r := s.runHooks(t, "21")
	checkHooksVerdicts(t, r, nil)
	if r.exit != 0 {
		t.Errorf("exit %d, want 0\n%s", r.exit, r.stdout)
	}
	if _, problems, err := reports.VerifyFile(filepath.Join(r.out, "report.json")); err != nil || len(problems) > 0 {
		t.Errorf("the hooks run's report does not verify: %v %v", err, problems)
	}
	byID := map[string]reports.Result{}
	for _, res := range r.report.Results {
		byID[res.ID] = res
	}
	if acc := byID["ROLL-001"].Observations["hook.rotate-card"]; !strings.Contains(acc, "exit status 0") || !strings.Contains(acc, "rotate-card done: staging-0 serves generation") {
		t.Errorf("ROLL-001's observation hook.rotate-card: %q", acc)
	}
	if res := byID["ROLL-008"]; !strings.Contains(res.Reason, "each instance") || !strings.Contains(res.Observations["time-to-consistency"], "first saw a new version") {
		t.Errorf("ROLL-008: %s\nobservations: %v", res.Reason, res.Observations)
	}
	calls := s.hookCalls()
	points := map[string]map[string]string{}
	for i, c := range calls {
		points[c["A2A_CONFORM_SPEC"]] = c
		if c["A2A_CONFORM_TARGET"] != s.url() {
			t.Errorf("hook %d: A2A_CONFORM_TARGET %q, want %q", i, c["A2A_CONFORM_TARGET"], s.url())
		}
		if c["A2A_CONFORM_GENERATION"] != strconv.Itoa(i+2) {
			t.Errorf("hook %d (%s): A2A_CONFORM_GENERATION %q, want %d", i, c["A2A_CONFORM_POINT"], c["A2A_CONFORM_GENERATION"], i+2)
		}
	}
	if c := points["ROLL-001"]; c["A2A_CONFORM_POINT"] != "rotate-card" || c["A2A_CONFORM_TASK_IDS"] != "" {
		t.Errorf("ROLL-001's hook: %v", c)
	}
	if c := points["ROLL-008"]; c["A2A_CONFORM_POINT"] != "rollout-step" {
		t.Errorf("ROLL-008's hook: %v", c)
	}
	c := points["ROLL-002"]
	task := byID["ROLL-002"].Observations["rotation"]
	if c["A2A_CONFORM_POINT"] != "rollout-step" || c["A2A_CONFORM_INSTANCE"] != "staging-0" || c["A2A_CONFORM_TASK_IDS"] == "" || !strings.Contains(task, c["A2A_CONFORM_TASK_IDS"]) {
		t.Errorf("ROLL-002's hook: %v (its observation: %q)", c, task)
	}
	if len(calls) != 3 {
		t.Errorf("%d hooks ran, want 3 (ROLL-001, ROLL-002, ROLL-008)", len(calls))
	}
	log, err := os.ReadFile(filepath.Join(r.out, "hooks.log"))
	if err != nil {
		t.Fatal(err)
	}
	// The generation each hook got follows the order the specs ran in,
	// which the seed and the registry decide: only the hook's own line is
	// asked for.
	for _, want := range []string{"[hook rotate-card] hook rotate-card for ROLL-001: generation ", "[hook rollout-step] rollout-step done", "exit status 0"} {
		if !bytes.Contains(log, []byte(want)) {
			t.Errorf("hooks.log lacks %q:\n%s", want, log)
		}
	}
	if bytes.Contains(log, []byte("staging-token")) {
		t.Error("hooks.log holds the run's credential")
	}
}

// The same, with the reference agent made slow (every step a second) and
// driven by a prompt map: the hooks specs are fair to an agent whose tasks
// take seconds.
func TestHooksDriverIsFairToASlowAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the rollout suite against a slow agent")
	}
	t.Parallel()
	s := startStaging(t, "", "--delay", "1s", "--prompt-map", "--no-directive")
	r := s.runHooks(t, "24", "--config", promptMapConfig(t))
	checkHooksVerdicts(t, r, nil)
	if r.exit != 0 {
		t.Errorf("exit %d, want 0\n%s", r.exit, r.stdout)
	}
	for _, res := range r.report.Results {
		if res.ID == "ROLL-002" && res.Observations["behaviour"] != "prompt-map" {
			t.Errorf("ROLL-002 was not driven by the prompt map: %v", res.Observations)
		}
	}
}

// The same specs fail, under their own IDs, against the faults that break
// what they check, when only a hook changes the deployment: a card whose
// ETag never changes (ROLL-001, ROLL-008), one that revalidates any ETag
// (ROLL-001's conditional GET through the target, ROLL-008), an agent that
// loses its tasks when it restarts (ROLL-002).
func TestHooksDriverCatchesTheRotationFaults(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fault string
		want  map[string]reports.Verdict
	}{
		{"etag-never-changes", map[string]reports.Verdict{"ROLL-001": reports.Fail, "ROLL-008": reports.Fail}},
		{"any-etag-not-modified", map[string]reports.Verdict{"ROLL-001": reports.Fail, "ROLL-008": reports.Fail}},
		{"lose-tasks-on-restart", map[string]reports.Verdict{"ROLL-002": reports.Fail}},
	} {
		t.Run(c.fault, func(t *testing.T) {
			t.Parallel()
			f, err := fakes.LookupFault(c.fault)
			if err != nil {
				t.Fatal(err)
			}
			for id := range c.want {
				if !slices.Contains(f.Specs, id) {
					t.Fatalf("fault %s does not name %s in fakes/: the registry and this test disagree", c.fault, id)
				}
			}
			s := startStaging(t, c.fault)
			r := s.runHooks(t, "22")
			checkHooksVerdicts(t, r, c.want)
			if r.exit != 1 {
				t.Errorf("exit %d, want 1", r.exit)
			}
			if c.fault == "lose-tasks-on-restart" {
				checkHookStepBundle(t, r, "ROLL-002")
			} else {
				// The card's validators across the hook: a bundle each.
				checkHookStepBundle(t, r, "ROLL-001")
				checkHookStepBundle(t, r, "ROLL-008")
			}
		})
	}
}

// A hook that exits non-zero, or outlives --hook-timeout, makes its spec
// could-not-run with the exit status and the tail of its output: never a
// pass, never a fail of the agent. The hung one's process group is killed,
// so the run does not wait out the sleep.
func TestHooksThatFailOrHangAreCouldNotRun(t *testing.T) {
	t.Parallel()
	target := startVariant(t, fakes.Options{Name: "staging"})
	began := time.Now()
	canary := "canary-hook-7d41c2"
	r := runCLI(t, nil, "--target", target, "--focus", "ROLL-001,ROLL-002,ROLL-008", "--seed", "23",
		"--header", "Authorization: Bearer "+canary,
		"--hook-rotate-card", `echo "error: configmap agent-card not found (token `+canary+`)" >&2; exit 4`,
		"--hook-rollout-step", `echo "waiting for rollout to finish: 0 of 2 updated replicas are available..."; sleep 120`,
		"--hook-timeout", "1s")
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	if took := time.Since(began); took > 60*time.Second {
		t.Errorf("the run took %s: a hung hook was waited out", took)
	}
	if r.exit != 0 {
		t.Errorf("exit %d, want 0: a failed hook is not the agent's failure\n%s", r.exit, r.stdout)
	}
	want := map[string][]string{
		"ROLL-001": {"rotate-card hook did not complete", "exit status 4", "| error: configmap agent-card not found"},
		"ROLL-002": {"rollout-step hook did not complete", "timed out after 1s", "process group", "| waiting for rollout to finish"},
		"ROLL-008": {"rollout-step hook did not complete", "timed out after 1s", "| waiting for rollout to finish"},
	}
	for _, res := range r.report.Results {
		if res.Verdict != reports.CouldNotRun {
			t.Errorf("%s: %s, want could-not-run: %s", res.ID, res.Verdict, res.Reason)
		}
		for _, w := range want[res.ID] {
			if !strings.Contains(res.Reason, w) {
				t.Errorf("%s: the reason lacks %q: %s", res.ID, w, res.Reason)
			}
		}
		delete(want, res.ID)
	}
	if len(want) > 0 {
		t.Errorf("no result for %v", want)
	}
	// A credential a hook prints, or its command line holds, is redacted
	// like any other: the reason quotes it as [REDACTED], and no file the
	// run wrote, nor its terminal output, holds it.
	if res := r.report.Results; len(res) > 0 && !strings.Contains(r.stdout+fmt.Sprint(res), "token [REDACTED]") {
		t.Errorf("the failing hook's output is not quoted redacted")
	}
	files, _ := filepath.Glob(filepath.Join(r.out, "*"))
	for _, f := range files {
		if b, _ := os.ReadFile(f); bytes.Contains(b, []byte(canary)) {
			t.Errorf("%s holds the credential", filepath.Base(f))
		}
	}
	if strings.Contains(r.stdout+r.stderr, canary) {
		t.Error("the terminal output holds the credential")
	}
}

// With only a restart-instance hook, ROLL-002 runs on it, while ROLL-001 and
// ROLL-008, which need the card to change, are could-not-run naming the
// hooks that would run them. Here the hook restarts nothing (it only
// echoes), and nothing seen through the target changed: ROLL-002 is
// could-not-run, naming what was missing, never a pass on the hook's exit
// status alone.
func TestHooksDriverWithOnlyARestartHook(t *testing.T) {
	t.Parallel()
	target := startVariant(t, fakes.Options{Name: "staging"})
	r := runCLI(t, nil, "--target", target, "--focus", "ROLL-001,ROLL-002,ROLL-008", "--seed", "25",
		"--hook-restart-instance", `echo "restarted $A2A_CONFORM_INSTANCE"`)
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	for _, res := range r.report.Results {
		t.Logf("%s %s: %s\n   observations: %v", res.ID, res.Verdict, res.Reason, res.Observations)
		switch res.ID {
		case "ROLL-002":
			if res.Verdict != reports.CouldNotRun || !strings.Contains(res.Observations["hook.restart-instance"], "restarted staging") ||
				!strings.Contains(res.Reason, "nothing seen through the target changed") || !strings.Contains(res.Reason, "A2A-Conform-Instance") {
				t.Errorf("ROLL-002: %s: %s\nobservations: %v", res.Verdict, res.Reason, res.Observations)
			}
		default:
			if res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, "it runs --hook-rotate-card or --hook-rollout-step") &&
				!strings.Contains(res.Reason, "it runs --hook-rollout-step or --hook-rotate-card") || !strings.Contains(res.Reason, "only --hook-restart-instance") {
				t.Errorf("%s: %s: %s", res.ID, res.Verdict, res.Reason)
			}
		}
	}
	if r.exit != 0 {
		t.Errorf("exit %d, want 0", r.exit)
	}
}

// A do-nothing hook (`true`) at restart-instance or rollout-step gives
// ROLL-002 nothing to cross: could-not-run, never a pass. A hook that really
// restarts the agent, which names each start anew (as pods are named),
// passes: the instance that answers after it is one never seen before.
func TestHooksDriverRestartNeedsEvidence(t *testing.T) {
	t.Parallel()
	for _, point := range []string{"restart-instance", "rollout-step"} {
		t.Run("true at "+point, func(t *testing.T) {
			t.Parallel()
			target := startVariant(t, fakes.Options{Name: "staging"})
			r := runCLI(t, nil, "--target", target, "--focus", "ROLL-002", "--seed", "27", "--hook-"+point, "true")
			res := result(t, r, "ROLL-002")
			if res.Verdict != reports.CouldNotRun || len(res.Unchecked) == 0 || !strings.Contains(res.Reason, "the task crosses a "+point) {
				t.Errorf("ROLL-002 with a do-nothing %s hook: %s: %s\nunchecked: %v", point, res.Verdict, res.Reason, res.Unchecked)
			}
			if len(res.Findings) > 0 {
				t.Errorf("findings without a lost task: %v", res.Findings)
			}
		})
	}
	t.Run("real restart", func(t *testing.T) {
		t.Parallel()
		s := startStaging(t, "")
		s.mu.Lock()
		s.podNames = true
		s.mu.Unlock()
		r := runCLI(t, nil, "--target", s.url(), "--focus", "ROLL-002", "--seed", "27", "--hook-restart-instance", s.script)
		res := result(t, r, "ROLL-002")
		if res.Verdict != reports.Pass || !strings.Contains(res.Observations["change-seen"], "instances not seen before it") {
			t.Errorf("ROLL-002 across a real restart: %s: %s\nobservations: %v", res.Verdict, res.Reason, res.Observations)
		}
		if r.exit != 0 {
			t.Errorf("exit %d", r.exit)
		}
	})
}

// A task lost across a restart is allowed by A2A, but it is scenario 1's
// orphan: the result lists it as a finding, the summary counts it, and the
// run's terminal summary prints it (lose-tasks-on-restart still fails
// ROLL-002 for the task it re-creates under the lost id).
func TestHooksDriverReportsALostTaskAsAFinding(t *testing.T) {
	t.Parallel()
	s := startStaging(t, "lose-tasks-on-restart")
	r := runCLI(t, nil, "--target", s.url(), "--focus", "ROLL-002", "--seed", "28", "--hook-restart-instance", s.script)
	res := result(t, r, "ROLL-002")
	if len(res.Findings) != 1 || !strings.Contains(res.Findings[0], "was lost across the restart-instance hook: every read") || !strings.Contains(res.Findings[0], "scenario 1") {
		t.Fatalf("ROLL-002 findings: %v (%s: %s)", res.Findings, res.Verdict, res.Reason)
	}
	if r.report.Summary.Findings != 1 {
		t.Errorf("summary.findings %d, want 1", r.report.Summary.Findings)
	}
	if !strings.Contains(r.stdout, "finding ROLL-002: task ") {
		t.Errorf("the terminal summary does not print the finding:\n%s", r.stdout)
	}
	if _, problems, err := reports.VerifyFile(filepath.Join(r.out, "report.json")); err != nil || len(problems) > 0 {
		t.Errorf("the report with a finding does not verify: %v %v", err, problems)
	}
	html, _ := os.ReadFile(filepath.Join(r.out, "report.html"))
	if !bytes.Contains(html, []byte("with findings")) {
		t.Error("report.html's headline does not count the finding")
	}
}

// A rotate-card hook that exits 0 without changing the card gives ROLL-002
// no rotation to cross: it is could-not-run, saying so, never a pass.
func TestHooksDriverRotationThatChangesNothing(t *testing.T) {
	t.Parallel()
	target := startVariant(t, fakes.Options{Name: "staging"})
	r := runCLI(t, nil, "--target", target, "--focus", "ROLL-002", "--seed", "26", "--hook-rotate-card", "true")
	if r.report == nil || len(r.report.Results) != 1 {
		t.Fatalf("no report for ROLL-002 (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	res := r.report.Results[0]
	if res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, "no rotation was seen") {
		t.Errorf("ROLL-002: %s: %s\nobservations: %v", res.Verdict, res.Reason, res.Observations)
	}
}

// Hooks change a deployment the vendor runs: without --target they are a
// usage error, and so is a hook timeout without a hook.
func TestHookFlagsThatAreUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--hook-rotate-card", "true"}, "they need --target"},
		{[]string{"--agent-cmd", "x {port}", "--hook-rollout-step", "true"}, "they need --target"},
		{[]string{"--target", "http://127.0.0.1:1", "--hook-timeout", "1m"}, "--hook-timeout needs a hook command"},
		{[]string{"--target", "http://127.0.0.1:1", "--hook-restart-instance", "true", "--hook-timeout", "2h"}, "between 1s and 1h"},
	} {
		var so, se bytes.Buffer
		args := append([]string{"run", "--out", t.TempDir()}, c.args...)
		if code := cli.Main(args, &so, &se); code != 2 || !strings.Contains(se.String(), c.want) {
			t.Errorf("%v: exit %d, want 2 with %q\n%s", c.args, code, c.want, se.String())
		}
	}
}

// checkHookStepBundle checks that spec's failure under the hooks driver
// records the hook it ran as a step, and that its replay bundle carries it,
// at its offset, for a replay to perform with the same command.
func checkHookStepBundle(t *testing.T, r cliRun, spec string) {
	t.Helper()
	for _, res := range r.report.Results {
		if res.ID != spec {
			continue
		}
		if len(res.Steps) == 0 || res.Steps[0].Kind != "hook" || res.Steps[0].DurMs <= 0 {
			t.Errorf("%s: steps %+v, want the hook it ran", spec, res.Steps)
		}
	}
	b, err := replay.Read(filepath.Join(r.out, "replay", spec+".json"))
	if err != nil {
		t.Fatalf("%s: no replay bundle: %v", spec, err)
	}
	if len(b.Steps) == 0 || b.Steps[0].Kind != "hook" || !slices.Contains(b.Roles(), replay.RoleTarget) {
		t.Errorf("%s: bundle steps %+v, roles %v: want the hook, through the target", spec, b.Steps, b.Roles())
	}
}

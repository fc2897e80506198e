package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// The reference agent made slow: every step takes a second, and it is driven
// by the prompt map instead of the directive, as an LLM-backed agent would be.
// Verdicts tuned to the directive's 150 ms steps pass a broken agent here and
// fail a correct one (issue 8).

// slowAgent is the reference agent with steps of stepDelay, the directive
// extension withdrawn and the fixed prompt phrases understood.
func slowAgent(stepDelay time.Duration, faults ...string) fakes.Options {
	return fakes.Options{StepDelay: stepDelay, PromptMap: true, DisableDirective: true, Faults: faults}
}

// promptMapConfig writes a config holding the reference agent's prompt map,
// limited to keys when any are given.
func promptMapConfig(t *testing.T, keys ...string) string {
	t.Helper()
	all := map[string]string{
		"complete": "say hello", "slow": "work slowly then complete", "input-required": "ask me for input",
		"fail": "fail this task", "reject": "reject this task", "message": "reply with a message",
		"artifacts": "stream three chunks", "auth-required": "require authorization",
	}
	if len(keys) == 0 {
		for k := range all {
			keys = append(keys, k)
		}
	}
	body := "prompt-map:\n"
	for _, k := range keys {
		body += "  " + k + ": \"" + all[k] + "\"\n"
	}
	p := filepath.Join(t.TempDir(), "prompt-map.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The headline bug on a slow agent: the cancel is acknowledged, then the task
// goes on and completes a few seconds later. LIFE-011 and LIFE-012 watched for
// 750 ms and passed it; they must watch until the task would have completed.
func TestSlowAgentCancelThenCompleteIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a slow agent for about a minute")
	}
	t.Parallel()
	cfg := promptMapConfig(t)
	r := runVariant(t, slowAgent(time.Second, "cancel-then-complete"), "--config", cfg, "--focus", "LIFE-011,LIFE-012", "--seed", "21")
	for _, id := range []string{"LIFE-011", "LIFE-012"} {
		res := result(t, r, id)
		if res.Verdict != reports.Fail {
			t.Errorf("%s on a slow agent with cancel-then-complete: %s (%s), want fail\nobservations: %v", id, res.Verdict, res.Reason, res.Observations)
		}
	}
	if r.exit != 1 {
		t.Errorf("exit %d, want 1", r.exit)
	}
}

// The same specs pass the same slow agent without the fault, and say how long
// they watched.
func TestSlowAgentCleanCancelPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a slow agent for about a minute")
	}
	t.Parallel()
	cfg := promptMapConfig(t)
	r := runVariant(t, slowAgent(time.Second), "--config", cfg, "--focus", "LIFE-011,LIFE-012,LIFE-013", "--seed", "21")
	for _, id := range []string{"LIFE-011", "LIFE-012", "LIFE-013"} {
		res := result(t, r, id)
		if res.Verdict != reports.Pass {
			t.Errorf("%s on a clean slow agent: %s: %s\nobservations: %v", id, res.Verdict, res.Reason, res.Observations)
		}
	}
	if w := result(t, r, "LIFE-012").Observations["watched-JSONRPC"]; w == "" {
		t.Errorf("LIFE-012 does not report the span it watched")
	}
}

// An agent whose "slow" task ends at once (it streams its chunks together):
// every cancel loses the race, which the spec allows (A2A v1.0 §3.1.5). LIFE-012
// failed it; it is indeterminate, saying the task ended first.
func TestCancelThatLosesTheRaceIsNotAFail(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "fast.yaml")
	// Every behaviour the cancel specs may ask for completes at once.
	body := "prompt-map:\n  complete: \"say hello\"\n  slow: \"say hello\"\n  artifacts: \"say hello\"\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runVariant(t, fakes.Options{PromptMap: true, DisableDirective: true}, "--config", p, "--focus", "LIFE-012", "--seed", "3")
	res := result(t, r, "LIFE-012")
	if res.Verdict != reports.Indeterminate {
		t.Fatalf("LIFE-012 against an agent that completes before any cancel: %s (%s), want indeterminate", res.Verdict, res.Reason)
	}
	t.Logf("LIFE-012: %s", res.Reason)
}

// A race in which every trial went one way proves nothing: against an agent
// whose tasks end before any cancel can land, LIFE-014 is indeterminate and
// names the side that never happened, after looking for it.
func TestRaceWithOneSideMissingIsIndeterminate(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "fast.yaml")
	if err := os.WriteFile(p, []byte("prompt-map:\n  slow: \"say hello\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// return-immediately-ignored: every send returns the finished task, so
	// every cancel comes after the end, deterministically.
	r := runVariant(t, fakes.Options{PromptMap: true, DisableDirective: true, Faults: []string{"return-immediately-ignored"}},
		"--config", p, "--focus", "LIFE-014", "--race-trials", "20", "--seed", "3")
	res := result(t, r, "LIFE-014")
	if res.Verdict != reports.Indeterminate || !strings.Contains(res.Reason, "rarely went the cancel's way") {
		t.Fatalf("LIFE-014 against an agent that always completes first: %s (%s), want indeterminate naming the missing side\n%v", res.Verdict, res.Reason, res.Observations)
	}
	if res.Observations["race.bound.canceled"] == "" || res.Observations["race.bound.completed-first"] == "" {
		t.Errorf("the bound is not stated per side: %v", res.Observations)
	}
	if n, _ := strconv.Atoi(res.Observations["race.trials"]); n <= 20 {
		t.Errorf("%d trials: the spec did not look for the missing side", n)
	}
}

// An agent that takes 150 ms to act on a cancel (a queue in front of its
// cancels) is correct, but against the directive's 75 ms race task even a
// cancel sent at once loses: LIFE-014 scripts longer tasks until the cancel
// side is decided too, and passes; with cancel-then-complete it still
// fails. (A loaded CI machine slows the cancel path just so: the JS SDK
// interop run once ended indeterminate this way.)
func TestRaceLengthensTasksWhenCancelsCannotLand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		faults []string
		want   reports.Verdict
	}{{nil, reports.Pass}, {[]string{"cancel-then-complete"}, reports.Fail}} {
		r := runVariant(t, fakes.Options{CancelLatency: 150 * time.Millisecond, Faults: c.faults},
			"--focus", "LIFE-014", "--race-trials", "40", "--seed", "5")
		res := result(t, r, "LIFE-014")
		if res.Verdict != c.want {
			t.Fatalf("LIFE-014, cancels acted on after 150 ms, faults %v: %s (%s), want %s\n%v", c.faults, res.Verdict, res.Reason, c.want, res.Observations)
		}
		// A loaded machine slows the tasks past the cancel's 150 ms, and
		// the first window then decides both sides: nothing to lengthen.
		// Under the fault the cancels that landed there are the violation,
		// already found (the verdict above).
		w := res.Observations["race.window"]
		if !strings.Contains(w, "trials of 300ms tasks") {
			if c.faults == nil && res.Observations["race.bound.canceled"] != "" {
				t.Logf("the first window decided both sides (a loaded machine): %s", w)
				continue
			}
			if c.faults != nil && strings.Contains(w, "trials of 75ms tasks") {
				t.Logf("the first window already caught the fault (a loaded machine): %s", w)
				continue
			}
			t.Errorf("faults %v: the race did not lengthen its tasks: %s", c.faults, w)
		}
	}
}

// Every spec asks for the least behaviour that serves it: against the slow
// reference agent and a prompt map holding only "slow" and "complete", no
// spec fails or is indeterminate; each one those keys cannot serve is
// could-not-run and names the key that would (issue 8, section 3).
func TestEverySpecWithOnlySlowAndComplete(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every spec against a slow agent")
	}
	t.Parallel()
	cfg := promptMapConfig(t, "slow", "complete")
	r := runVariant(t, slowAgent(time.Second), "--config", cfg, "--race-trials", "20", "--seed", "8",
		"--header", "Authorization: Bearer slow-agent-token")
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	keys := regexp.MustCompile(`"(input-required|fail|reject|message|artifacts|auth-required)"`)
	for _, res := range r.report.Results {
		switch {
		case res.Verdict == reports.Pass, res.Verdict == reports.NotApplicable, restartUnavailable(res), needsDriver(res):
		case res.Verdict == reports.CouldNotRun:
			if !keys.MatchString(res.Reason) && len(res.Unchecked) == 0 {
				t.Errorf("%s could-not-run without naming the prompt key that would serve it: %s", res.ID, res.Reason)
			}
		default:
			t.Errorf("%s: %s: %s\nobservations: %v", res.ID, res.Verdict, res.Reason, res.Observations)
		}
	}
	t.Logf("verdicts: %s", summaryLine(r.report))
}

// The reference agent with one-second steps, driven by the full prompt map:
// a correct agent, so no spec may fail it or leave it indeterminate.
func TestEverySpecPassesTheSlowAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every spec against a slow agent")
	}
	t.Parallel()
	cfg := promptMapConfig(t)
	r := runVariant(t, slowAgent(time.Second), "--config", cfg, "--race-trials", "20", "--seed", "8",
		"--header", "Authorization: Bearer slow-agent-token")
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	for _, res := range r.report.Results {
		// A --target run cannot restart or roll the agent; PUSH-009 and the
		// ROLL specs say so.
		if res.Verdict != reports.Pass && res.Verdict != reports.NotApplicable && !restartUnavailable(res) && !needsDriver(res) {
			t.Errorf("%s: %s: %s\nobservations: %v", res.ID, res.Verdict, res.Reason, res.Observations)
		}
	}
	t.Logf("verdicts: %s", summaryLine(r.report))
}

// needsDriver reports a spec that needs the harness to control the
// deployment, could-not-run against a --target (driver none) as it must be.
func needsDriver(res reports.Result) bool {
	info, ok := suites.Lookup(res.ID)
	return ok && info.NeedsAny(suites.NeedTopology) && res.Verdict == reports.CouldNotRun && strings.Contains(res.Reason, `driver "none"`)
}

func summaryLine(r *reports.Report) string {
	var parts []string
	for _, v := range reports.Verdicts {
		if n := r.Summary.ByVerdict[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	return strings.Join(parts, ", ")
}

// Specs run concurrently by default; a run with --parallel 1 must give the
// same verdicts, on the clean agent and under faults, and each spec's
// transcript holds only its own exchanges.
func TestParallelRunGivesTheSerialVerdicts(t *testing.T) {
	t.Parallel()
	// The two faults bend different specs (a cancel, a list's order), so
	// one run under both proves both.
	for _, fault := range []string{"", "cancel-then-complete,list-oldest-first"} {
		t.Run("fault="+fault, func(t *testing.T) {
			t.Parallel()
			serialAndParallelAgree(t, fault)
		})
	}
}

// raceLoaded says whether spec id's result is a timed race left
// indeterminate because one side came up short.
func raceLoaded(r *reports.Report, id string) bool {
	for _, res := range r.Results {
		if res.ID == id {
			return res.Verdict == reports.Indeterminate && strings.Contains(res.Reason, "the race rarely went")
		}
	}
	return false
}

func serialAndParallelAgree(t *testing.T, fault string) {
	// The clean run takes every suite, so that the other specs run
	// concurrently through the balancer and CDN the rollout suite puts
	// in front of the agent. Under a fault the rollout suite is left
	// out: its specs are exclusive and run alone, last, in both modes,
	// and it would only lengthen the test.
	args := []string{"--seed", "17", "--race-trials", "40"}
	if fault != "" {
		args = append(args, "--fault", fault, "--suite", "discovery,lifecycle,webhook")
	}
	serial := runCLI(t, nil, append(args, "--parallel", "1")...)
	parallel := runCLI(t, nil, append(args, "--parallel", "8")...)
	if serial.report == nil || parallel.report == nil {
		t.Fatalf("fault %q: no report\n%s\n%s", fault, serial.stdout, parallel.stdout)
	}
	vs, vp := verdicts(serial.report), verdicts(parallel.report)
	reason := func(r *reports.Report, id string) string {
		for _, res := range r.Results {
			if res.ID == id {
				return res.Reason
			}
		}
		return ""
	}
	for id, v := range vs {
		// A timed race that one run found one-sided on a loaded machine is
		// the load's answer, not the scheduler's (the spec says which).
		if vp[id] != v && (raceLoaded(serial.report, id) || raceLoaded(parallel.report, id)) {
			t.Logf("fault %q: %s is %s with --parallel 1 and %s with --parallel 8, one race one-sided under load", fault, id, v, vp[id])
			continue
		}
		if vp[id] != v {
			t.Errorf("fault %q: %s is %s with --parallel 1 but %s with --parallel 8\nserial: %s\nparallel: %s",
				fault, id, v, vp[id], reason(serial.report, id), reason(parallel.report, id))
		}
	}
	seen := map[int]string{}
	for _, res := range parallel.report.Results {
		for _, ex := range res.Transcript {
			if other, dup := seen[ex.Seq]; dup {
				t.Errorf("exchange %d is in the transcripts of both %s and %s", ex.Seq, other, res.ID)
			}
			seen[ex.Seq] = res.ID
		}
		if strings.HasPrefix(res.ID, "DISC-00") && res.ID <= "DISC-007" {
			for _, ex := range res.Transcript {
				if !strings.Contains(ex.URL, "agent-card.json") {
					t.Errorf("%s's transcript holds another spec's exchange: %s %s", res.ID, ex.Method, ex.URL)
				}
			}
		}
	}
}

// Against an agent whose tasks take seconds, LIFE-014 stops racing once each
// side has the trials its bound needs (after its budget) instead of running
// all 200: it took 37 s of a 41 s run before (issue 17, section 5). It still
// passes the clean agent and catches the fault, and states how many trials
// it ran. Against the fast reference agent every trial runs.
func TestProofRaceStopsOnceBothSidesHaveTheirTrials(t *testing.T) {
	testkit.WholeProof(t)
	if testing.Short() {
		t.Skip("races a slow agent")
	}
	t.Parallel()
	cfg := promptMapConfig(t, "slow", "complete")
	for _, c := range []struct {
		fault string
		want  reports.Verdict
	}{{"", reports.Pass}, {"cancel-then-complete", reports.Fail}} {
		t.Run("slow/fault="+c.fault, func(t *testing.T) {
			t.Parallel()
			var faults []string
			if c.fault != "" {
				faults = []string{c.fault}
			}
			r := runVariant(t, slowAgent(time.Second, faults...), "--config", cfg, "--focus", "LIFE-014", "--seed", "4")
			res := result(t, r, "LIFE-014")
			if res.Verdict != c.want {
				t.Fatalf("LIFE-014 on a slow agent, faults %v: %s (%s), want %s\n%v", faults, res.Verdict, res.Reason, c.want, res.Observations)
			}
			if c.fault != "" {
				return // a fail may end the race at any point
			}
			n, err := strconv.Atoi(res.Observations["race.trials"])
			if err != nil || n >= 200 || res.Observations["race.stopped"] == "" {
				t.Errorf("LIFE-014 on a slow agent ran %q trials, stopped: %q; want fewer than 200 and the reason it stopped", res.Observations["race.trials"], res.Observations["race.stopped"])
			}
		})
	}
	t.Run("fast", func(t *testing.T) {
		t.Parallel()
		r := runVariant(t, fakes.Options{}, "--focus", "LIFE-014", "--seed", "4")
		res := result(t, r, "LIFE-014")
		// Every trial of the budget runs: 200, or more when a loaded
		// machine left a side short after the first round and re-centred
		// rounds ran (300 at load 6 in a clean-clone .ci/run); such a later
		// round may stop once each side has its trials (373 in another),
		// but the budget is never cut short, as it is on a slow agent.
		// The verdict is a pass, unless a machine loaded past the race's
		// windows left one side short even then: that indeterminate is the
		// honest answer to the load, not what this test is about.
		loaded := res.Verdict == reports.Indeterminate && strings.Contains(res.Reason, "the race rarely went")
		if loaded {
			t.Logf("LIFE-014 indeterminate on a loaded machine: %s", res.Reason)
		}
		if stopped := res.Observations["race.stopped"]; stopped != "" {
			t.Logf("LIFE-014 on a loaded machine stopped after its budget: %s", stopped)
		}
		if n, err := strconv.Atoi(res.Observations["race.trials"]); (res.Verdict != reports.Pass && !loaded) || err != nil || n < 200 {
			t.Errorf("LIFE-014 on the fast reference agent: %s, %s trials, stopped %q; want pass with all 200 or more", res.Verdict, res.Observations["race.trials"], res.Observations["race.stopped"])
		}
	})
}

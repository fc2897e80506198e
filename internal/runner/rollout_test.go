package runner_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Under driver none (a --target run) the harness controls no instance: every
// rollout spec is could-not-run, naming the drivers that would run it, and
// none passes.
func TestRolloutSpecsNeedADriver(t *testing.T) {
	t.Parallel()
	target := startVariant(t, fakes.Options{Name: "target"})
	r := runCLI(t, nil, "--target", target, "--suite", "rollout", "--seed", "2")
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	n := 0
	for _, res := range r.report.Results {
		if res.Suite != suites.Rollout {
			continue
		}
		n++
		if res.Verdict != reports.CouldNotRun {
			t.Errorf("%s: %s under driver none, want could-not-run: %s", res.ID, res.Verdict, res.Reason)
		}
		if !strings.Contains(res.Reason, `driver "none"`) || !strings.Contains(res.Reason, "embedded") {
			t.Errorf("%s: the reason does not name the driver it ran under and the one that would enable it: %s", res.ID, res.Reason)
		}
	}
	if want := len(suites.InSuites(suites.Rollout)); n != want {
		t.Fatalf("%d rollout results, want %d", n, want)
	}
}

// staleClaimsRun runs ROLL-007 alone on the embedded topology, with the
// faults given, and returns its result.
func staleClaimsRun(t *testing.T, env []string, faults []string, extra ...string) reports.Result {
	t.Helper()
	args := append([]string{"--focus", "ROLL-007", "--seed", "3"}, extra...)
	if len(faults) > 0 {
		args = append(args, "--fault", strings.Join(faults, ","))
	}
	r := runCLI(t, env, args...)
	return result(t, r, "ROLL-007")
}

// checkStaleClaimsPass: ROLL-007 passed having acted on every kind of stale
// claim (none left unchecked), and says which answer each got.
func checkStaleClaimsPass(t *testing.T, res reports.Result) {
	t.Helper()
	want := map[string]string{
		"claims.interface.1": "refused: HTTP 404",
		"claims.extension.1": "served without it",
		"previous-build":     "generation 2",
		"race":               "16 trials",
	}
	// A loaded machine that leaves the overlap's first race round one-sided
	// gets a second round from the spec itself (seededRace), so the clean
	// agent passes here with no allowance for the load.
	if res.Verdict != reports.Pass {
		t.Fatalf("ROLL-007 on the clean agent: %s: %s\nobservations: %v", res.Verdict, res.Reason, res.Observations)
	}
	for key, want := range want {
		if !strings.Contains(res.Observations[key], want) {
			t.Errorf("observation %s = %q, want it to say %q", key, res.Observations[key], want)
		}
	}
}

// The stale card's interface and extension claims, on the clean embedded
// agent: the dropped interface is refused (404), the dropped extension
// ignored, and ROLL-007 passes. Under each stale-claim fault it fails with
// its own ID, the reason naming the claim that was mishandled, except the
// false extension echo, which breaks only a SHOULD and so warns.
func TestStaleCDNClaims(t *testing.T) {
	t.Parallel()
	t.Run("clean", func(t *testing.T) {
		t.Parallel()
		checkStaleClaimsPass(t, staleClaimsRun(t, nil, nil))
	})
	for fault, want := range map[string][]string{
		"dropped-interface-served-as-jsonrpc": {"stale-interface-refused", "/a2a/rest-previous", "a JSON-RPC envelope with a task inside"},
		"dropped-extension-accepted":          {"stale-extension-refused", fakes.PreviousBuildExtension, "A2A-Extensions header names it"},
		"dropped-push-config-accepted":        {"stale-card-claim-refused", "CreateTaskPushNotificationConfig"},
	} {
		t.Run(fault, func(t *testing.T) {
			t.Parallel()
			res := staleClaimsRun(t, nil, []string{fault})
			f, _ := fakes.LookupFault(fault)
			if want := map[bool]reports.Verdict{false: reports.Fail, true: reports.Warn}[f.Soft]; res.Verdict != want {
				t.Fatalf("ROLL-007 with %s: %s, want %s: %s", fault, res.Verdict, want, res.Reason)
			}
			for _, w := range want {
				if !strings.Contains(res.Reason, w) {
					t.Errorf("ROLL-007 with %s: the reason does not say %q:\n%s", fault, w, res.Reason)
				}
			}
		})
	}
}

// The same on the embedded agent made slow (one-second steps) and driven by
// the prompt map, as an LLM-backed agent would be: the clean agent passes,
// and the two stale-claim faults together fail it, each seen.
func TestProofStaleCDNClaimsOnASlowAgent(t *testing.T) {
	testkit.WholeProof(t)
	if testing.Short() {
		t.Skip("runs ROLL-007 against a slow agent twice")
	}
	t.Parallel()
	cfg := writeConfig(t, "no-directive: true\nprompt-map:\n  slow: \"work slowly then complete\"\n  complete: \"say hello\"\n")
	env := []string{stepDelayEnv + "=1s"}
	t.Run("clean", func(t *testing.T) {
		t.Parallel()
		res := staleClaimsRun(t, env, nil, "--config", cfg)
		checkStaleClaimsPass(t, res)
		if res.Observations["behaviour"] != "prompt-map" {
			t.Errorf("behaviour %q: the slow run was not driven by the prompt map", res.Observations["behaviour"])
		}
		t.Logf("race: %s; claims: %s | %s", res.Observations["race"], res.Observations["claims.interface.1"], res.Observations["claims.extension.1"])
	})
	t.Run("faults", func(t *testing.T) {
		t.Parallel()
		res := staleClaimsRun(t, env, []string{"dropped-interface-served-as-jsonrpc", "dropped-extension-accepted"}, "--config", cfg)
		if res.Verdict != reports.Fail {
			t.Fatalf("ROLL-007 on a slow agent with both stale-claim faults: %s, want fail: %s", res.Verdict, res.Reason)
		}
		if !strings.Contains(res.Reason, "stale-interface-refused") {
			t.Errorf("the reason does not name stale-interface-refused:\n%s", res.Reason)
		}
		// The extension's false echo only warns, and a fail's reason lists
		// the MUST violations; the observation says what was seen.
		if obs := res.Observations["claims.extension.1"]; !strings.Contains(obs, "served, claiming it activated") {
			t.Errorf("observation claims.extension.1 = %q, want the false activation seen", obs)
		}
	})
}

// ROLL-009 on the embedded driver (3 instances): every phase registered
// and was accepted, the one through the draining instance included (the
// driver holds the old instance's drain open while the spec acts), and
// every config got its terminal state. The fault matrix test proves the
// other way (push-config-lost-on-drain).
func TestMidRolloutRegistrationReachesTheDrainingInstance(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--focus", "ROLL-009", "--seed", "9")
	res := result(t, r, "ROLL-009")
	if res.Verdict != reports.Pass {
		t.Fatalf("ROLL-009 on the clean embedded agent: %s: %s\n%v", res.Verdict, res.Reason, res.Observations)
	}
	for _, want := range []string{"old-before-drain: 3 registered, 3 accepted", "old-draining: 3 registered, 3 accepted", "new-while-old-drains: 3 registered, 3 accepted"} {
		if !strings.Contains(res.Observations["phases"], want) {
			t.Errorf("phases %q lacks %q", res.Observations["phases"], want)
		}
	}
	if !strings.Contains(res.Observations["counts"], "9 judged: 9 got their task's terminal state, 0 lost") {
		t.Errorf("counts: %s", res.Observations["counts"])
	}
}

// ROLL-009 under the process driver, where the old instance is a process
// told to stop with SIGTERM. A fake that drains for a second after the
// signal (--drain-grace, as a pod's termination grace period) accepts the
// registration made on its own URL while it drains: a clean one delivers
// to it and passes; with push-config-lost-on-drain the config dies with the
// process and ROLL-009 fails, on every seed. (Without a drain window the
// old process may be gone before the draining-phase registration, which is
// then never accepted and proves nothing either way.)
func TestProofMidRolloutRegistrationUnderTheProcessDriver(t *testing.T) {
	testkit.WholeProof(t)
	if testing.Short() {
		t.Skip("rolls the agent's processes four times")
	}
	t.Parallel()
	for _, c := range []struct {
		name, agent string
		seed        string
		want        reports.Verdict
	}{
		{"clean", "", "1", reports.Pass},
		{"push-config-lost-on-drain/seed-1", " --fault push-config-lost-on-drain", "1", reports.Fail},
		{"push-config-lost-on-drain/seed-2", " --fault push-config-lost-on-drain", "2", reports.Fail},
		{"push-config-lost-on-drain/seed-3", " --fault push-config-lost-on-drain", "3", reports.Fail},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, res := rollProcesses(t, " --drain-grace 1s"+c.agent, 2, c.seed)
			if res.Verdict != c.want {
				t.Fatalf("ROLL-009 (%s) under the process driver: %s: %s, want %s\n%v", c.name, res.Verdict, res.Reason, c.want, res.Observations)
			}
			if !strings.Contains(res.Observations["phases"], "old-draining: 2 registered, 2 accepted") {
				t.Errorf("phases %q: want both registrations on the draining process accepted", res.Observations["phases"])
			}
		})
	}
}

// rollProcesses runs ROLL-009 alone with the reference agent as n processes
// started with the given fake flags, rolled by the process driver.
func rollProcesses(t *testing.T, agentFlags string, n int, seed string, more ...string) (cliRun, reports.Result) {
	t.Helper()
	args := append([]string{"--agent-cmd", referenceAgentCmd(agentFlags), "--instances", strconv.Itoa(n),
		"--focus", "ROLL-009", "--seed", seed, "--header", "Authorization: Bearer x"}, more...)
	r := runCLI(t, nil, args...)
	return r, result(t, r, "ROLL-009")
}

// ROLL-009 against the reference agent made slow (1 s steps, driven by the
// prompt map, no directive) as separate processes rolled by the process
// driver, each draining for a second after SIGTERM: a correct agent, so it
// passes, with the registrations on the draining processes accepted.
func TestSlowAgentMidRolloutRegistrationPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("rolls a slow agent's processes")
	}
	t.Parallel()
	cfg := promptMapConfig(t)
	r, res := rollProcesses(t, " --delay 1s --prompt-map --no-directive --drain-grace 1s", 3, "4", "--config", cfg)
	if res.Verdict != reports.Pass {
		log, _ := os.ReadFile(filepath.Join(r.out, "agent.log"))
		t.Fatalf("ROLL-009 on the slow process agent: %s: %s\n%v\nagent.log (tail):\n%s", res.Verdict, res.Reason, res.Observations, tail(string(log), 3000))
	}
	if res.Observations["behaviour"] != "prompt-map" || res.Observations["prompt-keys"] != "slow" {
		t.Errorf("not driven by the prompt map's slow key: %v", res.Observations)
	}
	if !strings.Contains(res.Observations["phases"], "old-draining: 3 registered, 3 accepted") {
		t.Errorf("phases %q: want every registration on a draining process (1 s drain) accepted", res.Observations["phases"])
	}
	t.Logf("phases: %s; counts: %s", res.Observations["phases"], res.Observations["counts"])
}

// A correct agent that refuses registrations it cannot confirm yet (503
// with Retry-After, scenario 2's advice) is retried, not failed: each
// instance refuses its first one, so the registration through the old
// instance before its drain and the one through the new instance are each
// refused once and accepted on a retry, and every accepted config is
// delivered. The old processes drain for a second after SIGTERM
// (--drain-grace), so the registrations on their own URLs are answered too.
func TestMidRolloutRefusedRegistrationIsRetriedNotFailed(t *testing.T) {
	t.Parallel()
	_, res := rollProcesses(t, " --refuse-push-configs 1 --drain-grace 1s", 2, "6")
	if res.Verdict != reports.Pass {
		t.Fatalf("ROLL-009 against an agent that refuses honestly: %s: %s\n%v", res.Verdict, res.Reason, res.Observations)
	}
	// Which registrations meet an instance's first (refused) call depends
	// on how the phases fall on the instances; that some were retried and
	// none stayed refused does not.
	phases := res.Observations["phases"]
	retried := regexp.MustCompile(`\((\d+) after a refusal\)`).FindAllStringSubmatch(phases, -1)
	n := 0
	for _, m := range retried {
		k, _ := strconv.Atoi(m[1])
		n += k
	}
	if n == 0 || strings.Contains(phases, "registered, 0 accepted") || !strings.Contains(phases, "old-draining: 2 registered, 2 accepted") ||
		!strings.Contains(phases, "new-while-old-drains: 2 registered, 2 accepted") {
		t.Errorf("phases %q: want registrations accepted after a refusal, every one accepted in the end", phases)
	}
}

//go:build unix

package runner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Scenario 3 for vendors: ROLL-007 under the process driver, the harness's
// CDN in front of the vendor's instances, the old build --agent-cmd and the
// new build --agent-cmd-next. Here both are the reference agent as separate
// `fake` processes sharing one SQLite file: the old build is the previous
// build (--previous-build: an HTTP+JSON interface and a required extension
// of its own), the new one drops those and streaming and push
// (--no-streaming --no-push), and the faults are given to the new build's
// command alone.

// oldBuild and newBuild are the fake flags of the two builds.
const (
	oldBuild = " --generation {generation} --previous-build"
	newBuild = " --generation {generation} --no-streaming --no-push"
)

// staleCDNProcesses runs ROLL-007 alone with n reference-agent processes,
// rolled from a build started with oldFlags to one started with newFlags
// ("" gives no --agent-cmd-next), and returns the run and its result.
func staleCDNProcesses(t *testing.T, oldFlags, newFlags string, n string, more ...string) (cliRun, reports.Result) {
	t.Helper()
	args := []string{"--agent-cmd", referenceAgentCmd(oldFlags), "--instances", n,
		"--focus", "ROLL-007", "--seed", "3", "--header", "Authorization: Bearer x"}
	if newFlags != "" {
		args = append(args, "--agent-cmd-next", referenceAgentCmd(newFlags))
	}
	r := runCLI(t, nil, append(args, more...)...)
	return r, result(t, r, "ROLL-007")
}

// agentLog is the run's agent.log.
func agentLog(t *testing.T, r cliRun) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.out, "agent.log"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkRolledBack: after ROLL-007 the instances run the old build again, a
// generation on (the run's own build, for the specs after it).
func checkRolledBack(t *testing.T, r cliRun, res reports.Result, gen string) {
	t.Helper()
	log := agentLog(t, r)
	for _, want := range []string{"rolling back to the first build (--agent-cmd)", "generation " + gen + " started: "} {
		if !strings.Contains(log, want) {
			t.Errorf("agent.log lacks %q:\n%s", want, tail(log, 3000))
		}
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "generation "+gen+" started: ") && strings.Contains(line, "--no-push") {
			t.Errorf("the roll back started the new build: %s", line)
		}
	}
	if !strings.Contains(res.Observations["restore"], "generation "+gen+", the run's own build again") {
		t.Errorf("observation restore = %q, want the roll back to generation %s", res.Observations["restore"], gen)
	}
}

// The clean pair of builds passes, having acted on every kind of stale
// claim, and the run's own build is rolled back afterwards. With each fault
// that ROLL-007 catches under the embedded driver, given to the new build's
// command, it fails (or, for the false extension echo, warns) under its own
// ID, naming the claim that was mishandled; the cancel-then-complete race
// during the overlap catches both shapes of the scenario's headline bug.
func TestStaleCDNUnderTheProcessDriver(t *testing.T) {
	t.Parallel()
	t.Run("clean", func(t *testing.T) {
		t.Parallel()
		r, res := staleCDNProcesses(t, oldBuild, newBuild, "2")
		if r.report.Run.Topology != "process" {
			t.Errorf("run.topology %q, want process", r.report.Run.Topology)
		}
		if res.Verdict != reports.Pass {
			t.Fatalf("ROLL-007 on a clean pair of builds: %s: %s\nobservations: %v\nagent.log (tail):\n%s", res.Verdict, res.Reason, res.Observations, tail(agentLog(t, r), 3000))
		}
		for key, want := range map[string]string{
			"previous-build":     "generation 1, the vendor's build (--agent-cmd), already running",
			"rollout":            "generation 2, the vendor's next build (--agent-cmd-next)",
			"claims.interface.1": "refused: HTTP 404",
			"claims.extension.1": "served without it",
			"race":               "16 trials",
			"cdn.window":         "30s",
		} {
			if !strings.Contains(res.Observations[key], want) {
				t.Errorf("observation %s = %q, want it to say %q", key, res.Observations[key], want)
			}
		}
		if want := "dropped from the held card: streaming and push notifications, 1 JSONRPC or HTTP+JSON interface, 1 extension"; !strings.Contains(res.Observations["rollout"], want) {
			t.Errorf("observation rollout = %q, want %q", res.Observations["rollout"], want)
		}
		checkRolledBack(t, r, res, "3")
	})
	for fault, want := range map[string][]string{
		"dropped-interface-served-as-jsonrpc": {"stale-interface-refused", fakes.PreviousBuildRESTPath, "a JSON-RPC envelope with a task inside"},
		"dropped-extension-accepted":          {"stale-extension-refused", fakes.PreviousBuildExtension, "A2A-Extensions header names it"},
		"dropped-push-config-accepted":        {"stale-card-claim-refused", "CreateTaskPushNotificationConfig"},
		"cancel-then-complete":                {"cancel-acknowledged-is-final"},
		"cancel-acked-not-propagated":         {"terminal-immutable"},
	} {
		t.Run(fault, func(t *testing.T) {
			t.Parallel()
			r, res := staleCDNProcesses(t, oldBuild, newBuild+" --fault "+fault, "2")
			f, _ := fakes.LookupFault(fault)
			if want := map[bool]reports.Verdict{false: reports.Fail, true: reports.Warn}[f.Soft]; res.Verdict != want {
				t.Fatalf("ROLL-007 with %s in the new build: %s, want %s: %s\nobservations: %v", fault, res.Verdict, want, res.Reason, res.Observations)
			}
			for _, w := range want {
				if !strings.Contains(res.Reason, w) {
					t.Errorf("ROLL-007 with %s in the new build: the reason does not say %q:\n%s", fault, w, res.Reason)
				}
			}
			checkRolledBack(t, r, res, "3")
		})
	}
}

// The same pair made slow (one-second steps) and driven by the prompt map,
// as an LLM-backed agent would be: the clean pair passes, and a new build
// with both stale-claim faults fails, each seen.
func TestProofStaleCDNUnderTheProcessDriverOnASlowAgent(t *testing.T) {
	testkit.WholeProof(t)
	if testing.Short() {
		t.Skip("runs ROLL-007 against slow agent processes twice")
	}
	t.Parallel()
	cfg := writeConfig(t, "no-directive: true\nprompt-map:\n  slow: \"work slowly then complete\"\n  complete: \"say hello\"\n")
	slow := " --delay 1s --prompt-map --no-directive"
	t.Run("clean", func(t *testing.T) {
		t.Parallel()
		r, res := staleCDNProcesses(t, oldBuild+slow, newBuild+slow, "3", "--config", cfg)
		if res.Verdict != reports.Pass {
			t.Fatalf("ROLL-007 on a slow clean pair of builds: %s: %s\nobservations: %v\nagent.log (tail):\n%s", res.Verdict, res.Reason, res.Observations, tail(agentLog(t, r), 3000))
		}
		if res.Observations["behaviour"] != "prompt-map" {
			t.Errorf("behaviour %q: the slow run was not driven by the prompt map", res.Observations["behaviour"])
		}
		t.Logf("race: %s; rollout: %s; restore: %s", res.Observations["race"], res.Observations["rollout"], res.Observations["restore"])
	})
	// Builds that answer SendMessage 1.5 s after creating the task have
	// ended every 450 ms race task before its cancel can come: the first
	// round of the overlap's race goes one way, and a second round of
	// longer tasks gives it both sides, so the spec is judged, not
	// could-not-run.
	t.Run("answers-late", func(t *testing.T) {
		t.Parallel()
		late := " --answer-latency 1500ms"
		r, res := staleCDNProcesses(t, oldBuild+late, newBuild+late, "2")
		if res.Verdict != reports.Pass {
			t.Fatalf("ROLL-007 on a clean pair of builds that answer late: %s: %s\nobservations: %v\nagent.log (tail):\n%s", res.Verdict, res.Reason, res.Observations, tail(agentLog(t, r), 3000))
		}
		if !strings.Contains(res.Observations["race"], "; then ") {
			t.Errorf("the race passed without a second round: %q", res.Observations["race"])
		}
		t.Logf("race: %s", res.Observations["race"])
	})
	t.Run("faults", func(t *testing.T) {
		t.Parallel()
		_, res := staleCDNProcesses(t, oldBuild+slow, newBuild+slow+" --fault dropped-interface-served-as-jsonrpc,dropped-extension-accepted", "3", "--config", cfg)
		if res.Verdict != reports.Fail {
			t.Fatalf("ROLL-007 on a slow pair with both stale-claim faults in the new build: %s, want fail: %s", res.Verdict, res.Reason)
		}
		if !strings.Contains(res.Reason, "stale-interface-refused") {
			t.Errorf("the reason does not name stale-interface-refused:\n%s", res.Reason)
		}
		if obs := res.Observations["claims.extension.1"]; !strings.Contains(obs, "served, claiming it activated") {
			t.Errorf("observation claims.extension.1 = %q, want the false activation seen", obs)
		}
	})
}

// A new build that drops only some kinds of claim: the kinds it drops are
// judged, the others are unchecked, never passed. Here the new build drops
// push alone: the push claim is refused as it should be, and the interface
// and extension claims (the old build has none of its own) are unchecked,
// so the spec is could-not-run, listing them.
func TestStaleCDNUnderTheProcessDriverChecksOnlyWhatWasDropped(t *testing.T) {
	t.Parallel()
	_, res := staleCDNProcesses(t, " --generation {generation}", " --generation {generation} --no-push", "2")
	if res.Verdict != reports.CouldNotRun {
		t.Fatalf("ROLL-007 with a new build that dropped only push: %s, want could-not-run: %s", res.Verdict, res.Reason)
	}
	if len(res.Unchecked) != 2 || !strings.Contains(strings.Join(res.Unchecked, "\n"), "interface claims") || !strings.Contains(strings.Join(res.Unchecked, "\n"), "extension claims") {
		t.Errorf("unchecked %q: want the interface and extension claims, and nothing else", res.Unchecked)
	}
	if !strings.Contains(res.Observations["rollout"], "dropped from the held card: push notifications") {
		t.Errorf("observation rollout = %q, want only push dropped", res.Observations["rollout"])
	}

	// The same new build with dropped-push-config-accepted fails: what was
	// checked is reported, whatever went unchecked.
	_, res = staleCDNProcesses(t, " --generation {generation}", " --generation {generation} --no-push --fault dropped-push-config-accepted", "2")
	if res.Verdict != reports.Fail || !strings.Contains(res.Reason, "stale-card-claim-refused") {
		t.Errorf("ROLL-007 with a new build that dropped push and accepts configs anyway: %s, want fail naming stale-card-claim-refused: %s", res.Verdict, res.Reason)
	}
}

// A new build that drops nothing the old build's card claims gives ROLL-007
// nothing to act on: could-not-run, telling the vendor what --agent-cmd-next
// must be, never pass. Without --agent-cmd-next nothing is rolled at all;
// with a next build that drops nothing, the run's own build is rolled back.
func TestStaleCDNUnderTheProcessDriverNeedsANewBuildThatDropsSomething(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, next, reason string
		rolled             bool
	}{
		{"no --agent-cmd-next", "", "has no new build to roll to", false},
		{"a next build that drops nothing", " --generation {generation}", "dropped nothing the held card claims", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, res := staleCDNProcesses(t, "", c.next, "2")
			if res.Verdict != reports.CouldNotRun {
				t.Fatalf("ROLL-007: %s, want could-not-run: %s", res.Verdict, res.Reason)
			}
			for _, want := range []string{c.reason, "needs --agent-cmd-next to start a build whose card claims less than --agent-cmd's", "--focus ROLL-007"} {
				if !strings.Contains(res.Reason, want) {
					t.Errorf("the reason does not say %q: %s", want, res.Reason)
				}
			}
			// It does not tell an --agent-cmd user to give --agent-cmd
			// (the spec's Enable text): they did (issue 20).
			if strings.Contains(res.Reason, "To enable:") || strings.Contains(res.Reason, "--agent-cmd TEMPLATE") {
				t.Errorf("the reason repeats what the run already did: %s", res.Reason)
			}
			if got := strings.Contains(agentLog(t, r), "rolling 2 instance(s)"); got != c.rolled {
				t.Errorf("the instances were rolled: %v, want %v", got, c.rolled)
			}
			if c.rolled {
				checkRolledBack(t, r, res, "3")
			}
		})
	}
	// A roll before ROLL-007 (ROLL-001's, seed 3 runs it first) left the
	// instances on the next build, whose card ROLL-007 reads before rolling
	// back to the old build to hold its card. Both cards claim streaming
	// and push, which the next build's card alone cannot show it still
	// serves: ROLL-007 rolls to it and tries them (a next build is judged by
	// what it does), and finding nothing refused, says it dropped nothing.
	t.Run("a next build that drops nothing, already running", func(t *testing.T) {
		t.Parallel()
		r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(""), "--agent-cmd-next", referenceAgentCmd(" --generation {generation}"),
			"--instances", "2", "--focus", "ROLL-001,ROLL-007", "--seed", "3", "--header", "Authorization: Bearer x")
		res := result(t, r, "ROLL-007")
		if res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, "dropped nothing the held card claims") {
			t.Fatalf("ROLL-007: %s: %s", res.Verdict, res.Reason)
		}
		log := agentLog(t, r)
		if n := strings.Count(log, "rolling 2 instance(s)"); n < 3 || !strings.Contains(log, "rolling back to the first build (--agent-cmd)") {
			t.Errorf("%d rolls, want ROLL-001's, ROLL-007's back to the old build and its roll to the next:\n%s", n, tail(log, 3000))
		}
		if res := result(t, r, "ROLL-001"); res.Verdict != reports.Pass {
			t.Errorf("ROLL-001: %s: %s", res.Verdict, res.Reason)
		}
	})
}

// ROLL-007 among the other rollout specs: a roll before it (ROLL-001's, to
// --agent-cmd-next) left the instances on the new build, so ROLL-007 first
// rolls back to the old one, whose card the CDN then holds; after it the
// run's own build is back, and the next spec's roll goes to --agent-cmd-next
// as before. Every spec passes. (Seed 3 starts ROLL-001 first.)
func TestStaleCDNUnderTheProcessDriverAmongOtherRolls(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(oldBuild), "--agent-cmd-next", referenceAgentCmd(newBuild), "--instances", "2",
		"--focus", "ROLL-001,ROLL-007,ROLL-008", "--seed", "3", "--header", "Authorization: Bearer x")
	if r.exit != 0 || r.report == nil {
		t.Fatalf("exit %d\nstdout:\n%s\nagent.log (tail):\n%s", r.exit, r.stdout, tail(agentLog(t, r), 3000))
	}
	for _, res := range r.report.Results {
		if res.Verdict != reports.Pass {
			t.Errorf("%s: %s: %s", res.ID, res.Verdict, res.Reason)
		}
	}
	res := result(t, r, "ROLL-007")
	if want := "generation 3, the vendor's build (--agent-cmd), rolled to"; !strings.Contains(res.Observations["previous-build"], want) {
		t.Fatalf("observation previous-build = %q, want %q (did ROLL-001 not run first on this seed?)", res.Observations["previous-build"], want)
	}
	checkRolledBack(t, r, res, "5")
	log := agentLog(t, r)
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "generation 6 started: ") && !strings.Contains(line, "--no-push") {
			t.Errorf("the roll after ROLL-007 did not start --agent-cmd-next: %s", line)
		}
	}
	if !strings.Contains(log, "generation 6 started: ") {
		t.Errorf("agent.log shows no roll after ROLL-007's:\n%s", tail(log, 3000))
	}
}

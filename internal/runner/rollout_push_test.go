package runner_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
)

// The push half of the rollout suite (issue 17): every config ROLL-003,
// ROLL-004 and ROLL-009 register carries credentials of its own and every
// delivery is checked against them and against the config's task; a push
// that is only late is not a push lost; a refused receiver URL is never a
// fail.

// rolloutPushEnv, in a CLI child, makes every embedded instance a correct
// variant of push delivery: "allow-list" (an SSRF allow-list that does not
// admit the harness's loopback receiver), "latency=<duration>" (a
// queue-backed dispatcher whose pushes go out that long after their event)
// or "dispatcher-warm-up=<duration>" (a restarted instance's dispatcher
// starts that long after the instance became ready).
const rolloutPushEnv = "A2A_CONFORM_TEST_ROLLOUT_PUSH"

// rolloutPushSpecs are the rollout specs whose configs carry pushes.
var rolloutPushSpecs = []string{"ROLL-003", "ROLL-004", "ROLL-009"}

func init() {
	if os.Getenv(cliEnv) != "1" {
		return
	}
	switch v := os.Getenv(rolloutPushEnv); {
	case v == "allow-list":
		runner.EmbeddedTweak = func(o *fakes.Options) { o.WebhookAllow = []string{"https://hooks.example.com/a2a/"} }
	case strings.HasPrefix(v, "dispatcher-warm-up="):
		if d, err := time.ParseDuration(strings.TrimPrefix(v, "dispatcher-warm-up=")); err == nil {
			runner.EmbeddedTweak = func(o *fakes.Options) { o.DispatcherWarmUp = d }
		}
	case strings.HasPrefix(v, "latency="):
		if d, err := time.ParseDuration(strings.TrimPrefix(v, "latency=")); err == nil {
			runner.EmbeddedTweak = func(o *fakes.Options) { o.PushDelay = d }
		}
	}
}

// rolloutPushRun runs the push-carrying rollout specs on the embedded
// topology (three instances) with env and the extra arguments.
func rolloutPushRun(t *testing.T, env []string, seed string, extra ...string) map[string]reports.Result {
	t.Helper()
	args := append([]string{"--focus", strings.Join(rolloutPushSpecs, ","), "--seed", seed}, extra...)
	r := runCLI(t, env, args...)
	out := map[string]reports.Result{}
	for _, id := range rolloutPushSpecs {
		out[id] = result(t, r, id)
	}
	return out
}

// The clean reference agent passes, and each spec says how many configs
// got their terminal push.
func TestRolloutPushCleanPasses(t *testing.T) {
	t.Parallel()
	for id, res := range rolloutPushRun(t, nil, "31") {
		if res.Verdict != reports.Pass {
			t.Errorf("%s on the clean agent: %s: %s\n%v", id, res.Verdict, res.Reason, res.Observations)
		}
	}
}

// An agent whose SSRF allow-list refuses the harness's loopback receiver
// (§13.2: agents SHOULD) is not failed: the push part of ROLL-003 and
// ROLL-004 is unchecked and ROLL-009, whose point is push, could not run;
// each reason names --webhook-url.
func TestRolloutPushRefusedURLIsNoFail(t *testing.T) {
	t.Parallel()
	for id, res := range rolloutPushRun(t, []string{rolloutPushEnv + "=allow-list"}, "36") {
		if res.Verdict != reports.CouldNotRun {
			t.Errorf("%s on an agent that refuses the receiver's URL: %s, want could-not-run: %s\n%v", id, res.Verdict, res.Reason, res.Observations)
			continue
		}
		if !strings.Contains(res.Reason, "--webhook-url") {
			t.Errorf("%s: the reason does not say to give --webhook-url: %s", id, res.Reason)
		}
	}
}

// The same under the process driver: `fake` processes sharing one SQLite
// file, each with an allow-list that does not admit the loopback receiver,
// rolled to the next build. No fail.
func TestRolloutPushRefusedURLUnderTheProcessDriver(t *testing.T) {
	t.Parallel()
	cmd := referenceAgentCmd(" --webhook-allow https://hooks.example.com/a2a/")
	r := runCLI(t, nil, "--agent-cmd", cmd, "--agent-cmd-next", cmd+" --generation {generation}", "--instances", "2",
		"--focus", strings.Join(rolloutPushSpecs, ","), "--seed", "40", "--header", "Authorization: Bearer x")
	for _, id := range rolloutPushSpecs {
		res := result(t, r, id)
		if res.Verdict == reports.Fail || !strings.Contains(res.Reason, "--webhook-url") {
			t.Errorf("%s under the process driver on an agent that refuses the receiver's URL: %s: %s", id, res.Verdict, res.Reason)
		}
		t.Logf("%s: %s: %s", id, res.Verdict, firstLine(res.Reason))
	}
}

// A queue-backed dispatcher that delivers every push three seconds after
// its event is correct: late is not lost. No spec fails it, and the
// latencies are reported.
func TestRolloutPushLateIsNotLost(t *testing.T) {
	t.Parallel()
	for id, res := range rolloutPushRun(t, []string{rolloutPushEnv + "=latency=3s"}, "37") {
		if res.Verdict != reports.Pass {
			t.Errorf("%s on an agent whose pushes arrive 3 s late: %s, want pass: %s\n%v", id, res.Verdict, res.Reason, res.Observations)
		}
		t.Logf("%s: %s %s", id, res.Observations["push-latency"], res.Observations["push-latency.after-first-200"])
	}
}

// A starting instance that serves its card once ready but whose dispatcher
// starts three seconds later delivers the push registered at its first 200
// late, not never: ROLL-004 passes it (it failed it when the delivery came
// after three times the deployment's normal latency), and says it was late.
func TestRolloutPushStartingDispatcherLateIsNotLost(t *testing.T) {
	t.Parallel()
	r := runCLI(t, []string{rolloutPushEnv + "=dispatcher-warm-up=3s"}, "--focus", "ROLL-004", "--seed", "39")
	res := result(t, r, "ROLL-004")
	if res.Verdict != reports.Pass {
		t.Fatalf("ROLL-004 on an agent whose starting dispatcher delivers 3 s late: %s, want pass: %s\n%v", res.Verdict, res.Reason, res.Observations)
	}
	if obs := res.Observations["push-latency.after-first-200"]; !strings.Contains(obs, "late, not lost") {
		t.Errorf("push-latency.after-first-200 = %q, want the late delivery named", obs)
	}
}

// The same specs on the reference agent made slow (one-second steps) and
// driven by the prompt map: no fail, no indeterminate. ROLL-003 calibrates
// the prompt map's "slow" task after it started its own (issue 17, section
// 3, being changed on another branch): until then its indeterminate that
// says no task was running is tolerated here, and logged.
func TestRolloutPushOnASlowAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the rollout push specs against a slow agent")
	}
	t.Parallel()
	cfg := writeConfig(t, "no-directive: true\nprompt-map:\n  slow: \"work slowly then complete\"\n  complete: \"say hello\"\n")
	for id, res := range rolloutPushRun(t, []string{stepDelayEnv + "=1s"}, "38", "--config", cfg) {
		if id == "ROLL-003" && res.Verdict == reports.Indeterminate && strings.Contains(res.Reason, "no task was running when the rollout began") {
			t.Logf("ROLL-003 on a slow prompt-map agent: calibrated after its tasks started (issue 17 §3): %s", firstLine(res.Reason))
			continue
		}
		if res.Verdict == reports.Fail || res.Verdict == reports.Indeterminate {
			t.Errorf("%s on a slow prompt-map agent: %s: %s\n%v", id, res.Verdict, res.Reason, res.Observations)
		}
	}
}

// TestRollingConfigAcknowledgedAfterItsTaskEnded: ROLL-003 creates two tasks
// on each instance and registers each one's push config through the other.
// Here instance 0 answers a non-blocking SendMessage 2 s after it created
// the task, later than the 1.2 s the task is scripted to take, so its two
// tasks have ended before their configs exist, while instance 1's are still
// running (the spec's own check that a task runs passes). Those configs are
// owed nothing: the spec must not call their missing push lost, but try
// again with tasks long enough to outlast the late answer (suites.T.TooFast).
func TestRollingConfigAcknowledgedAfterItsTaskEnded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ROLL-003 twice under the process driver")
	}
	t.Parallel()
	late := `$([ {instance} = 0 ] && echo --answer-latency 2s)`
	r := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(" "+late), "--instances", "2", "--focus", "ROLL-003", "--seed", "5")
	res := result(t, r, "ROLL-003")
	if res.Verdict != reports.Pass {
		t.Fatalf("ROLL-003 %s, want pass: %s\n%v", res.Verdict, res.Reason, res.Observations)
	}
	if got := res.Observations["retried"]; !strings.Contains(got, "had already ended when their push config was acknowledged") {
		t.Errorf("ROLL-003 passed without trying again for the configs acknowledged late: retried %q", got)
	}
}

package runner_test

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// On a prompt-map agent (no directive extension) that is slow (one-second
// steps), ROLL-002, ROLL-003 and ROLL-005 calibrate before they start their own
// tasks: the calibration runs a whole task, and measured after start() it
// let the spec's task end before the roll, leaving the spec indeterminate
// with exit 0 under lose-tasks-on-restart. Now the clean agent passes and
// the fault fails both.
func TestRolloutCalibratesFirstOnAPromptMapAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("rolls a slow agent twice")
	}
	t.Parallel()
	cfg := writeConfig(t, "no-directive: true\nprompt-map:\n  slow: \"work slowly then complete\"\n  complete: \"say hello\"\n")
	env := []string{stepDelayEnv + "=1s"}
	for _, c := range []struct {
		name  string
		fault []string
		want  reports.Verdict
	}{
		{"clean", nil, reports.Pass},
		{"lose-tasks-on-restart", []string{"--fault", "lose-tasks-on-restart"}, reports.Fail},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := runCLI(t, env, append([]string{"--focus", "ROLL-002,ROLL-003,ROLL-005", "--seed", "5", "--config", cfg}, c.fault...)...)
			// ROLL-005 calibrates first too; the fault does not touch it.
			if res := result(t, r, "ROLL-005"); res.Verdict != reports.Pass {
				t.Errorf("ROLL-005 on the slow prompt-map agent (%s): %s: %s", c.name, res.Verdict, res.Reason)
			}
			for _, id := range []string{"ROLL-002", "ROLL-003"} {
				res := result(t, r, id)
				if res.Verdict != c.want {
					t.Errorf("%s on the slow prompt-map agent (%s): %s, want %s: %s\n%v", id, c.name, res.Verdict, c.want, res.Reason, res.Observations)
				}
				if res.Observations["behaviour"] != "prompt-map" {
					t.Errorf("%s: behaviour %q, want prompt-map", id, res.Observations["behaviour"])
				}
			}
			if c.want == reports.Fail && r.exit != 1 {
				t.Errorf("exit %d, want 1", r.exit)
			}
		})
	}
}

// A task whose instance the roll stopped and that no other instance carries
// on stays TASK_STATE_WORKING (or SUBMITTED) for good: ROLL-003 names it
// orphaned by the roll, a violation, instead of asking for more patience.
// A slow agent whose tasks are merely late (one-second steps, resumed from
// the start of a step by the instance that adopts them) is not called so.
func TestRolloutNamesOrphanedTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the patience for the orphans")
	}
	t.Parallel()
	t.Run("roll-orphans-tasks", func(t *testing.T) {
		t.Parallel()
		r := runCLI(t, nil, "--focus", "ROLL-003", "--seed", "5", "--fault", "roll-orphans-tasks")
		res := result(t, r, "ROLL-003")
		if res.Verdict != reports.Fail || !strings.Contains(res.Reason, "orphaned by the roll") || strings.Contains(res.Reason, "raise --patience") {
			t.Fatalf("ROLL-003 under roll-orphans-tasks: %s: %s", res.Verdict, res.Reason)
		}
		if !strings.Contains(res.Observations["counts"], "orphaned by the roll") {
			t.Errorf("counts %q", res.Observations["counts"])
		}
	})
	t.Run("slow-clean", func(t *testing.T) {
		t.Parallel()
		cfg := writeConfig(t, "no-directive: true\nprompt-map:\n  slow: \"work slowly then complete\"\n  complete: \"say hello\"\n")
		r := runCLI(t, []string{stepDelayEnv + "=1s"}, "--focus", "ROLL-003", "--seed", "5", "--config", cfg)
		res := result(t, r, "ROLL-003")
		if res.Verdict != reports.Pass {
			t.Fatalf("ROLL-003 on the slow clean agent: %s: %s\n%v", res.Verdict, res.Reason, res.Observations)
		}
		t.Logf("counts: %s; rollout: %s", res.Observations["counts"], res.Observations["rollout"])
	})
}

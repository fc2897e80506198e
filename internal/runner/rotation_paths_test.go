//go:build unix

package runner_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
)

// rotationSpecs are the specs that judge once over the deployment's views
// and change (suites/rollout/deployment.go), whatever the driver.
const rotationSpecs = "ROLL-001,ROLL-002,ROLL-008"

// invariantsOf lists the distinct invariants a result names, sorted.
func invariantsOf(res reports.Result) []string {
	var out []string
	for _, v := range res.Violations {
		if !slices.Contains(out, v.Invariant) {
			out = append(out, v.Invariant)
		}
	}
	slices.Sort(out)
	return out
}

// One judging path per spec (issue 17, section 4): ROLL-001, 002 and 008
// ask the driver for views and a change and judge with one set of rules, so
// the same fault gets the same verdict and the same violated invariants
// whether the harness rolls its own instances (embedded, process: a read
// pinned to each instance) or the vendor's hook changes a deployment the
// harness reads only through the target (hooks: the staging agent, restarted
// one generation on by the hook). On the clean agent they pass under every
// driver, but for ROLL-008's per-instance part, which the target cannot
// show: unchecked under hooks, never passed.
func TestProofRotationSpecsJudgeAlikeUnderEveryDriver(t *testing.T) {
	testkit.WholeProof(t)
	t.Parallel()
	for _, fault := range []string{"", "etag-never-changes", "any-etag-not-modified", "lose-tasks-on-restart"} {
		name := fault
		if name == "" {
			name = "clean"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var named []string
			if fault != "" {
				f, err := fakes.LookupFault(fault)
				if err != nil {
					t.Fatal(err)
				}
				named = f.Specs
			}
			runs := map[string]cliRun{}
			embedded := []string{"--focus", rotationSpecs, "--seed", "31"}
			procFault := ""
			if fault != "" {
				embedded = append(embedded, "--fault", fault)
				procFault = " --fault " + fault
			}
			runs["embedded"] = runCLI(t, nil, embedded...)
			runs["process"] = runCLI(t, nil, "--agent-cmd", referenceAgentCmd(procFault),
				"--agent-cmd-next", referenceAgentCmd(" --generation {generation}"+procFault), "--instances", "2",
				"--focus", rotationSpecs, "--seed", "31")
			s := startStaging(t, fault)
			runs["hooks"] = s.runHooks(t, "31", "--focus", rotationSpecs)
			for _, id := range strings.Split(rotationSpecs, ",") {
				want := reports.Pass
				if slices.Contains(named, id) {
					want = reports.Fail
				}
				var first []string
				for i, driver := range []string{"embedded", "process", "hooks"} {
					res := result(t, runs[driver], id)
					t.Logf("%s under %s: %s %v: %s", id, driver, res.Verdict, invariantsOf(res), res.Reason)
					expect := want
					if driver == "hooks" && id == "ROLL-008" && want == reports.Pass {
						// The target cannot show each instance's card: the
						// part is unchecked, and only that part.
						expect = reports.CouldNotRun
						if len(res.Unchecked) != 1 || !strings.HasPrefix(res.Unchecked[0], "each instance's new card") {
							t.Errorf("ROLL-008 under hooks, unchecked: %v", res.Unchecked)
						}
					}
					if res.Verdict != expect {
						t.Errorf("%s under %s: %s, want %s: %s", id, driver, res.Verdict, expect, res.Reason)
					}
					got := invariantsOf(res)
					if i == 0 {
						first = got
					} else if !slices.Equal(got, first) {
						t.Errorf("%s: invariants %v under %s, %v under embedded: the paths judge differently", id, got, driver, first)
					}
				}
			}
		})
	}
}

// A hook that exits 0 and changes nothing (`true`) at rollout-step gives
// none of the rotation specs a change to judge: ROLL-002 leaves the task's
// crossing unchecked, ROLL-001 the new ETag, ROLL-008 the time to
// consistency. None passes, none blames the agent.
func TestRotationSpecsNeedTheChangeToShow(t *testing.T) {
	t.Parallel()
	target := startVariant(t, fakes.Options{Name: "staging"})
	r := runCLI(t, nil, "--target", target, "--focus", rotationSpecs, "--seed", "32", "--hook-rollout-step", "true")
	want := map[string]string{
		"ROLL-001": "a changed card gets a new ETag",
		"ROLL-002": "the task crosses a rollout-step",
		"ROLL-008": "time to consistency",
	}
	for id, part := range want {
		res := result(t, r, id)
		if res.Verdict != reports.CouldNotRun || !strings.Contains(strings.Join(res.Unchecked, "\n"), part) {
			t.Errorf("%s with a do-nothing hook: %s: %s\nunchecked: %v", id, res.Verdict, res.Reason, res.Unchecked)
		}
	}
	if r.exit != 0 {
		t.Errorf("exit %d, want 0", r.exit)
	}
}

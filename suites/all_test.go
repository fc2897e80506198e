package suites_test

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
	_ "github.com/a2a-conform/a2a-conform/suites/rollout"
)

var ran bool

// TestSuites runs every spec in-process against the embedded reference agent
// under `go test` or `ginkgo`, so Ginkgo's own flags work
// (go test ./suites -ginkgo.label-filter='lifecycle && MUST' -ginkgo.v).
// On the clean agent every spec must pass or be not applicable.
func TestSuites(t *testing.T) {
	if ran {
		t.Skip("Ginkgo's RunSpecs runs once per process; with -count > 1 the repeat is skipped")
	}
	ran = true
	RegisterFailHandler(Fail)
	suiteConfig, reporterConfig := GinkgoConfiguration()
	// The client suite judges a client driver, not the agent: it has tests
	// of its own (suites/client).
	if suiteConfig.LabelFilter == "" {
		suiteConfig.LabelFilter = "!" + suites.Client
	} else {
		suiteConfig.LabelFilter = "(" + suiteConfig.LabelFilter + ") && !" + suites.Client
	}
	cfg := runner.Config{Seed: suiteConfig.RandomSeed, Out: t.TempDir()}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	prep, err := runner.Prepare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer prep.Close()
	if prep.Unreachable != nil {
		t.Fatalf("embedded agent unreachable: %v", prep.Unreachable)
	}
	suites.SetEnv(prep.Env)
	// Scheduled as `run` schedules them (eight at a time, the specs that
	// roll or restart the agent alone, after the others); the Its report
	// each body's result as it ends. A serial run gives the same verdicts
	// (internal/runner's TestParallelRunGivesTheSerialVerdicts).
	suites.Plan(runner.Selected(runner.Config{LabelFilter: suiteConfig.LabelFilter}), 8, suiteConfig.RandomSeed)
	RunSpecs(t, "a2a-conform suites", suiteConfig, reporterConfig)
	for _, r := range suites.Results() {
		if r.Verdict != reports.Pass && r.Verdict != reports.NotApplicable {
			t.Errorf("%s: %s: %s", r.ID, r.Verdict, r.Reason)
		}
	}
}

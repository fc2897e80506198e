package runner

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/suites/lifecycle"
)

// raceTrialsNote says, when LIFE-014 is selected and --race-trials asks for
// fewer trials than its race needs, how many it will really run: the run
// must not turn 5 into 15 silently. Printed at the start and kept
// in the report's run notes.
func raceTrialsNote(cfg Config) string {
	n := cfg.RaceTrials
	if n <= 0 {
		return ""
	}
	if _, first, _, _ := lifecycle.RaceTrialPlan(n); first <= n {
		return ""
	}
	for _, info := range Selected(cfg) {
		if info.ID == "LIFE-014" {
			return fmt.Sprintf("race: --race-trials %d: %s", n, lifecycle.RaceTrialsNote(n))
		}
	}
	return ""
}

package runner

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/suites/lifecycle"
)

// --race-trials 5 runs 10 trials in LIFE-014's first round and up to 20 in
// all; the run says so (issue 20: it became 15 silently), and only when the
// race is selected and the number is raised.
func TestRaceTrialsRaisedIsSaid(t *testing.T) {
	need, first, later, most := lifecycle.RaceTrialPlan(5)
	if need != 5 || first != 10 || later != 5 || most != 20 {
		t.Fatalf("plan for 5: need %d first %d later %d most %d", need, first, later, most)
	}
	note := raceTrialsNote(Config{RaceTrials: 5})
	for _, want := range []string{"--race-trials 5", "10 trials in its first round", "raised from 5", "10 to 20 in all"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	if n := raceTrialsNote(Config{RaceTrials: 200}); n != "" {
		t.Errorf("200 trials are not raised, yet: %q", n)
	}
	if n := raceTrialsNote(Config{RaceTrials: 5, Suites: []string{"discovery"}}); n != "" {
		t.Errorf("LIFE-014 not selected, yet: %q", n)
	}
}

package invariants

import (
	"fmt"
	"testing"
)

func TestTallyRace(t *testing.T) {
	v := Violation{Invariant: "x"}
	got := TallyRace([]TrialResult{
		{Outcome: "canceled"},
		{Outcome: "canceled", Violations: []Violation{v}},
		{Outcome: "completed-first"},
		{Indeterminate: "no answer"},
		{Violations: []Violation{v, v}},
	})
	want := RaceTally{Decided: 4, Unknown: 1, Canceled: 2, CompletedFirst: 1, VCanceled: 1, Violating: 2, FirstUnknown: "no answer"}
	if len(got.Violations) != 3 {
		t.Errorf("%d violations kept, want 3", len(got.Violations))
	}
	got.Violations = nil
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("TallyRace = %+v, want %+v", got, want)
	}
}

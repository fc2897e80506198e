package suites

import (
	"sort"
	"strings"
	"testing"
)

// TestTCKCoverage fails when a TCK requirement of a covered area is named by
// no spec and not listed as not applicable, or when a spec names a TCK ID
// that does not exist.
func TestTCKCoverage(t *testing.T) {
	known := map[string]bool{}
	for _, r := range TCK {
		known[r.ID] = true
	}
	if len(TCK) != 129 {
		t.Fatalf("the TCK catalogue has %d requirements, want 129", len(TCK))
	}
	covered := map[string][]string{}
	for _, i := range All() {
		for _, id := range i.TCK {
			if !known[id] {
				t.Errorf("%s names unknown TCK requirement %s", i.ID, id)
			}
			covered[id] = append(covered[id], i.ID)
		}
	}
	var missing []string
	for _, r := range TCK {
		inArea := false
		for _, p := range TCKAreasCovered {
			if strings.HasPrefix(r.ID, p) {
				inArea = true
			}
		}
		if !inArea {
			continue
		}
		_, na := TCKNotApplicable[r.ID]
		if len(covered[r.ID]) == 0 && !na {
			missing = append(missing, r.ID)
		}
		if len(covered[r.ID]) > 0 && na {
			t.Errorf("%s is both covered (by %v) and listed not applicable", r.ID, covered[r.ID])
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("TCK requirements covered by no spec and not listed in TCKNotApplicable: %s", strings.Join(missing, ", "))
	}
	for id := range TCKNotApplicable {
		if !known[id] {
			t.Errorf("TCKNotApplicable lists unknown %s", id)
		}
	}
}

// TestTCKLevel pins the strongest-level rule on specs whose TCK levels mix.
func TestTCKLevel(t *testing.T) {
	for id, want := range map[string]Level{
		"LIFE-028": MUST,   // CORE-SEND-003 MUST, while the A2A text gives MAY
		"LIFE-003": MUST,   // CORE-MULTI-002 MAY and CORE-MULTI-002a MUST
		"LIFE-024": SHOULD, // CORE-HIST-001/003/005/006, all SHOULD
		"DISC-007": MAY,    // CARD-CACHE-003
		"DISC-005": "",     // no TCK requirement
	} {
		i, ok := Lookup(id)
		if !ok {
			t.Fatalf("%s is not registered", id)
		}
		if got := TCKLevel(i); got != want {
			t.Errorf("TCKLevel(%s) = %q, want %q", id, got, want)
		}
	}
}

package suites

import (
	"strings"
	"testing"
)

// TestTheNewestRequirementSetIsTheRegistry: a change of the registry's IDs
// or levels is a new revision of the requirement set, never an edit of one
// that reports already name.
func TestTheNewestRequirementSetIsTheRegistry(t *testing.T) {
	sets := RequirementSets()
	cur, ok := sets[CurrentRequirements]
	if !ok {
		t.Fatalf("no file suites/requirements/%s.txt", CurrentRequirements)
	}
	for name, s := range sets {
		if s.Protocol == cur.Protocol && s.Revision > cur.Revision {
			t.Errorf("%s is newer than CurrentRequirements %s", name, CurrentRequirements)
		}
	}
	var got []string
	for _, i := range All() {
		got = append(got, i.GoldenLine())
	}
	var want []string
	for _, d := range cur.Specs {
		want = append(want, d.ID+" "+d.Level+" "+d.Suite+" "+d.Title)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the registry is not the requirement set %s. A spec added or removed, or a level changed, makes a new revision: "+
			"copy specs.golden to suites/requirements/a2a-%s-r%d.txt, add its sha256 to frozenRequirements and point CurrentRequirements at it",
			CurrentRequirements, cur.Protocol, cur.Revision+1)
	}
}

// TestRequirementSetsAreFrozen: every released set's file is as it was.
func TestRequirementSetsAreFrozen(t *testing.T) {
	for name := range RequirementSets() {
		want, ok := frozenRequirements[name]
		if !ok {
			t.Errorf("%s has no digest in frozenRequirements", name)
			continue
		}
		got, err := requirementDigest(name)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s was edited (sha256 %s, frozen as %s): a released requirement set never changes; make a new revision", name, got, want)
		}
	}
}

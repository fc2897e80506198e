package suites

import (
	"os"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/spectext"
)

// TestEveryBasisIsTheSpecificationsOwnWords finds every quote of every
// spec's basis in the pinned A2A text, in the file and section it names:
// a fail never rests on words the specification does not contain.
func TestEveryBasisIsTheSpecificationsOwnWords(t *testing.T) {
	for _, i := range All() {
		b := i.Basis()
		if b == nil {
			continue // TestEverySpecHasABasis says so
		}
		for _, q := range b.Quotes {
			if q.Version != spectext.Version {
				t.Errorf("%s: a quote of version %q; the pinned text is %s", i.ID, q.Version, spectext.Version)
			}
			if err := spectext.Find(q.Text, q.File, q.Section); err != nil {
				t.Errorf("%s: not the specification's words (%s): %v", i.ID, q.Cite(), err)
			}
		}
	}
}

// TestEverySpecHasABasis: every spec states its basis, and the level it
// registers is the one its quotes carry, or its reading says why not.
func TestEverySpecHasABasis(t *testing.T) {
	scenarios, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range All() {
		b := i.Basis()
		if b == nil || len(b.Quotes) == 0 {
			t.Errorf("%s: no basis: quote the sentences its level rests on in the Grounds of its Info entry", i.ID)
			continue
		}
		var keyword []string
		switch i.Level {
		case MUST:
			keyword = []string{"MUST", "REQUIRED", "SHALL"}
		case SHOULD:
			keyword = []string{"SHOULD", "RECOMMENDED"}
		case MAY:
			keyword = []string{"MAY", "OPTIONAL"}
		}
		has := false
		for _, q := range b.Quotes {
			for _, k := range keyword {
				has = has || strings.Contains(q.Text, k)
			}
		}
		if keyword != nil && !has && b.Reading == "" {
			t.Errorf("%s: a %s spec whose quotes carry none of %v: quote the sentence with the keyword, or say in Reading how the level was read", i.ID, i.Level, keyword)
		}
		if i.Level == INVARIANT {
			if !strings.Contains(b.Reading, "No single MUST sentence states") {
				t.Errorf("%s: an INVARIANT spec's reading must say plainly that no single MUST sentence states it (\"No single MUST sentence states …\")", i.ID)
			}
			if b.Scenario == nil {
				t.Errorf("%s: an INVARIANT spec names the scenario sentence it is derived from", i.ID)
			}
		}
		if s := b.Scenario; s != nil && !strings.Contains(spectext.Fold(string(scenarios)), spectext.Fold(s.Text)) {
			t.Errorf("%s: scenario %s's sentence %q is not quoted in docs/scenarios.md", i.ID, s.Number, s.Text)
		}
		for _, d := range b.Disagrees {
			if d.Upstream == "" || d.Asserts == "" || d.Why == "" {
				t.Errorf("%s: a disagreement needs its upstream ID, what it asserts and why we differ: %+v", i.ID, d)
			}
		}
	}
}

// TestEveryResultCarriesItsBasis: a result made from the registry (every
// verdict's, could-not-run ones included) carries the spec's basis, which
// report.json, the HTML and JUnit show.
func TestEveryResultCarriesItsBasis(t *testing.T) {
	for _, i := range All() {
		r := i.Result()
		if r.Basis == nil || len(r.Basis.Quotes) == 0 || r.Level != string(i.Level) {
			t.Errorf("%s: result without its basis or level: %+v", i.ID, r)
		}
	}
}

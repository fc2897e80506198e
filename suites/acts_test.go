package suites

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// TestACTSMappingMatchesTheRegistry fails when the ACTS table
// (reports.ACTSTests, docs/acts-mapping.md) names a spec that does not
// exist, or maps one at another level than the draft's test: a mapped spec
// is reported under the draft's ID at its own level, so the two must agree
// (an INVARIANT is a MUST, docs/levels.md).
func TestACTSMappingMatchesTheRegistry(t *testing.T) {
	mapped := 0
	for _, x := range reports.ACTSTests {
		for _, id := range append([]string{x.Spec}, x.Part...) {
			if id == "" {
				continue
			}
			if _, ok := Lookup(id); !ok {
				t.Errorf("%s names unknown spec %s", x.ID, id)
			}
		}
		if x.Spec == "" {
			continue
		}
		mapped++
		info, _ := Lookup(x.Spec)
		level := strings.ToLower(string(info.Level))
		if info.Level == INVARIANT {
			level = "must"
		}
		if level != x.Level {
			t.Errorf("%s (%s) is mapped to %s, which is %s", x.ID, x.Level, x.Spec, info.Level)
		}
		if info.Suite == Client {
			t.Errorf("%s is mapped to the client spec %s: the agent-side table is for agent specs", x.ID, x.Spec)
		}
	}
	if mapped == 0 {
		t.Error("no ACTS test is mapped")
	}
}

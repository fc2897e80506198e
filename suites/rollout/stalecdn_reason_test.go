package rollout

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/suites"
)

// ROLL-007's could-not-run reason must not tell an --agent-cmd user to do
// what they did (issue 20): under the process driver it says what the
// --agent-cmd-next build must change, without the spec's Enable text (give
// --agent-cmd, --agent-cmd-next); under the others it keeps both.
func TestROLL007ReasonFitsTheDriver(t *testing.T) {
	advice, enable := newBuildAdvice("process")
	if enable {
		t.Error("the process driver's reason appends the Enable text, which tells the vendor to give --agent-cmd")
	}
	if !strings.Contains(advice, "claims less than --agent-cmd's") {
		t.Errorf("process advice does not say what the next build must change: %q", advice)
	}
	if strings.Contains(advice, "Under the process driver the old build is --agent-cmd") {
		t.Errorf("process advice explains the flags the vendor already gave: %q", advice)
	}
	info, _ := suites.Lookup("ROLL-007")
	if strings.Contains(advice, info.Enable) {
		t.Errorf("process advice repeats the Enable text")
	}
	for _, d := range []string{"embedded", "hooks", "none"} {
		if a, e := newBuildAdvice(d); !e || a != newBuildNeeded {
			t.Errorf("%s: advice %q, enable %v", d, a, e)
		}
	}
}

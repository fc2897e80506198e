package invariants

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

func TestStreamToTerminal(t *testing.T) {
	done := a2a.TaskStateCompleted
	for _, c := range []struct {
		name string
		s    StreamSeen
		want []string // the Actual texts, in order
	}{
		{"to the end and closed", StreamSeen{FirstIsTask: true, Last: done, Closed: true, End: done}, nil},
		{"no task first", StreamSeen{Last: done, Closed: true, End: done, Events: "statusUpdate"}, []string{"statusUpdate"}},
		{"closed early", StreamSeen{FirstIsTask: true, Last: a2a.TaskStateWorking, Closed: true, End: done}, []string{"closed by the agent at its last state TASK_STATE_WORKING"}},
		{"cut before the end", StreamSeen{FirstIsTask: true, End: done, SeenBy: "instance 0"}, []string{"the stream's last state unobserved"}},
		{"left open", StreamSeen{FirstIsTask: true, Last: done, End: done}, []string{"still open"}},
	} {
		vs := StreamToTerminal(c.s)
		if len(vs) != len(c.want) {
			t.Errorf("%s: %+v, want %d violations", c.name, vs, len(c.want))
			continue
		}
		for i, v := range vs {
			if v.Invariant != "stream-across-instances" || !strings.Contains(v.Actual, c.want[i]) {
				t.Errorf("%s: %+v, want %q", c.name, v, c.want[i])
			}
		}
	}
}

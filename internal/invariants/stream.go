package invariants

import (
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// StreamSeen is what one subscription of a task delivered, held against
// the terminal state another channel showed the task reach.
type StreamSeen struct {
	// Where names the stream (its task, the instance or role it went
	// through).
	Where string
	// FirstIsTask: the first event was the Task (§3.1.6).
	FirstIsTask bool
	// Events labels what the stream delivered, for the reader.
	Events string
	// Last is the last state it carried ("" for none); Closed, whether the
	// agent closed it (rather than the harness, Held after the task was
	// seen terminal).
	Last   a2a.TaskState
	Closed bool
	Held   time.Duration
	// End is the terminal state seen elsewhere, and SeenBy who saw it
	// ("instance 0", "GetTask #12 through instance-1").
	End    a2a.TaskState
	SeenBy string
}

// StreamToTerminal judges a subscription of a task that another channel
// showed terminal (stream-across-instances, ROLL-005 and its replay): the
// Task as its first event, every event up to the terminal state, and the
// stream closed after it.
func StreamToTerminal(s StreamSeen) []Violation {
	var vs []Violation
	if !s.FirstIsTask {
		vs = append(vs, Violation{Invariant: "stream-across-instances", Where: s.Where + ", event 1",
			Expected: "the Task as its first event (§3.1.6)", Actual: s.Events})
	}
	want := fmt.Sprintf("every event up to the terminal state %s that %s showed", s.End, s.SeenBy)
	switch {
	case s.Last != s.End && s.Closed:
		vs = append(vs, Violation{Invariant: "stream-across-instances", Where: s.Where,
			Expected: want, Actual: s.Events + "; closed by the agent at its last state " + orNone(s.Last)})
	case s.Last != s.End:
		vs = append(vs, Violation{Invariant: "stream-across-instances", Where: s.Where,
			Expected: want, Actual: fmt.Sprintf("%s; the stream's last state %s, %s after %s showed the task terminal", s.Events, orNone(s.Last), s.Held.Round(time.Millisecond), s.SeenBy)})
	case !s.Closed:
		vs = append(vs, Violation{Invariant: "stream-across-instances", Where: s.Where,
			Expected: "the stream closed after the terminal event", Actual: "still open " + s.Held.Round(time.Millisecond).String() + " after the task ended"})
	}
	return vs
}

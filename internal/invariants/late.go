package invariants

import (
	"fmt"
	"sort"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// AnswerOf is the one rule by which every spec reads a CancelTask answer
// (A2A v1.0.1 §3.1.5: the operation "returns its updated state", and
// "success is not guaranteed"):
//   - the task in TASK_STATE_CANCELED acknowledges the cancel (CancelAcked):
//     from then on the task is canceled for ever;
//   - the task in a non-terminal state is a cancel requested and not yet
//     applied (CancelPending: an asynchronous cancel, which the text
//     neither names nor rules out): the task's own end decides, CANCELED
//     or whatever it ended first, and both are allowed;
//   - TaskNotCancelableError, or the task already in another terminal
//     state, is a cancel that was not applied because the task ended first
//     (CancelRefused);
//   - anything else (a transport failure, another error) is CancelUnknown.
//
// failed says the call returned an error; kind is its A2A error kind
// ("" when it had none).
func AnswerOf(task *a2a.Task, failed bool, kind a2a.ErrorKind) CancelAnswer {
	switch {
	case failed && kind == a2a.ErrTaskNotCancelable:
		return CancelRefused
	case failed || task == nil:
		return CancelUnknown
	case task.Status.State == a2a.TaskStateCanceled:
		return CancelAcked
	case task.Status.State.Terminal():
		return CancelRefused
	case task.Status.State.Valid():
		return CancelPending
	}
	return CancelUnknown
}

// LateChange judges one task against the first terminal evidence the
// harness had of it, over every sighting made since (life-of-a-task: once
// terminal, a task "cannot restart"; §4.1.3): whenever it arrives, a
// different terminal state on any channel, or an artifact or part the task
// did not hold at its first terminal snapshot, is a violation. Pushes carry
// no ordering, so a late push of an artifact (a queue delivering an
// earlier event) is not counted: only a push of another terminal state is.
// A non-terminal sighting is left to the spec that owns the channel.
//
// obs are the task's sightings (any order); since, when positive, keeps
// only violations first sighted at or after it (the evidence the spec had
// not judged). what names the first evidence in the violations ("the
// acknowledged cancel" for a CancelTask answered CANCELED, else "the first
// terminal state"). It returns the first terminal sighting (nil when there
// is none) and the violations, one per kind, each stating the delay since
// the first terminal evidence.
func LateChange(taskID string, obs []Observation, since time.Duration) (first *Observation, vs []Violation) {
	list := ForTask(obs, taskID)
	sortByReceived(list)
	var base *Observation
	for i := range list {
		o := &list[i]
		if !o.State.Terminal() {
			continue
		}
		if first == nil {
			first = o
		}
		if base == nil && o.Snapshot && o.Source != FromPush {
			base = o
		}
	}
	if first == nil {
		return nil, nil
	}
	what := EvidenceName(*first)
	var stateV, artV *Violation
	var moreState, moreArt int
	// Sighted before since: the spec judged it (or chose not to) itself.
	var stateSeen, artSeen bool
	for i := range list {
		o := list[i]
		if o.Received < first.Received || &list[i] == first {
			continue
		}
		if o.State.Terminal() && o.State != first.State {
			if stateV != nil {
				moreState++
				continue
			}
			if o.Received < since {
				stateSeen = true
			}
			if stateSeen {
				continue
			}
			stateV = &Violation{Invariant: "terminal-final", Where: o.where(),
				Expected: fmt.Sprintf("%s for ever: first seen terminal via %s", first.State, first.Ref),
				Actual: fmt.Sprintf("%s via %s, seen %s after %s%s", o.State, o.Source,
					(o.Received - first.Received).Round(time.Millisecond), what, stampedAfter(*first, o))}
		}
		if base == nil || o.Source == FromPush || !o.Snapshot || o.Issued < base.Received {
			continue
		}
		if gained := o.Artifacts.Beyond(base.Artifacts); gained != "" {
			if artV != nil {
				moreArt++
				continue
			}
			if o.Received < since {
				artSeen = true
			}
			if artSeen {
				continue
			}
			artV = &Violation{Invariant: "terminal-gains-nothing", Where: o.where(),
				Expected: fmt.Sprintf("the artifacts task %s held when %s (%s)", taskID, base.Ref, base.State),
				Actual: fmt.Sprintf("%s via %s, seen %s after %s", gained, o.Source,
					(o.Received - first.Received).Round(time.Millisecond), what)}
		}
	}
	if stateV != nil {
		if moreState > 0 {
			stateV.Actual += fmt.Sprintf(" (and %d more sightings)", moreState)
		}
		vs = append(vs, *stateV)
	}
	if artV != nil {
		if moreArt > 0 {
			artV.Actual += fmt.Sprintf(" (and %d more sightings)", moreArt)
		}
		vs = append(vs, *artV)
	}
	return first, vs
}

// At is t on the history's clock, for an event timed elsewhere (a push
// the receiver recorded while no spec listened).
func (h *History) At(t time.Time) time.Duration { return t.Sub(h.start) }

// stampedAfter says, when both sightings carry a status timestamp the
// agent wrote in RFC 3339, how long after the first the agent's own clock
// puts the later one: the moment it changed, where the harness only knows
// when it looked. "" when either is missing, unreadable or out of order.
func stampedAfter(first, later Observation) string {
	a, errA := time.Parse(time.RFC3339Nano, first.Stamp)
	b, errB := time.Parse(time.RFC3339Nano, later.Stamp)
	if errA != nil || errB != nil || b.Before(a) {
		return ""
	}
	return fmt.Sprintf(" (the agent's status timestamps put the change %s after it)", b.Sub(a).Round(time.Millisecond))
}

// EvidenceName names a first terminal sighting the way a reader of the
// report thinks of it: an acknowledged cancel, or the first terminal state.
func EvidenceName(o Observation) string {
	if o.Source == FromCancel && o.State == a2a.TaskStateCanceled {
		return "the acknowledged cancel"
	}
	return "the first terminal state (" + string(o.State) + ")"
}

func sortByReceived(list []Observation) {
	sort.SliceStable(list, func(a, b int) bool { return list[a].Received < list[b].Received })
}

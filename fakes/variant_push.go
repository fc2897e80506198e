package fakes

import (
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// The push-delivery variants (Options.PushDelay, Options.DuplicatePushes,
// Options.TerminalPushesOnly): dispatchers that deliver what A2A v1.0 §4.3.3
// allows in other ways than the default one, which delivers every event at
// once and exactly once when the receiver acknowledges.

// pushesState reports whether an event that moves the task to state ("" for
// an artifact event) is pushed at all. Under TerminalPushesOnly only a
// terminal state is: what triggers a push is up to the agent, typically a
// significant state change, and the spec does not guarantee a push for every
// event (A2A v1.0 §4.3.3); it asks only for at least one attempt
// per configured webhook of what the agent does push.
func (a *Agent) pushesState(state a2a.TaskState) bool {
	return !a.opts.TerminalPushesOnly || state.Terminal()
}

// enqueueDelivery records the delivery of one event to one config, in the
// transition's transaction: due after Options.PushDelay (a queue-backed
// dispatcher acknowledges the event first and delivers later), and twice
// under Options.DuplicatePushes (delivery is at least once; receivers
// dedupe, A2A v1.0 §4.3.3). Each config's deliveries keep their order.
func (a *Agent) enqueueDelivery(tx *store.Tx, taskID, configID string, body []byte) error {
	due := time.Now().Add(a.opts.PushDelay)
	copies := 1
	if a.opts.DuplicatePushes {
		copies = 2
	}
	for range copies {
		if err := tx.EnqueueAt(taskID, configID, body, a.owner, due); err != nil {
			return err
		}
	}
	return nil
}

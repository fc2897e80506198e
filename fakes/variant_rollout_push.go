package fakes

import (
	"context"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
)

// Variants of push delivery that are correct but slower than the default
// dispatcher (Options.PushLatency). The rollout and webhook specs must not
// fail them: a push that arrives late is not a push lost.

// heldForLatency re-schedules d, without counting an attempt, when its
// first attempt is due later under Options.PushLatency; it reports whether
// it did. The hold is counted from when the delivery was enqueued, so that
// a config's deliveries, which go out in order, are each about PushLatency
// late rather than late by the sum.
func (a *Agent) heldForLatency(ctx context.Context, d store.Delivery) bool {
	if a.opts.PushLatency <= 0 || d.Attempts > 0 {
		return false
	}
	due := d.Created.Add(a.opts.PushLatency)
	if !time.Now().Before(due) {
		return false
	}
	if err := a.st.RetryDelivery(ctx, d.ID, 0, due, "held: queue-backed dispatcher (PushLatency)"); err != nil {
		a.log.Warn("holding a delivery", "err", err)
		return false
	}
	return true
}

// dispatcherWarming reports whether the dispatcher is still warming up
// under Options.DispatcherWarmUp, and so claims nothing yet.
func (a *Agent) dispatcherWarming() bool {
	return a.opts.DispatcherWarmUp > 0 && a.opts.WarmUp > 0 && time.Since(a.readyAt) < a.opts.DispatcherWarmUp
}

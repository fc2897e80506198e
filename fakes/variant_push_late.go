package fakes

import (
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
)

// A queue-backed push dispatcher (PushOptions.Late): every delivery waits
// in the queue for Late before its first attempt, and the batch it was
// claimed in waits with it, so later events queue behind it. Nothing is
// lost and retries keep their backoff: a correct agent whose pushes arrive
// seconds late. "Late is not lost" (STYLE.md): no spec may fail it. It is
// the head-of-line shape of a late dispatcher (one slow delivery holds up the
// ones behind it); Options.PushDelay (fakes/variant_push.go) is the other,
// each push due a fixed time after its own event.

// holdLate keeps a delivery's first attempt back for PushOptions.Late. It
// returns false when the instance stopped meanwhile: the delivery is left
// claimed, and another instance takes it over when its lease runs out.
func (a *Agent) holdLate(d store.Delivery) bool {
	if a.opts.Push.Late <= 0 || d.Attempts > 0 {
		return true
	}
	select {
	case <-time.After(a.opts.Push.Late):
		return true
	case <-a.workCtx.Done():
		return false
	}
}

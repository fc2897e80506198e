package fakes

import (
	"context"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
)

// The asynchronous cancel (Options.AsyncCancel, `fake --async-cancel D`): a
// correct agent whose executor is told of a cancel through a queue. CancelTask
// answers at once with the task as it stands (WORKING), writes nothing, and
// applies the cancel D later unless the task ended first, in which case the
// task keeps the state it ended in. A2A v1.0.1 §3.1.5 has the operation
// return the task's "updated state" and says that "success is not
// guaranteed"; it does not say the answer must already be terminal, so both
// ends are allowed, and no spec may fail this agent.

// cancelAsync answers a cancel of task id under Options.AsyncCancel.
func (a *Agent) cancelAsync(ctx context.Context, id string) (*store.Task, *opError) {
	rec, oe := a.loadTask(ctx, id)
	if oe != nil {
		return nil, oe
	}
	if rec.Task.Status.State.Terminal() {
		// Nothing to queue: answered as a synchronous cancel is.
		return a.cancelTask(ctx, id)
	}
	// The identity the cancel came with, without the request's deadline.
	queued := context.WithoutCancel(ctx)
	a.workers.add()
	go func() {
		defer a.workers.done()
		timer := time.NewTimer(a.opts.AsyncCancel)
		defer timer.Stop()
		select {
		case <-a.workCtx.Done():
			return
		case <-timer.C:
		}
		cctx, cancel := context.WithTimeout(queued, store.BusyTimeout)
		defer cancel()
		// TaskNotCancelableError here means the task ended first: it
		// keeps its own terminal state.
		_, _ = a.cancelTask(cctx, id)
	}()
	return rec, nil
}

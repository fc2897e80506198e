package fakes

import (
	"context"
	"encoding/json"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// The late cancel-then-complete faults: a cancel is acknowledged with
// TASK_STATE_CANCELED, written and told to every stream and push, and the
// worker stops, as it should; then, Options.LateDelay later (default
// DefaultLateDelay), a second writer that never heard of the cancel (a
// queued completion, a retried executor) finishes the task anyway, past
// every spec's own watch of the task. Three shapes, one per channel the
// harness watches at the run's end.
//
// faultCancelThenCompleteLate: the task gains an artifact and turns
// COMPLETED, in the store (GetTask, on every instance), on its event log
// and in its pushes. The other two shapes are
// fault_cancel_then_artifact_late.go and
// fault_cancel_then_push_complete_late.go.
var faultCancelThenCompleteLate = register(FaultInfo{
	Name:        "cancel-then-complete-late",
	Scenario:    scenarioStaleCDN,
	Description: "Cancel is acknowledged with TASK_STATE_CANCELED and the task stops; then, --late-delay (default 500ms) after the cancel, the task gains an artifact and turns COMPLETED on every instance, on GetTask, events and pushes: a completion later than any spec's own watch.",
	Specs:       []string{"LIFE-011", "LIFE-012", "LIFE-013", "LIFE-014"},
})

// DefaultLateDelay is how long after an acknowledged cancel the late
// cancel-then-complete faults strike when Options.LateDelay is zero:
// later than the reference agent's own tasks take, so that only a watch
// that outlasts the task sees it.
const DefaultLateDelay = 500 * time.Millisecond

// lateAfterCancel starts, when one of the late faults is on, the writer
// that breaks the canceled task id later. It runs as a worker, so that a
// shutdown waits for it; an instance told to stop before the delay writes
// at once, as a queue flushing its pending work on shutdown does, so that
// a roll of the deployment does not hide the fault.
func (a *Agent) lateAfterCancel(id string) {
	var form string
	switch {
	case a.faults.has(faultCancelThenCompleteLate):
		form = faultCancelThenCompleteLate
	case a.faults.has(faultCancelThenArtifactLate):
		form = faultCancelThenArtifactLate
	case a.faults.has(faultCancelThenPushCompleteLate):
		form = faultCancelThenPushCompleteLate
	default:
		return
	}
	d := a.opts.LateDelay
	if d <= 0 {
		d = DefaultLateDelay
	}
	a.workers.add()
	go func() {
		defer a.workers.done()
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-a.workCtx.Done():
		case <-timer.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), store.BusyTimeout)
		defer cancel()
		if err := a.st.Update(ctx, func(tx *store.Tx) error { return a.lateWrite(tx, id, form) }); err != nil {
			a.log.Warn("late write after a cancel", "task", id, "fault", form, "err", err)
		}
	}()
}

// lateWrite is the late writer's one transaction.
func (a *Agent) lateWrite(tx *store.Tx, id, form string) error {
	rec, err := tx.Task(id)
	if err != nil {
		return err
	}
	if rec.Task.Status.State != a2a.TaskStateCanceled {
		return nil
	}
	now := time.Now()
	if form == faultCancelThenPushCompleteLate {
		told := *rec
		told.Task.Status = a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: stamp(now)}
		body, err := json.Marshal(statusEvent(&told))
		if err != nil {
			return err
		}
		return a.enqueuePushes(tx, id, a2a.TaskStateCompleted, body)
	}
	chunk := a2a.Artifact{ArtifactID: newID(), Name: "result", Parts: []a2a.Part{a2a.TextPart("finished after all")}}
	rec.Task.Artifacts = append(rec.Task.Artifacts, chunk)
	rec.Version++
	art := a2a.StreamResponse{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: id, ContextID: rec.Task.ContextID,
		Artifact: chunk, LastChunk: true}}
	if err := a.emit(tx, rec, art, ""); err != nil {
		return err
	}
	if form == faultCancelThenArtifactLate {
		return nil
	}
	rec.Task.Status, rec.StatusTime = a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: stamp(now)}, now
	rec.Version++
	return a.emit(tx, rec, statusEvent(rec), a2a.TaskStateCompleted)
}

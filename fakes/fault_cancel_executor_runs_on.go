package fakes

import (
	"encoding/json"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// faultCancelExecutorRunsOn: the second shape of the cross-instance cancel
// bug, as the real @a2a-js/sdk shows it on instances that share a store: a
// cancel received by an instance that is not running the task is written
// (GetTask shows TASK_STATE_CANCELED everywhere) but reaches no executor.
// The instance running the task never hears of it: its executor goes on,
// sends its own streams and the task's push configs the artifact and then
// TASK_STATE_COMPLETED, never TASK_STATE_CANCELED, and appends the artifact
// to the stored task, whose state stays TASK_STATE_CANCELED. On a single
// instance the fault is invisible.
var faultCancelExecutorRunsOn = register(FaultInfo{
	Name:        "cancel-executor-runs-on",
	Scenario:    scenarioStaleCDN,
	Description: "A cancel received by an instance that is not running the task is written (GetTask shows TASK_STATE_CANCELED everywhere) but never reaches the executor: the instance running the task goes on, sends its own streams and the push configs the artifact and then TASK_STATE_COMPLETED (never TASK_STATE_CANCELED), and appends the artifact to the stored, canceled task. On a single instance the fault is invisible.",
	Specs:       []string{"ROLL-006"},
})

// stepCanceled is one step of a task whose cancel, written by another
// instance, never reached this executor (cancel-executor-runs-on): an
// artifact is appended to the stored task, a status is not stored (the task
// stays TASK_STATE_CANCELED), and the event goes to the task's push configs
// and, through the returned event that the caller publishes once the
// transaction commits, to this instance's own streams only.
func (a *Agent) stepCanceled(tx *store.Tx, rec *store.Task, sc *script, st directive.Step) (*store.Event, error) {
	steps := sc.Directive.Steps()
	now := time.Now()
	var ev a2a.StreamResponse
	if st.State != "" {
		ev = a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: rec.Task.ID, ContextID: rec.Task.ContextID,
			Status: a2a.TaskStatus{State: st.State, Timestamp: stamp(now)}}}
	} else {
		ev = addChunk(&rec.Task, sc, st)
	}
	next := *sc
	next.Next++
	if next.Next >= len(steps) || st.State.Terminal() || st.State.Interrupted() {
		rec.Script, rec.Owner, rec.LeaseUntil = nil, "", time.Time{}
	} else {
		rec.Script, _ = json.Marshal(next)
		rec.LeaseUntil = now.Add(a.opts.LeaseTTL)
	}
	rec.Version++
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	if err := tx.SaveTask(rec); err != nil {
		return nil, err
	}
	if err := a.enqueuePushes(tx, rec.Task.ID, st.State, body); err != nil {
		return nil, err
	}
	*sc = next
	return &store.Event{TaskID: rec.Task.ID, Version: rec.Version, Origin: a.owner, State: st.State, Body: body}, nil
}

package fakes

import (
	"context"
	"encoding/json"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultPushNamesWrongTask: the dispatcher labels each push with "the
// deployment's current task" (the one most recently changed, other than
// the push's own) instead of carrying the id of the task the event is
// about: the config's owner is told about a task it never registered for,
// and its own task's events never reach it under its id. The first task of
// a fresh deployment is pushed correctly (there is no other task yet).
var faultPushNamesWrongTask = register(FaultInfo{
	Name:        "push-names-wrong-task",
	Description: "Each push body names another task of the deployment (the most recently changed one other than its own) instead of the task the event is about, whenever there is such a task.",
	Specs:       []string{"ROLL-003", "ROLL-004", "ROLL-009", "PUSH-003", "PUSH-004"},
})

// misaddressed returns d's body as the fault sends it: about the most
// recently changed other task of the store, when there is one.
func (a *Agent) misaddressed(ctx context.Context, d store.Delivery) []byte {
	if !a.faults.has(faultPushNamesWrongTask) {
		return d.Body
	}
	tasks, _, err := a.st.ListTasks(ctx, store.ListQuery{Limit: 2})
	if err != nil {
		return d.Body
	}
	other := ""
	for _, t := range tasks {
		if t.Task.ID != d.TaskID {
			other = t.Task.ID
			break
		}
	}
	var ev a2a.StreamResponse
	if other == "" || json.Unmarshal(d.Body, &ev) != nil {
		return d.Body
	}
	switch {
	case ev.StatusUpdate != nil:
		ev.StatusUpdate.TaskID = other
	case ev.ArtifactUpdate != nil:
		ev.ArtifactUpdate.TaskID = other
	case ev.Task != nil:
		ev.Task.ID = other
	case ev.Message != nil:
		ev.Message.TaskID = other
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return d.Body
	}
	return b
}

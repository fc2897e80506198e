package fakes

import (
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
)

// siblingWindow is how close in registration time two configs must be for
// the faulty dispatcher to treat them as one subscription.
const siblingWindow = 10 * time.Second

// faultPushMisroutedToSiblingConfig: the dispatcher resolves the webhooks of
// an event by registration time instead of by task: every config created
// within siblingWindow of one of the task's own configs is taken for one of
// the task's, so it receives the task's events. The bodies are honest (they
// name the task they are about, with its context); it is the routing that
// is wrong: a config is told about a task that is not its own. An agent
// with one config at a time behaves correctly; the fault shows as soon as a
// client registers configs for several tasks in a burst. It is a second,
// independent shape of "a push that names the wrong task",
// beside push-names-wrong-task, whose body lies about the task.
var faultPushMisroutedToSiblingConfig = register(FaultInfo{
	Name:        "push-misrouted-to-sibling-config",
	Description: "The dispatcher routes each task event also to every other task's push config registered within 10 s of one of the task's own configs (routing by registration time, not by task): a config receives correctly-labelled events about a task that is not its own.",
	Specs:       []string{"ROLL-003", "ROLL-004", "ROLL-009", "PUSH-004"},
})

// misroute enqueues, under the fault, the event of taskID to the configs of
// other tasks registered close in time to taskID's own, each delivery filed
// under the config's own task so that it is delivered like any other.
func (a *Agent) misroute(tx *store.Tx, taskID string, body []byte) error {
	if !a.faults.has(faultPushMisroutedToSiblingConfig) {
		return nil
	}
	cfgs, err := tx.ConfigsRegisteredNear(taskID, siblingWindow)
	if err != nil {
		return err
	}
	for _, c := range cfgs {
		if err := a.enqueueDelivery(tx, c.TaskID, c.ID, body); err != nil {
			return err
		}
	}
	return nil
}

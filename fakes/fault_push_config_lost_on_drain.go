package fakes

import (
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultPushConfigLostOnDrain: an instance that is draining (told to stop,
// still answering while it goes) acknowledges CreateTaskPushNotificationConfig
// as usual but keeps the config in its own memory, which dies with it: no
// other instance ever sees it, so the task's later transitions are pushed to
// nobody (scenario 2: "the registration returned 200 OK … Instance A was then
// drained … No webhook fired"). Registrations through a running instance are
// stored as usual, so only a registration that reaches a draining instance
// shows it.
var faultPushConfigLostOnDrain = register(FaultInfo{
	Name:        "push-config-lost-on-drain",
	Scenario:    scenarioRollout,
	Description: "An instance that is draining acknowledges CreateTaskPushNotificationConfig but keeps the config only in its own memory, never in the shared store: it is lost when the instance stops, and no instance delivers to it.",
	Specs:       []string{"ROLL-009"},
})

// lostOnDrain keeps c in instance memory instead of the store when the
// fault is on and the instance drains; it reports whether it did.
func (a *Agent) lostOnDrain(c a2a.TaskPushNotificationConfig) bool {
	if !a.faults.has(faultPushConfigLostOnDrain) || !a.draining.Load() {
		return false
	}
	a.memMu.Lock()
	defer a.memMu.Unlock()
	a.memConfigs[[2]string{c.TaskID, c.ID}] = memConfig{cfg: c, created: time.Now().UnixNano()}
	return true
}

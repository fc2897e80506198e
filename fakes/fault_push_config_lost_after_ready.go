package fakes

import (
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultPushConfigLostAfterReady: scenario 2's lost registration in a second
// shape, independent of card-before-ready. The instance gates its card
// correctly (503 with Retry-After while it warms up), but for its first
// two seconds after it became ready its store connection is not yet up: a
// config registered in that window (inline or through Create) is
// acknowledged from a local buffer that is never written anywhere, so no
// instance ever delivers to it (nor lists it), while configs registered
// later are delivered. Unlike push-config-lost-on-drain (a draining
// instance), push-config-not-durable (every config, in memory) and
// push-dispatcher-snapshot (every config registered after start-up), only a
// registration that reaches an instance that has just become ready shows
// it: the first one after a restart, or one through the new instance of a
// roll.
var faultPushConfigLostAfterReady = register(FaultInfo{
	Name:        "push-config-lost-after-ready",
	Scenario:    scenarioRollout,
	Description: "For its first two seconds after it becomes ready an instance acknowledges push configs (inline or through Create) but keeps them only in a local buffer that is never stored: no instance delivers to them (or lists them), while configs registered later are delivered.",
	Specs:       []string{"ROLL-004", "ROLL-009"},
})

// lostAfterReadyWindow is how long after readiness registrations are lost.
const lostAfterReadyWindow = 2 * time.Second

// lostAfterReady keeps c in instance memory, never stored nor delivered,
// when the fault is on and the instance became ready less than
// lostAfterReadyWindow ago; it reports whether it did.
func (a *Agent) lostAfterReady(c a2a.TaskPushNotificationConfig) bool {
	if !a.faults.has(faultPushConfigLostAfterReady) || !a.ready.Load() || time.Since(a.readyAt) >= lostAfterReadyWindow {
		return false
	}
	a.memMu.Lock()
	defer a.memMu.Unlock()
	a.memConfigs[[2]string{c.TaskID, c.ID}] = memConfig{cfg: c, created: time.Now().UnixNano()}
	return true
}

// noteUnindexed records a config registered while the instance was still
// warming up under card-before-ready: this instance's dispatcher never
// delivers to it.
func (a *Agent) noteUnindexed(c a2a.TaskPushNotificationConfig) {
	if !a.faults.has(faultCardBeforeReady) || a.ready.Load() {
		return
	}
	a.memMu.Lock()
	defer a.memMu.Unlock()
	if a.unindexed == nil {
		a.unindexed = map[[2]string]bool{}
	}
	a.unindexed[[2]string{c.TaskID, c.ID}] = true
}

func (a *Agent) isUnindexed(taskID, id string) bool {
	a.memMu.Lock()
	defer a.memMu.Unlock()
	return a.unindexed[[2]string{taskID, id}]
}

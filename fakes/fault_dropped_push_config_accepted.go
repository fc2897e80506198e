package fakes

import (
	"encoding/json"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultDroppedPushConfigAccepted: a later build (generation 2 on) that no
// longer offers push notifications, and whose card says so, still answers
// CreateTaskPushNotificationConfig with the config as the build before it
// did, but stores nothing, so nothing is ever delivered (scenario 3: a
// client acting on a stale card is accepted and silently ignored).
var faultDroppedPushConfigAccepted = register(FaultInfo{
	Name:        "dropped-push-config-accepted",
	Scenario:    scenarioStaleCDN,
	Description: "A later build that dropped push notifications (its card says pushNotifications false) still answers CreateTaskPushNotificationConfig with the config, as the previous build did, and silently drops it instead of failing with PushNotificationNotSupportedError.",
	Specs:       []string{"ROLL-007"},
})

// droppedPushAccepted answers a config the build cannot deliver as if it
// had stored it.
func (a *Agent) droppedPushAccepted(c *a2a.TaskPushNotificationConfig) ([]byte, bool) {
	if a.doPush || !a.faults.has(faultDroppedPushConfigAccepted) || a.Generation() < 2 {
		return nil, false
	}
	cfg := withTask(*c, c.TaskID)
	cfg.Extra = nil
	b, _ := json.Marshal(cfg)
	return b, true
}

// createGate is pushGate for CreateTaskPushNotificationConfig, which the
// fault lets through to droppedPushAccepted.
func (a *Agent) createGate() *opError {
	if !a.doPush && a.faults.has(faultDroppedPushConfigAccepted) && a.Generation() >= 2 {
		return nil
	}
	return a.pushGate()
}

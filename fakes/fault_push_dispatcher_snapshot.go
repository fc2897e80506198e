package fakes

// faultPushDispatcherSnapshot: The push dispatcher snapshots the registered configs at start-up and only ever delivers to
// those: a config registered after the instance started (inline or through Create) is acknowledged
// and never delivered.
var faultPushDispatcherSnapshot = register(FaultInfo{
	Name:        "push-dispatcher-snapshot",
	Scenario:    scenarioRollout,
	Description: "The push dispatcher snapshots the registered configs at start-up and only ever delivers to those: a config registered after the instance started (inline or through Create) is acknowledged and never delivered.",
	Specs:       []string{"PUSH-003", "PUSH-004", "PUSH-006", "ROLL-009"},
})

package fakes

// faultPushConfigNotDurable: Push configs live in the accepting instance's memory, not the store: other instances neither
// list nor deliver to them, and they vanish when that instance restarts.
var faultPushConfigNotDurable = register(FaultInfo{
	Name:        "push-config-not-durable",
	Scenario:    scenarioRollout,
	Description: "Push configs live in the accepting instance's memory, not the store: other instances neither list nor deliver to them, and they vanish when that instance restarts.",
	Specs:       []string{"PUSH-009", "ROLL-003", "ROLL-009"},
})

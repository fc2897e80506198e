package fakes

// faultCancelThenComplete: Cancel is acknowledged with TASK_STATE_CANCELED, but the worker ignores it and carries on with
// its script: the task later moves on and completes, on GetTask, streams and pushes.
var faultCancelThenComplete = register(FaultInfo{
	Name:        "cancel-then-complete",
	Scenario:    scenarioStaleCDN,
	Description: "Cancel is acknowledged with TASK_STATE_CANCELED, but the worker ignores it and carries on with its script: the task later moves on and completes, on GetTask, streams and pushes.",
	Specs:       []string{"LIFE-011", "LIFE-012", "LIFE-014"},
})

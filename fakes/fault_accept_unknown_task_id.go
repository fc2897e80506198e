package fakes

// faultAcceptUnknownTaskID: A message naming a taskId the agent has no record of creates a new task under that id (client-
// chosen ids) instead of failing with TaskNotFoundError (-32001).
var faultAcceptUnknownTaskID = register(FaultInfo{
	Name:        "accept-unknown-task-id",
	Scenario:    scenarioRotation,
	Description: "A message naming a taskId the agent has no record of creates a new task under that id (client-chosen ids) instead of failing with TaskNotFoundError (-32001).",
	Specs:       []string{"LIFE-006"},
})

package fakes

// faultLoseTasksOnRestart: The instance behaves as if task state were in memory: tasks created before it started are
// unknown (TaskNotFoundError), and a message naming one re-creates it as a fresh
// TASK_STATE_SUBMITTED task under the same id.
var faultLoseTasksOnRestart = register(FaultInfo{
	Name:        "lose-tasks-on-restart",
	Scenario:    scenarioRotation,
	Description: "The instance behaves as if task state were in memory: tasks created before it started are unknown (TaskNotFoundError), and a message naming one re-creates it as a fresh TASK_STATE_SUBMITTED task under the same id.",
	Specs:       []string{"ROLL-002", "ROLL-003"},
})

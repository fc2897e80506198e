package fakes

// faultRollOrphansTasks: the instance keeps its running work in memory:
// when it stops (a drain, a rolling restart) its tasks are never carried on
// by another instance, and stay in their last state (TASK_STATE_WORKING) on
// every instance for good: scenario 1's orphan, seen by the client as a task
// that never ends.
var faultRollOrphansTasks = register(FaultInfo{
	Name:        "roll-orphans-tasks",
	Scenario:    scenarioRotation,
	Description: "An instance's running work lives in its memory: when it stops (a drain, a rolling restart) no other instance carries its tasks on, and they stay TASK_STATE_WORKING on every instance for good.",
	Specs:       []string{"ROLL-002", "ROLL-003"},
})

package fakes

import "time"

// lostTaskWriteBehind is how long after its TaskNotFoundError answer the
// write-behind worker of lost-task-recreated-after-not-found re-creates the
// task.
const lostTaskWriteBehind = 500 * time.Millisecond

// faultLostTaskRecreatedAfterNotFound: the instance loses the tasks created
// before it started and answers a follow-up naming one with
// TaskNotFoundError, whatever the follow-up names with it; but the message
// was queued, and half a second later a write-behind worker re-creates the
// task under that id from the follow-up alone, in a fresh context: a client
// that took the answer at its word holds an id that now names another task.
var faultLostTaskRecreatedAfterNotFound = register(FaultInfo{
	Name:        "lost-task-recreated-after-not-found",
	Scenario:    scenarioRotation,
	Description: "Tasks created before the instance started are unknown to it; a follow-up naming one is answered TaskNotFoundError, and 500 ms later a write-behind worker re-creates the task under that id from the follow-up alone, in a fresh context.",
	Specs:       []string{"ROLL-002", "ROLL-003"},
})

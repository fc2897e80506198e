package fakes

// faultSubscribeUnknownOnReplica: the second shape of a resubscribe on a
// replica that does not hold the task (a2a-python PRs #1244/#1245): the
// instance keeps each task's stream queue in its own memory, so an instance
// that is not running the task answers SubscribeToTask with
// TaskNotFoundError, though GetTask through that same instance finds the
// task in the shared store. (stream-events-stay-local is the first shape: the
// stream is opened, and then hears nothing.) On a single instance the fault
// is invisible.
var faultSubscribeUnknownOnReplica = register(FaultInfo{
	Name:        "subscribe-unknown-on-replica",
	Scenario:    scenarioRollout,
	Description: "SubscribeToTask through an instance that is not running the task answers TaskNotFoundError, as if the task's stream queue, held in the memory of the instance running it, were the task; GetTask through that same instance finds the task in the shared store. On a single instance the fault is invisible.",
	Specs:       []string{"ROLL-005"},
})

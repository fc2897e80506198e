package fakes

// faultCancelSilentAcrossReplicas: a third shape of the cross-instance
// cancel bug, the one users report of replicated Python agents: a cancel
// received by an instance that is not running the task is written and stops
// the executor, but no event is sent for it. The streams held by the
// instance running the task never get TASK_STATE_CANCELED and are never
// closed, and no push of the cancel goes to the task's configs; GetTask
// shows TASK_STATE_CANCELED everywhere. On a single instance the fault is
// invisible.
var faultCancelSilentAcrossReplicas = register(FaultInfo{
	Name:        "cancel-silent-across-replicas",
	Scenario:    scenarioStaleCDN,
	Description: "A cancel received by an instance that is not running the task is written and stops the executor, but no event is sent for it: the streams held by the instance running the task never get TASK_STATE_CANCELED and are never closed, and no push of the cancel goes out; GetTask shows TASK_STATE_CANCELED everywhere. On a single instance the fault is invisible.",
	Specs:       []string{"ROLL-006"},
})

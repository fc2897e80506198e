package fakes

// faultCancelUnpushedAcrossReplicas: the push half of the cross-instance
// cancel bug users report of replicated Python agents (a2a-python #1175):
// only the instance running a task sends its pushes, so a cancel received by
// another instance is written, stops the executor and reaches every stream,
// but goes to none of the task's push configs. GetTask and the streams show
// TASK_STATE_CANCELED; a client that relies on its webhook never learns the
// task ended. (cancel-silent-across-replicas is the stream half: no event
// at all.) On a single instance the fault is invisible.
var faultCancelUnpushedAcrossReplicas = register(FaultInfo{
	Name:        "cancel-unpushed-across-replicas",
	Scenario:    scenarioStaleCDN,
	Description: "A cancel received by an instance that is not running the task is written, stops the executor and reaches every stream, but is never pushed: only the instance running a task sends its pushes. GetTask and the streams show TASK_STATE_CANCELED; the task's push configs never get it. On a single instance the fault is invisible.",
	Specs:       []string{"ROLL-006"},
})

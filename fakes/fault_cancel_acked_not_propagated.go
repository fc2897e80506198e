package fakes

// faultCancelAckedNotPropagated: A cancel received by an instance that is not running the task is answered with a
// TASK_STATE_CANCELED task but never written: the instance running it completes it, and GetTask
// never shows the cancel. On a single instance the fault is invisible.
var faultCancelAckedNotPropagated = register(FaultInfo{
	Name:        "cancel-acked-not-propagated",
	Scenario:    scenarioStaleCDN,
	Description: "A cancel received by an instance that is not running the task is answered with a TASK_STATE_CANCELED task but never written: the instance running it completes it, and GetTask never shows the cancel. On a single instance the fault is invisible.",
	Specs:       []string{"ROLL-006"},
})

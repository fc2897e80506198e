package fakes

// faultStaleCopyReopensEnded: the second shape of a replica resuming from a
// stale copy (a2a-python #1188): the instance that left a task waiting for
// input takes a follow-up for it on its own copy, though another instance
// has since ended the task. The message is accepted and the task resumed:
// its terminal state is replaced by TASK_STATE_WORKING and then by the new
// turn's outcome. On a single instance the copy is always the newest, and
// the fault is invisible.
var faultStaleCopyReopensEnded = register(FaultInfo{
	Name:        "stale-copy-reopens-ended",
	Scenario:    scenarioStaleCDN,
	Description: "An instance that last left a task waiting for input takes a follow-up for it on its own copy, though another instance has since ended the task (canceled it): the message is accepted and the task resumed, its terminal state replaced by TASK_STATE_WORKING and then the new turn's outcome. On a single instance the fault is invisible.",
	Specs:       []string{"ROLL-010"},
})

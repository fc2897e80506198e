package fakes

// faultCancelTerminalAccepted: CancelTask of a completed, failed or rejected
// task answers with the task as it is instead of TaskNotCancelableError, the
// way an SDK that treats every cancel of a finished task as a no-op would.
var faultCancelTerminalAccepted = register(FaultInfo{
	Name:        "cancel-terminal-accepted",
	Scenario:    scenarioStaleCDN,
	Description: "CancelTask of a task in a terminal state answers 200 with the task unchanged instead of TaskNotCancelableError (-32002).",
	Specs:       []string{"LIFE-013"},
})

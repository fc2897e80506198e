package fakes

// faultTerminalStateMutates: A message to a task in a terminal state reopens it (TASK_STATE_WORKING, then the new script's
// outcome) instead of failing with UnsupportedOperationError: a terminal state changes.
var faultTerminalStateMutates = register(FaultInfo{
	Name:        "terminal-state-mutates",
	Scenario:    scenarioStaleCDN,
	Description: "A message to a task in a terminal state reopens it (TASK_STATE_WORKING, then the new script's outcome) instead of failing with UnsupportedOperationError: a terminal state changes.",
	Specs:       []string{"LIFE-008", "LIFE-011", "LIFE-026"},
})

package fakes

// faultContextMismatchAccepted: a follow-up whose contextId contradicts its
// task's is served (the task's context wins) instead of rejected.
var faultContextMismatchAccepted = register(FaultInfo{
	Name:        "context-mismatch-accepted",
	Scenario:    "",
	Description: "A follow-up whose contextId contradicts its task's context is served, the task's own context silently winning, instead of rejected (spec §3.4.3 MUST).",
	Specs:       []string{"LIFE-010"},
})

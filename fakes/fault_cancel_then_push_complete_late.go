package fakes

// faultCancelThenPushCompleteLate: a late cancel-then-complete
// (fault_cancel_then_complete_late.go) in which the store keeps the task
// CANCELED, but a push says it COMPLETED: only the push channel shows it.
var faultCancelThenPushCompleteLate = register(FaultInfo{
	Name:        "cancel-then-push-complete-late",
	Scenario:    scenarioStaleCDN,
	Description: "Cancel is acknowledged with TASK_STATE_CANCELED and GetTask keeps saying so; then, --late-delay (default 500ms) after the cancel, every push config of the task gets a status update saying TASK_STATE_COMPLETED.",
	Specs:       []string{"LIFE-011", "PUSH-008"},
})

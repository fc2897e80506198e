package fakes

// faultCancelThenArtifactLate: a late cancel-then-complete
// (fault_cancel_then_complete_late.go) in which the task gains an artifact
// and stays CANCELED: only its artifacts show the late writer.
var faultCancelThenArtifactLate = register(FaultInfo{
	Name:        "cancel-then-artifact-late",
	Scenario:    scenarioStaleCDN,
	Description: "Cancel is acknowledged with TASK_STATE_CANCELED and the task stops; then, --late-delay (default 500ms) after the cancel, an artifact is appended to the canceled task, which stays TASK_STATE_CANCELED, on GetTask, events and pushes.",
	Specs:       []string{"LIFE-011", "LIFE-012", "LIFE-013", "LIFE-014"},
})

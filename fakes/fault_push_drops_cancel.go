package fakes

// faultPushDropsCancel: The TASK_STATE_CANCELED transition is never pushed; every other transition is.
var faultPushDropsCancel = register(FaultInfo{
	Name:        "push-drops-cancel",
	Scenario:    scenarioStaleCDN,
	Description: "The TASK_STATE_CANCELED transition is never pushed; every other transition is.",
	Specs:       []string{"PUSH-008"},
})

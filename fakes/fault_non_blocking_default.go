package fakes

// faultNonBlockingDefault: SendMessage returns at once (TASK_STATE_SUBMITTED) even when returnImmediately is false or
// absent, instead of blocking until a terminal or interrupted state.
var faultNonBlockingDefault = register(FaultInfo{
	Name:        "non-blocking-default",
	Scenario:    "",
	Description: "SendMessage returns at once (TASK_STATE_SUBMITTED) even when returnImmediately is false or absent, instead of blocking until a terminal or interrupted state.",
	Specs:       []string{"LIFE-004"},
})

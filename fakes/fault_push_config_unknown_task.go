package fakes

// faultPushConfigUnknownTask: CreateTaskPushNotificationConfig for a task id
// the agent never issued succeeds (and stores a config for no task) instead
// of failing with TaskNotFoundError (§3.1.7).
var faultPushConfigUnknownTask = register(FaultInfo{
	Name:        "push-config-unknown-task",
	Scenario:    scenarioRotation,
	Description: "Creating a push config for a task id the agent never issued succeeds instead of failing with TaskNotFoundError: a client bound to a task that did not survive a rotation is told its webhook is registered.",
	Specs:       []string{"PUSH-002"},
})

package fakes

// faultAuthRequiredNoMessage: a task that asks for authorization enters
// TASK_STATE_AUTH_REQUIRED with no status message, so the client is not told
// what authorization is needed (spec §7.6.1: the agent MUST say so in the
// status message unless negotiated out of band).
var faultAuthRequiredNoMessage = register(FaultInfo{
	Name:        "auth-required-no-message",
	Scenario:    "",
	Description: "A task that asks for authorization enters TASK_STATE_AUTH_REQUIRED with no status message explaining what is needed (spec §7.6.1: MUST include one).",
	Specs:       []string{"LIFE-030"},
})

package fakes

// faultAuthRequiredClosesStream: SendStreamingMessage ends its stream as soon
// as the task enters TASK_STATE_AUTH_REQUIRED, as it does for INPUT_REQUIRED,
// so a client waiting for the task to go on once the credential arrives out
// of band loses its stream (spec §7.6.1: the agent SHOULD maintain active
// response streams after setting AUTH_REQUIRED).
var faultAuthRequiredClosesStream = register(FaultInfo{
	Name:        "auth-required-closes-stream",
	Description: "SendStreamingMessage closes its stream when the task enters TASK_STATE_AUTH_REQUIRED (spec §7.6.1 SHOULD keep active response streams up while the credential is obtained out of band).",
	Specs:       []string{"LIFE-033"},
})

package fakes

// faultReturnImmediatelyIgnored: SendMessage blocks until the task settles
// even when returnImmediately is true.
var faultReturnImmediatelyIgnored = register(FaultInfo{
	Name:        "return-immediately-ignored",
	Scenario:    "",
	Description: "SendMessage ignores configuration.returnImmediately and blocks until the task is terminal or interrupted (spec §3.2.2: return once the task exists).",
	Specs:       []string{"LIFE-005"},
})

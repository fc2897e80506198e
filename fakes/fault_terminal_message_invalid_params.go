package fakes

// faultTerminalMessageInvalidParams: A message to a task in a terminal state is answered InvalidParamsError (-32602), as a2a-go and
// a2a-python do, instead of UnsupportedOperationError (-32004).
var faultTerminalMessageInvalidParams = register(FaultInfo{
	Name:        "terminal-message-invalid-params",
	Scenario:    "",
	Description: "A message to a task in a terminal state is answered InvalidParamsError (-32602), as a2a-go and a2a-python do, instead of UnsupportedOperationError (-32004).",
	Specs:       []string{"LIFE-008", "LIFE-026"},
})

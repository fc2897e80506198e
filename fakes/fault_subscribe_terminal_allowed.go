package fakes

// faultSubscribeTerminalAllowed: SubscribeToTask on a terminal task sends the snapshot and closes instead of failing with
// UnsupportedOperationError (-32004).
var faultSubscribeTerminalAllowed = register(FaultInfo{
	Name:        "subscribe-terminal-allowed",
	Scenario:    "",
	Description: "SubscribeToTask on a terminal task sends the snapshot and closes instead of failing with UnsupportedOperationError (-32004).",
	Specs:       []string{"LIFE-019"},
})

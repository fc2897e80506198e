package clientdriver

// faultMergesTerminalAfterCancel: Merges a terminal state that arrives after its acknowledged cancel (no cancel guard).
var faultMergesTerminalAfterCancel = registerFault(Fault{
	Name:        "merges-terminal-after-cancel",
	Description: "Merges a terminal state that arrives after its acknowledged cancel (no cancel guard).",
	Specs:       []string{"CLI-023", "CLI-038"},
})

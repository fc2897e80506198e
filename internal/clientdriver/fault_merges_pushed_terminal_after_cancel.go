package clientdriver

// faultMergesPushedTerminalAfterCancel: The cancel guard covers the stream
// and polls but not the push receiver: a terminal state pushed after the
// acknowledged cancel is merged (the third channel of
// merges-terminal-after-cancel).
var faultMergesPushedTerminalAfterCancel = registerFault(Fault{
	Name:        "merges-pushed-terminal-after-cancel",
	Description: "After its acknowledged cancel, merges a terminal state that arrives in a push (the stream and polls stay guarded).",
	Specs:       []string{"CLI-038"},
})

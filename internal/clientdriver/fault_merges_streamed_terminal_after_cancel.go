package clientdriver

// faultMergesStreamedTerminalAfterCancel: The cancel guard covers polls but
// not the stream: a terminal state streamed after the acknowledged cancel is
// merged (one channel of merges-terminal-after-cancel).
var faultMergesStreamedTerminalAfterCancel = registerFault(Fault{
	Name:        "merges-streamed-terminal-after-cancel",
	Description: "After its acknowledged cancel, merges a terminal state that arrives on the stream (polls stay guarded).",
	Specs:       []string{"CLI-023"},
})

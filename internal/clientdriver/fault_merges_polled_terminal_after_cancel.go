package clientdriver

// faultMergesPolledTerminalAfterCancel: The cancel guard covers the stream
// but not polls: a terminal state GetTask serves after the acknowledged
// cancel is merged (the other channel of merges-terminal-after-cancel).
var faultMergesPolledTerminalAfterCancel = registerFault(Fault{
	Name:        "merges-polled-terminal-after-cancel",
	Description: "After its acknowledged cancel, merges a terminal state GetTask serves (the stream stays guarded).",
	Specs:       []string{"CLI-023"},
})

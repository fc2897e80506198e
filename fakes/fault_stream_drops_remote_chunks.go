package fakes

// faultStreamDropsRemoteChunks: a stream relays the first artifact update it
// sees of each artifact of a task another instance works, and drops the
// chunks appended after it, as a relay that forwards an artifact's creation
// but not its appends would: the stream ends with a truncated artifact. The
// second shape of stream-drops-remote-artifacts.
var faultStreamDropsRemoteChunks = register(FaultInfo{
	Name:        "stream-drops-remote-chunks",
	Scenario:    scenarioRollout,
	Description: "A stream of a task worked on another instance carries the first update of each artifact it sees, then drops the chunks appended to it; the status updates and the terminal state arrive, and the stream closes.",
	Specs:       []string{"ROLL-005"},
})

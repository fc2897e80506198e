package clientdriver

// faultErrorAsEmptyStream: Reads a plain error answering a streaming request as an empty, successful stream (the SDK bug class).
var faultErrorAsEmptyStream = registerFault(Fault{
	Name:        "error-as-empty-stream",
	Description: "Reads a plain error answering a streaming request as an empty, successful stream (the SDK bug class).",
	Specs:       []string{"CLI-004", "CLI-029"},
})

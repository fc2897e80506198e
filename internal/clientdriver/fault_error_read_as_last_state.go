package clientdriver

// faultErrorReadAsLastState: An A2A error answering a GetTask poll is
// swallowed: the client stops polling and reports the task as it last saw
// it (ACTS CLIENT-PARSE-004).
var faultErrorReadAsLastState = registerFault(Fault{
	Name:        "error-read-as-last-state",
	Description: "Swallows an A2A error answering a GetTask poll and reports the task as it last saw it.",
	Specs:       []string{"CLI-033"},
})

package clientdriver

// faultIgnoresCapabilities: Streams and subscribes whatever the card's capabilities.streaming says (ACTS CLIENT-CAP-001).
var faultIgnoresCapabilities = registerFault(Fault{
	Name:        "ignores-capabilities",
	Description: "Streams and subscribes whatever the card's capabilities.streaming says (ACTS CLIENT-CAP-001).",
	Specs:       []string{"CLI-039"},
})

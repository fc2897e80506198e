package clientdriver

// variantReturnsImmediately: every send is non-blocking
// (configuration.returnImmediately), the task then polled with GetTask until
// it settles, as a client that never holds a connection open for a task's
// work does. A2A v1.0 §3.1.1: returnImmediately is the client's choice.
var variantReturnsImmediately = registerVariant(Variant{
	Name:        "returns-immediately",
	Description: "Sends every message non-blocking (returnImmediately) and polls GetTask until the task settles, in the send and follow-up actions too.",
	Specs:       []string{"CLI-020", "CLI-021", "CLI-030", "CLI-031", "CLI-034"},
})

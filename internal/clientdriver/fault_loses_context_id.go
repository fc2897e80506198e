package clientdriver

// faultLosesContextID: Reads a task's context only under its proto name
// (context_id), so a ProtoJSON answer's contextId is lost: the client
// reports tasks with no context (an SDK parse bug class; ACTS CLIENT-PARSE-*).
var faultLosesContextID = registerFault(Fault{
	Name:        "loses-context-id",
	Description: "Reads a task's context only as context_id, so the contextId of every ProtoJSON answer is lost.",
	Specs:       []string{"CLI-030", "CLI-032", "CLI-034", "CLI-035"},
})

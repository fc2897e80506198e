package clientdriver

// faultMessageResultDropped: Expects every SendMessage answer to be a task
// and raises a protocol error on a Message answer (ACTS CLIENT-PARSE-002).
var faultMessageResultDropped = registerFault(Fault{
	Name:        "message-result-dropped",
	Description: "Takes a SendMessage answer that is a Message (not a Task) for a protocol error.",
	Specs:       []string{"CLI-031"},
})

package clientdriver

// faultStreamCutReadAsEnd: A stream whose connection breaks before the task
// is terminal is taken for a stream that ended: no error, no resync (an SDK
// bug class: an async iterator that just stops at a broken body).
var faultStreamCutReadAsEnd = registerFault(Fault{
	Name:        "stream-cut-read-as-end",
	Description: "Takes a stream cut before a terminal state for its normal end: raises nothing and does not resync.",
	Specs:       []string{"CLI-036"},
})

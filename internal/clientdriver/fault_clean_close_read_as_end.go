package clientdriver

// faultCleanCloseReadAsEnd: a stream whose body ends as a complete response
// before the task is terminal is taken for the stream's normal end, while a
// broken connection is still raised (an SDK bug class: an async iterator
// that stops at the end of the body and asks nothing more).
var faultCleanCloseReadAsEnd = registerFault(Fault{
	Name:        "clean-close-read-as-end",
	Description: "Raises a stream whose connection breaks, but takes a stream that ends cleanly before a terminal state for the task's end: no error, no resync.",
	Specs:       []string{"CLI-036"},
})

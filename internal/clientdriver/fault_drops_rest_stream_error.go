package clientdriver

// faultDropsRESTStreamError: on HTTP+JSON, an error the agent sends inside a
// stream ({"error": …}, with or without event: error) is read as an event
// with no content, and the end of the response that follows as the end of
// the stream: no error, no resync (an SDK bug class: a REST stream decoder
// that knows only StreamResponse members).
var faultDropsRESTStreamError = registerFault(Fault{
	Name:        "drops-rest-stream-error",
	Description: "On HTTP+JSON, reads an error inside a stream as an empty event and the end that follows as the stream's end: raises nothing and does not resync.",
	Specs:       []string{"CLI-008"},
})

package clientdriver

// faultAbortsOnUnknownEvent: a stream event whose StreamResponse holds only a
// member this client does not know (a kind of event added after v1.0) ends
// the stream with an error, instead of being skipped as an unknown field is
// (an SDK bug class: a oneof decoder that refuses what it cannot name).
var faultAbortsOnUnknownEvent = registerFault(Fault{
	Name:        "aborts-on-unknown-event",
	Description: "Raises a protocol error and stops reading at a stream event of a kind it does not know, instead of skipping it.",
	Specs:       []string{"CLI-003"},
})

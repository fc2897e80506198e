package clientdriver

// faultNoFallback: Gives up when its interface refuses the connection, never trying another declared one.
var faultNoFallback = registerFault(Fault{
	Name:        "no-fallback",
	Description: "Gives up when its interface refuses the connection, never trying another declared one.",
	Specs:       []string{"CLI-007"},
})

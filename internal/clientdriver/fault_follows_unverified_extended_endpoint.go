package clientdriver

// faultFollowsUnverifiedExtendedEndpoint: the client raises the extended
// card's failed signature, then moves to the interfaces that card declares.
var faultFollowsUnverifiedExtendedEndpoint = registerFault(Fault{
	Name:        "follows-unverified-extended-endpoint",
	Description: "Sends its next requests to the interfaces of an extended card whose signature failed.",
	Specs:       []string{"CLI-013"},
})

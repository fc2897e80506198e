package clientdriver

// faultPicksLastInterface: Among declared interfaces of one binding, uses the last listed, not the first (the @a2a-js/sdk 1.3.0 ClientFactory shape); bindings are still tried in the card's order.
var faultPicksLastInterface = registerFault(Fault{
	Name:        "picks-last-interface",
	Description: "Among declared interfaces of one binding, uses the last listed, not the first (the @a2a-js/sdk 1.3.0 ClientFactory shape); bindings are still tried in the card's order.",
	Specs:       []string{"CLI-005"},
})

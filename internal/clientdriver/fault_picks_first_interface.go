package clientdriver

// faultPicksFirstInterface: Takes the card's first interface whatever its binding, and speaks JSON-RPC to it (the SDK bug class).
var faultPicksFirstInterface = registerFault(Fault{
	Name:        "picks-first-interface",
	Description: "Takes the card's first interface whatever its binding, and speaks JSON-RPC to it (the SDK bug class).",
	Specs:       []string{"CLI-005", "CLI-006", "CLI-007"},
})

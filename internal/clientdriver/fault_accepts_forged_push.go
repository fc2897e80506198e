package clientdriver

// faultAcceptsForgedPush: Accepts and merges pushes that do not carry the config's token.
var faultAcceptsForgedPush = registerFault(Fault{
	Name:        "accepts-forged-push",
	Description: "Accepts and merges pushes that do not carry the config's token.",
	Specs:       nil, // the scenario specs (CLI-020…) name it when they land
})

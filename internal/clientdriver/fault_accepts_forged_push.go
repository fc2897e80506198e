package clientdriver

// faultAcceptsForgedPush: Accepts and merges pushes that do not carry the config's token.
var faultAcceptsForgedPush = registerFault(Fault{
	Name:        "accepts-forged-push",
	Description: "Accepts and merges pushes that do not carry the config's token.",
	Specs:       []string{"CLI-024", "CLI-025"},
})

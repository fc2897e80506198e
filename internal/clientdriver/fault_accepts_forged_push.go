package clientdriver

// faultAcceptsForgedPush: Accepts and merges pushes that do not carry the config's token, and pushes about tasks it did not create.
var faultAcceptsForgedPush = registerFault(Fault{
	Name:        "accepts-forged-push",
	Description: "Accepts and merges pushes that do not carry the config's token, and pushes about tasks it did not create.",
	Specs:       []string{"CLI-024", "CLI-025"},
})

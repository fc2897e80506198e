package clientdriver

// faultNoVersionHeader: Sends no A2A-Version header on any request.
var faultNoVersionHeader = registerFault(Fault{
	Name:        "no-version-header",
	Description: "Sends no A2A-Version header on any request.",
	Specs:       []string{"CLI-001"},
})

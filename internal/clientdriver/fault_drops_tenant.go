package clientdriver

// faultDropsTenant: Never copies the interface's tenant into its requests (the SDK bug class).
var faultDropsTenant = registerFault(Fault{
	Name:        "drops-tenant",
	Description: "Never copies the interface's tenant into its requests (the SDK bug class).",
	Specs:       []string{"CLI-002"},
})

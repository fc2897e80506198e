package clientdriver

// faultCallerTenantWins: a tenant the application passes to the client
// replaces the one the selected interface declares, and is sent where the
// interface declares none (an SDK bug class: the caller's tenant taken
// before the card's).
var faultCallerTenantWins = registerFault(Fault{
	Name:        "caller-tenant-wins",
	Description: "Sends the application's own tenant (A2A_CONFORM_TENANT) instead of the one the selected interface declares, and sends it where the interface declares none.",
	Specs:       []string{"CLI-002"},
})

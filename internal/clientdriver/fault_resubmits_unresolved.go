package clientdriver

// faultResubmitsUnresolved: the client never re-resolves its card once it
// has one, and re-submits a task lost across a rotation, openly
// (resubmittedTaskId), on that card: the new task goes to whatever the card
// fetched before the rotation described (an orchestrator bug class: the card
// as a DNS record, not a lease).
var faultResubmitsUnresolved = registerFault(Fault{
	Name:        "resubmits-unresolved",
	Description: "Never revalidates its card, and re-submits a task lost across a rotation (reported as resubmittedTaskId) on the card fetched before the rotation.",
	Specs:       []string{"CLI-020", "CLI-021"},
})

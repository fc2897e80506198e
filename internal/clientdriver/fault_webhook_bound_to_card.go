package clientdriver

// faultWebhookBoundToCard: The push receiver treats its webhook binding as
// belonging to the card generation it resolved: once the card's ETag
// changes it refuses every push with 401, the task's own push config
// notwithstanding (scenario 1's bug, the other way round).
var faultWebhookBoundToCard = registerFault(Fault{
	Name:        "webhook-bound-to-card",
	Description: "The push receiver re-reads the card on each push and refuses (401) every push once the card's ETag changed, whatever the task's push config says.",
	Specs:       []string{"CLI-022"},
})

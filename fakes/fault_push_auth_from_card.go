package fakes

// faultPushAuthFromCard: Webhook calls carry an Authorization header derived from what the card currently advertises
// ("<card scheme> card-generation-<N>") instead of the scheme and credentials of the task's own
// push config.
var faultPushAuthFromCard = register(FaultInfo{
	Name:        "push-auth-from-card",
	Scenario:    scenarioRotation,
	Description: "Webhook calls carry an Authorization header derived from what the card currently advertises (\"<card scheme> card-generation-<N>\") instead of the scheme and credentials of the task's own push config.",
	Specs:       []string{"PUSH-005"},
})

package fakes

// faultCardSignatureStale: The card is altered after signing (a proxy rewrites its description), so its signature no longer verifies over the card served.
var faultCardSignatureStale = register(FaultInfo{
	Name:        "card-signature-stale",
	Scenario:    scenarioStaleCDN,
	Description: "The card is altered after signing (a proxy rewrites its description), so its signature no longer verifies over the card served.",
	Specs:       []string{"DISC-017"},
})

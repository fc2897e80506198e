package fakes

// faultCardWrongBinding: The card swaps the URLs of its two interfaces: the JSONRPC entry points at the HTTP+JSON endpoint and the other way round.
var faultCardWrongBinding = register(FaultInfo{
	Name:        "card-wrong-binding",
	Scenario:    scenarioStaleCDN,
	Description: "The card swaps the URLs of its two interfaces: the JSONRPC entry points at the HTTP+JSON endpoint and the other way round.",
	Specs:       []string{"DISC-009"},
})

package fakes

// faultCardVariesWithoutVary: A request without A2A-Version gets the v0.3-shaped card and one with it the v1.0 card, but no response says Vary: A2A-Version, so a cache hands one client the other's card.
var faultCardVariesWithoutVary = register(FaultInfo{
	Name:        "card-varies-without-vary",
	Scenario:    scenarioStaleCDN,
	Description: "A request without A2A-Version gets the v0.3-shaped card and one with it the v1.0 card, but no response says Vary: A2A-Version, so a cache hands one client the other's card.",
	Specs:       []string{"DISC-006"},
})

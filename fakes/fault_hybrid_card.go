package fakes

// faultHybridCard: The v1.0 card also carries the v0.3 members url, preferredTransport and protocolVersion "0.3.0", so old clients keep using the v0.3 view of the agent.
var faultHybridCard = register(FaultInfo{
	Name:        "hybrid-card",
	Scenario:    scenarioStaleCDN,
	Description: "The v1.0 card also carries the v0.3 members url, preferredTransport and protocolVersion \"0.3.0\", so old clients keep using the v0.3 view of the agent.",
	Specs:       []string{"DISC-008"},
})

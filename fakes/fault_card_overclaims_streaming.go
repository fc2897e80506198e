package fakes

// faultCardOverclaimsStreaming: The card says capabilities.streaming true, but SendStreamingMessage and SubscribeToTask answer
// UnsupportedOperationError.
var faultCardOverclaimsStreaming = register(FaultInfo{
	Name:        "card-overclaims-streaming",
	Scenario:    scenarioStaleCDN,
	Description: "The card says capabilities.streaming true, but SendStreamingMessage and SubscribeToTask answer UnsupportedOperationError.",
	Specs:       []string{"DISC-013"},
})

package fakes

// faultStreamingServedUnadvertised: The card says capabilities.streaming false, yet SendStreamingMessage and SubscribeToTask open streams instead of failing with UnsupportedOperationError.
var faultStreamingServedUnadvertised = register(FaultInfo{
	Name:        "streaming-served-unadvertised",
	Scenario:    scenarioStaleCDN,
	Description: "The card says capabilities.streaming false, yet SendStreamingMessage and SubscribeToTask open streams instead of failing with UnsupportedOperationError.",
	Specs:       []string{"DISC-013"},
})

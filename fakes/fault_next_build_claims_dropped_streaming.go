package fakes

// faultNextBuildClaimsDroppedStreaming: the second shape of
// next-build-claims-dropped-push. A build without streaming
// (Options.DisableStreaming) still claims capabilities.streaming on its
// card, and refuses SendStreamingMessage and SubscribeToTask with
// UnsupportedOperationError.
var faultNextBuildClaimsDroppedStreaming = register(FaultInfo{
	Name:        "next-build-claims-dropped-streaming",
	Scenario:    scenarioStaleCDN,
	Description: "A build started without streaming (the next build ROLL-007 rolls to) still claims capabilities.streaming on its card, and refuses SendStreamingMessage and SubscribeToTask with UnsupportedOperationError.",
	Specs:       []string{"ROLL-007"},
})

package fakes

// faultCardBeforeReady: The card (and the API) answer 200 while the instance is still warming up (Options.WarmUp),
// before its dispatcher and tailer run, instead of 503 with Retry-After.
var faultCardBeforeReady = register(FaultInfo{
	Name:        "card-before-ready",
	Scenario:    scenarioRollout,
	Description: "The card (and the API) answer 200 while the instance is still warming up (Options.WarmUp), before its dispatcher and tailer run, instead of 503 with Retry-After.",
	Specs:       []string{"ROLL-004"},
})

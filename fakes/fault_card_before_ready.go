package fakes

// faultCardBeforeReady: scenario 2 as it was observed. The card (and the
// API) answer 200 while the instance is still warming up (Options.WarmUp),
// before its dispatcher runs, instead of 503 with Retry-After; and the
// dispatcher's subscription index, snapshotted from the store when the
// process began, never learns of the configs registered during the warm-up:
// they are acknowledged (and listed), and never delivered to, while the
// configs registered once the instance is ready are.
var faultCardBeforeReady = register(FaultInfo{
	Name:        "card-before-ready",
	Scenario:    scenarioRollout,
	Description: "The card (and the API) answer 200 while the instance is still warming up (Options.WarmUp), before its dispatcher runs, instead of 503 with Retry-After; push configs it accepts during the warm-up are stored but never delivered to (its dispatcher's index missed them), while later ones are.",
	Specs:       []string{"ROLL-004"},
})

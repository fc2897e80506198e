package fakes

// faultNoCacheHeaders: The card carries neither ETag nor Cache-Control, and conditional requests always get 200.
var faultNoCacheHeaders = register(FaultInfo{
	Name:        "no-cache-headers",
	Scenario:    scenarioStaleCDN,
	Description: "The card carries neither ETag nor Cache-Control, and conditional requests always get 200.",
	Specs:       []string{"DISC-003", "DISC-004", "DISC-005"},
})

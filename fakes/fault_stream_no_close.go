package fakes

// faultStreamNoClose: Streams stay open after the terminal event (until the client leaves) instead of closing.
var faultStreamNoClose = register(FaultInfo{
	Name:        "stream-no-close",
	Scenario:    scenarioStaleCDN,
	Description: "Streams stay open after the terminal event (until the client leaves) instead of closing.",
	Specs:       []string{"LIFE-015", "LIFE-018"},
})

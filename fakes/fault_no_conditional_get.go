package fakes

// faultNoConditionalGet: The card ignores If-None-Match: a matching ETag still gets a full 200, never 304.
var faultNoConditionalGet = register(FaultInfo{
	Name:        "no-conditional-get",
	Scenario:    scenarioRotation,
	Description: "The card ignores If-None-Match: a matching ETag still gets a full 200, never 304.",
	Specs:       []string{"DISC-005"},
})

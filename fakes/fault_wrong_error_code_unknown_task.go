package fakes

// faultWrongErrorCodeUnknownTask: Operations on an unknown task id answer InvalidParamsError (-32602 / HTTP 400) instead of
// TaskNotFoundError (-32001 / HTTP 404).
var faultWrongErrorCodeUnknownTask = register(FaultInfo{
	Name:        "wrong-error-code-unknown-task",
	Scenario:    scenarioRotation,
	Description: "Operations on an unknown task id answer InvalidParamsError (-32602 / HTTP 400) instead of TaskNotFoundError (-32001 / HTTP 404).",
	Specs:       []string{"LIFE-006", "LIFE-007", "LIFE-026"},
})

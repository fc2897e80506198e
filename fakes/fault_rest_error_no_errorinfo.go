package fakes

// faultRESTErrorNoErrorInfo: HTTP+JSON error bodies carry no details: no google.rpc.ErrorInfo, so errors sharing HTTP 400
// cannot be told apart (spec §11.6 MUST).
var faultRESTErrorNoErrorInfo = register(FaultInfo{
	Name:        "rest-error-no-errorinfo",
	Scenario:    "",
	Description: "HTTP+JSON error bodies carry no details: no google.rpc.ErrorInfo, so errors sharing HTTP 400 cannot be told apart (spec §11.6 MUST).",
	Specs:       []string{"LIFE-007", "LIFE-026"},
})

package fakes

// faultNoContextID: a task created from a message without a contextId gets
// none at all, where spec §3.4.1 says a context the agent generates MUST be
// returned.
var faultNoContextID = register(FaultInfo{
	Name:        "no-context-id",
	Scenario:    "",
	Description: "A task created from a message without a contextId is returned (and kept) without any contextId, instead of with one the agent generated (spec §3.4.1 MUST).",
	Specs:       []string{"LIFE-002"},
})

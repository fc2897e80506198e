package fakes

// faultContextIDSubstituted: a client-chosen contextId is silently replaced
// by one the agent generates, which spec §3.4.1 forbids (adopt it or refuse
// the request).
var faultContextIDSubstituted = register(FaultInfo{
	Name:        "context-id-substituted",
	Scenario:    "",
	Description: "A new task's client-chosen contextId is silently replaced by a fresh one the agent generates, instead of adopted or refused (spec §3.4.1: MUST NOT substitute).",
	Specs:       []string{"LIFE-003"},
})

package fakes

// faultUnfilteredListLeaksOtherIdentity: ListTasks scopes a query to the
// caller when it names a context, but an unfiltered one lists every
// identity's tasks (spec §13.1: results MUST be scoped to the caller, with
// or without filters; §3.3.2 MUST NOT reveal that they exist).
var faultUnfilteredListLeaksOtherIdentity = register(FaultInfo{
	Name:        "unfiltered-list-leaks-other-identity",
	Description: "With several identities, ListTasks filtered by contextId lists only the caller's tasks, but ListTasks without filters lists every identity's: spec §13.1 scopes results with or without filters, and §3.3.2 forbids revealing that another's task exists.",
	Specs:       []string{"LIFE-031", "LIFE-032"},
})

package fakes

// faultListLeaksOtherIdentity: ListTasks ignores who is asking, so a caller
// lists the tasks another identity created (spec §13.1: results MUST be
// scoped to the caller's authorized access, with or without filters).
var faultListLeaksOtherIdentity = register(FaultInfo{
	Name:        "list-leaks-other-identity",
	Description: "With several identities (Options.RequireAuth and OtherTokens), ListTasks returns every identity's tasks, filtered by contextId or not: a caller lists the tasks another identity created (spec §13.1 MUST scope results to the caller).",
	Specs:       []string{"LIFE-031"},
})

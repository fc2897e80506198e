package fakes

// faultListLeaksOtherIdentity: ListTasks ignores who is asking, so a caller
// lists the tasks another identity created (spec §13.1: results MUST be
// scoped to the caller's authorized access, with or without filters), which
// also tells it that they exist (§3.3.2).
var faultListLeaksOtherIdentity = register(FaultInfo{
	Name:        "list-leaks-other-identity",
	Description: "With several identities (Options.RequireAuth and OtherTokens), ListTasks returns every identity's tasks, filtered by contextId or not: a caller lists the tasks another identity created (spec §13.1 MUST scope results to the caller; §3.3.2 MUST NOT reveal that they exist).",
	Specs:       []string{"LIFE-031", "LIFE-032"},
})

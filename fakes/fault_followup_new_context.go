package fakes

// faultFollowupNewContext: a follow-up that names only the taskId is taken as
// the start of a new conversation: the task is moved to a fresh contextId
// instead of continuing in its own (spec §3.4.3: infer it from the task).
var faultFollowupNewContext = register(FaultInfo{
	Name:        "followup-new-context",
	Scenario:    "",
	Description: "A follow-up naming only the taskId (no contextId) moves the task to a freshly generated contextId instead of continuing it in its own (spec §3.4.3: infer the contextId from the task).",
	Specs:       []string{"LIFE-009"},
})

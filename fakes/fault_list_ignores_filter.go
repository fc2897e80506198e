package fakes

// faultListIgnoresFilter: ListTasks ignores its contextId and status filters
// and lists every task (spec §3.1.4 wants the list narrowed to them).
var faultListIgnoresFilter = register(FaultInfo{
	Name:        "list-ignores-filter",
	Scenario:    "",
	Description: "ListTasks ignores the contextId and status filters and lists every task.",
	Specs:       []string{"LIFE-022"},
})

package fakes

// faultListOldestFirst: ListTasks sorts by status timestamp oldest first instead of newest first.
var faultListOldestFirst = register(FaultInfo{
	Name:        "list-oldest-first",
	Scenario:    "",
	Description: "ListTasks sorts by status timestamp oldest first instead of newest first.",
	Specs:       []string{"LIFE-020"},
})

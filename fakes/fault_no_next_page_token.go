package fakes

// faultNoNextPageToken: ListTasks omits nextPageToken on the last page instead of sending "".
var faultNoNextPageToken = register(FaultInfo{
	Name:        "no-next-page-token",
	Scenario:    "",
	Description: "ListTasks omits nextPageToken on the last page instead of sending \"\".",
	Specs:       []string{"LIFE-020"},
})

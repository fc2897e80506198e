package fakes

// faultAuthListUnauthenticated: ListTasks skips authentication on every
// binding, so a caller without credentials lists tasks (spec §7.4, §13.1:
// every request is authenticated and authorized).
var faultAuthListUnauthenticated = register(FaultInfo{
	Name:        "auth-list-unauthenticated",
	Description: "With Options.RequireAuth (the embedded run's mode), ListTasks is served without credentials on every binding: anyone can list the tasks (A2A v1.0.1 §7.4: servers MUST authenticate every incoming request).",
	Specs:       []string{"DISC-019"},
})

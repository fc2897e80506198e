package fakes

// faultListArtifactsAlways: ListTasks includes the artifacts member (possibly []) on every task even when includeArtifacts
// is false or absent.
var faultListArtifactsAlways = register(FaultInfo{
	Name:        "list-artifacts-always",
	Scenario:    "",
	Description: "ListTasks includes the artifacts member (possibly []) on every task even when includeArtifacts is false or absent.",
	Specs:       []string{"LIFE-021"},
})

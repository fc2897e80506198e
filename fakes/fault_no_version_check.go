package fakes

// faultNoVersionCheck: A2A-Version is not checked: a request with A2A-Version 9.9 is served instead of failing with
// VersionNotSupportedError (-32009 / HTTP 400).
var faultNoVersionCheck = register(FaultInfo{
	Name:        "no-version-check",
	Scenario:    "",
	Description: "A2A-Version is not checked: a request with A2A-Version 9.9 is served instead of failing with VersionNotSupportedError (-32009 / HTTP 400).",
	Specs:       []string{"DISC-010"},
})

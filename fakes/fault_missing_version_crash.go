package fakes

// faultMissingVersionCrash: A request without A2A-Version crashes the handler: HTTP 500 / -32603 instead of being served or refused with VersionNotSupportedError.
var faultMissingVersionCrash = register(FaultInfo{
	Name:        "missing-version-crash",
	Scenario:    "",
	Description: "A request without A2A-Version crashes the handler: HTTP 500 / -32603 instead of being served or refused with VersionNotSupportedError.",
	Specs:       []string{"DISC-011"},
})

package fakes

// faultVersionPatchRejected: A2A-Version with a patch number (1.0.3) is refused with VersionNotSupportedError instead of being served as 1.0.
var faultVersionPatchRejected = register(FaultInfo{
	Name:        "version-patch-rejected",
	Scenario:    "",
	Description: "A2A-Version with a patch number (1.0.3) is refused with VersionNotSupportedError instead of being served as 1.0.",
	Specs:       []string{"DISC-012"},
})

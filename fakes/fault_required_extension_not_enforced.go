package fakes

// faultRequiredExtensionNotEnforced: The card marks an extension required, but requests that do not declare it in A2A-Extensions are served instead of failing with ExtensionSupportRequiredError.
var faultRequiredExtensionNotEnforced = register(FaultInfo{
	Name:        "required-extension-not-enforced",
	Scenario:    "",
	Description: "The card marks an extension required, but requests that do not declare it in A2A-Extensions are served instead of failing with ExtensionSupportRequiredError.",
	Specs:       []string{"DISC-016"},
})

// unenforcedExtensionURI is the extension the fault marks required.
const unenforcedExtensionURI = "https://a2a-conform.dev/extensions/required-unenforced/v1"

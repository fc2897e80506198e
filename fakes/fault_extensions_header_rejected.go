package fakes

// faultExtensionsHeaderRejected: A request whose A2A-Extensions names an extension the agent does not know is refused with InvalidRequest instead of being served without it.
var faultExtensionsHeaderRejected = register(FaultInfo{
	Name:        "extensions-header-rejected",
	Scenario:    "",
	Description: "A request whose A2A-Extensions names an extension the agent does not know is refused with InvalidRequest instead of being served without it.",
	Specs:       []string{"DISC-018"},
})

package fakes

// faultExtendedCardServedUnadvertised: The card does not set capabilities.extendedAgentCard, yet GetExtendedAgentCard returns a card (without authentication) instead of UnsupportedOperationError.
var faultExtendedCardServedUnadvertised = register(FaultInfo{
	Name:        "extended-card-served-unadvertised",
	Scenario:    "",
	Description: "The card does not set capabilities.extendedAgentCard, yet GetExtendedAgentCard returns a card (without authentication) instead of UnsupportedOperationError.",
	Specs:       []string{"DISC-015"},
})

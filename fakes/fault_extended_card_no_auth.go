package fakes

// faultExtendedCardNoAuth: GetExtendedAgentCard returns the extended card to a caller that sent no credentials, though spec §13.3 requires authentication.
var faultExtendedCardNoAuth = register(FaultInfo{
	Name:        "extended-card-no-auth",
	Scenario:    "",
	Description: "GetExtendedAgentCard returns the extended card to a caller that sent no credentials, though spec §13.3 requires authentication.",
	Specs:       []string{"DISC-015"},
})

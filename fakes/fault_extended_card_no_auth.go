package fakes

// faultExtendedCardNoAuth: GetExtendedAgentCard returns the extended card to a caller that sent no credentials, though spec §13.3 requires authentication.
// DISC-019 catches it too (when the card also declares security, as the
// embedded run's does): every operation, the extended card included, must be
// authenticated.
var faultExtendedCardNoAuth = register(FaultInfo{
	Name:        "extended-card-no-auth",
	Scenario:    "",
	Description: "GetExtendedAgentCard returns the extended card to a caller that sent no credentials, though spec §13.3 requires authentication.",
	Specs:       []string{"DISC-015", "DISC-019"},
})

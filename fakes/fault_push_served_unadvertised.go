package fakes

// faultPushServedUnadvertised: The card says capabilities.pushNotifications false, yet push-config operations succeed instead of failing with PushNotificationNotSupportedError.
var faultPushServedUnadvertised = register(FaultInfo{
	Name:        "push-served-unadvertised",
	Scenario:    scenarioRollout,
	Description: "The card says capabilities.pushNotifications false, yet push-config operations succeed instead of failing with PushNotificationNotSupportedError.",
	Specs:       []string{"DISC-014"},
})

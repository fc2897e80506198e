package fakes

// faultCardOverclaimsPush: The card says capabilities.pushNotifications true, but every push-config operation answers
// PushNotificationNotSupportedError and nothing is delivered.
var faultCardOverclaimsPush = register(FaultInfo{
	Name:        "card-overclaims-push",
	Scenario:    scenarioStaleCDN,
	Description: "The card says capabilities.pushNotifications true, but every push-config operation answers PushNotificationNotSupportedError and nothing is delivered.",
	Specs:       []string{"DISC-014"},
})

package fakes

// faultNextBuildClaimsDroppedPush: a build without push notifications
// (Options.DisablePush: the embedded driver's next build, which ROLL-007
// rolls to) still claims capabilities.pushNotifications on its card, and
// refuses every push-config operation with PushNotificationNotSupportedError:
// the build dropped push in what it does, not in what its card says, as a
// build whose card is generated from a stale manifest would (scenario 3).
var faultNextBuildClaimsDroppedPush = register(FaultInfo{
	Name:        "next-build-claims-dropped-push",
	Scenario:    scenarioStaleCDN,
	Description: "A build started without push notifications (the next build ROLL-007 rolls to) still claims capabilities.pushNotifications on its card, and refuses every push-config operation with PushNotificationNotSupportedError.",
	Specs:       []string{"ROLL-007"},
})

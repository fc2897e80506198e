package fakes

// faultSubscribeNoSnapshot: SubscribeToTask does not start with a task snapshot: the first event is the next update, so a
// client cannot close the GetTask-to-subscribe gap.
var faultSubscribeNoSnapshot = register(FaultInfo{
	Name:        "subscribe-no-snapshot",
	Scenario:    scenarioRollout,
	Description: "SubscribeToTask does not start with a task snapshot: the first event is the next update, so a client cannot close the GetTask-to-subscribe gap.",
	Specs:       []string{"LIFE-018"},
})

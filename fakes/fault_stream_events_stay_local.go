package fakes

// faultStreamEventsStayLocal: Streams only see events written by their own instance: a stream opened on one instance never
// receives the events of a task worked or canceled on another.
var faultStreamEventsStayLocal = register(FaultInfo{
	Name:        "stream-events-stay-local",
	Scenario:    scenarioRollout,
	Description: "Streams only see events written by their own instance: a stream opened on one instance never receives the events of a task worked or canceled on another.",
	Specs:       []string{"ROLL-005"},
})

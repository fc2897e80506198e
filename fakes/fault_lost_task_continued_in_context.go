package fakes

// faultLostTaskContinuedInContext: the second shape of
// lost-task-recreated-with-context. The instance loses the tasks created
// before it started; a follow-up naming a lost taskId alone gets
// TaskNotFoundError, but one naming the taskId with its contextId is taken
// for a new request in that context: the agent drops the unknown id and
// answers with a new task under a new id, as an agent keyed on the
// conversation would.
var faultLostTaskContinuedInContext = register(FaultInfo{
	Name:        "lost-task-continued-in-context",
	Scenario:    scenarioRotation,
	Description: "Tasks created before the instance started are unknown to it; a follow-up naming a lost taskId alone gets TaskNotFoundError, but one naming the taskId with its contextId is answered with a new task, under a new id, in that context.",
	Specs:       []string{"ROLL-002", "ROLL-003"},
})

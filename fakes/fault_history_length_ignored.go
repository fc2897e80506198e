package fakes

// faultHistoryLengthIgnored: historyLength is ignored (GetTask, ListTasks, SendMessage): the whole history is always
// returned, even for 0.
var faultHistoryLengthIgnored = register(FaultInfo{
	Name:        "history-length-ignored",
	Scenario:    "",
	Description: "historyLength is ignored (GetTask, ListTasks, SendMessage): the whole history is always returned, even for 0.",
	Specs:       []string{"LIFE-023", "LIFE-024"},
})

package clientdriver

// faultInterruptedReadAsWorking: Takes TASK_STATE_INPUT_REQUIRED for a
// state the task leaves on its own and polls on until its time runs out
// (ACTS CLIENT-PARSE-005).
var faultInterruptedReadAsWorking = registerFault(Fault{
	Name:        "interrupted-read-as-working",
	Description: "Polls a task in INPUT_REQUIRED as if it were still working, until its time runs out.",
	Specs:       []string{"CLI-034"},
})

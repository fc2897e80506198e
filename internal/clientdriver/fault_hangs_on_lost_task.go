package clientdriver

// faultHangsOnLostTask: After TaskNotFound on a follow-up, keeps polling the lost task and never reports.
var faultHangsOnLostTask = registerFault(Fault{
	Name:        "hangs-on-lost-task",
	Description: "After TaskNotFound on a follow-up, keeps polling the lost task and never reports.",
	Specs:       []string{"CLI-021"},
})

package clientdriver

// faultDefaultPushOnlyWithTaskID: the client attaches its default push
// config only to messages that name a task, so that no task it creates gets
// it (the shape a client SDK shipped: the default applied only when the
// message carried a taskId).
var faultDefaultPushOnlyWithTaskID = registerFault(Fault{
	Name:        "default-push-only-with-task-id",
	Description: "Attaches the client's default push config only to messages that name a task: no task it creates gets the config.",
	Specs:       []string{"CLI-012"},
})

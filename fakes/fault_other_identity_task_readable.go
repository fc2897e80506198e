package fakes

// faultOtherIdentityTaskReadable: the operations that load a task by id
// (GetTask, SubscribeToTask, push configs) skip the ownership check, so any
// identity that learns a task id reads it (spec §13.1: GetTask MUST verify
// the caller has access to the task).
var faultOtherIdentityTaskReadable = register(FaultInfo{
	Name:        "other-identity-task-readable",
	Description: "With several identities, GetTask, SubscribeToTask and the push-config operations serve another identity's task to any caller that names its id (ListTasks, CancelTask and messages naming the task still check the owner): spec §13.1 MUST verify access on every task operation, and §3.3.2 MUST NOT reveal the task exists.",
	Specs:       []string{"LIFE-031", "LIFE-032"},
})

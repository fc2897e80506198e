package fakes

// faultOtherIdentityTaskForbidden: an operation on another identity's task is
// refused with an authorization error (HTTP 403, PERMISSION_DENIED, -31403)
// instead of the TaskNotFoundError an unknown id gets, which tells the
// caller that the task exists (spec §3.3.2, §13.1: MUST NOT reveal it).
var faultOtherIdentityTaskForbidden = register(FaultInfo{
	Name:        "other-identity-task-forbidden",
	Description: "With several identities, GetTask, CancelTask, SubscribeToTask, a message naming the task and the push-config operations on another identity's task answer an authorization error (HTTP 403, gRPC PERMISSION_DENIED, JSON-RPC -31403) while an unknown id gets TaskNotFoundError: the refusal reveals that the task exists (spec §3.3.2, §13.1 MUST NOT).",
	Specs:       []string{"LIFE-032"},
})

package fakes

// faultGRPCWrongStatusUnknownTask: TaskNotFoundError travels over gRPC as
// INVALID_ARGUMENT instead of NOT_FOUND (spec §5.4 table, both revisions);
// its ErrorInfo and the HTTP bindings are right.
var faultGRPCWrongStatusUnknownTask = register(FaultInfo{
	Name:        "grpc-wrong-status-unknown-task",
	Description: "TaskNotFoundError is sent over gRPC with status INVALID_ARGUMENT instead of NOT_FOUND (spec §5.4 error table); the ErrorInfo reason and the HTTP bindings stay right.",
	Specs:       []string{"LIFE-026"},
})

package fakes

// faultGRPCNoErrorInfo: gRPC statuses carry no google.rpc.ErrorInfo (spec
// §10.6 MUST); the HTTP bindings are untouched, so only a harness that speaks
// gRPC sees it.
var faultGRPCNoErrorInfo = register(FaultInfo{
	Name:        "grpc-error-no-errorinfo",
	Description: "gRPC error statuses carry no google.rpc.ErrorInfo in their details, so A2A errors sharing FAILED_PRECONDITION cannot be told apart (spec §10.6 MUST); JSON-RPC and HTTP+JSON errors are unchanged.",
	Specs:       []string{"LIFE-026"},
})

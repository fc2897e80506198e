package a2a

import (
	"encoding/json"
)

// JSON-RPC method names (spec §9.1): the gRPC rpc names, PascalCase.
const (
	MethodSendMessage                      = "SendMessage"
	MethodSendStreamingMessage             = "SendStreamingMessage"
	MethodGetTask                          = "GetTask"
	MethodListTasks                        = "ListTasks"
	MethodCancelTask                       = "CancelTask"
	MethodSubscribeToTask                  = "SubscribeToTask"
	MethodCreateTaskPushNotificationConfig = "CreateTaskPushNotificationConfig"
	MethodGetTaskPushNotificationConfig    = "GetTaskPushNotificationConfig"
	MethodListTaskPushNotificationConfigs  = "ListTaskPushNotificationConfigs"
	MethodDeleteTaskPushNotificationConfig = "DeleteTaskPushNotificationConfig"
	MethodGetExtendedAgentCard             = "GetExtendedAgentCard"
)

// Methods lists the eleven operations in spec order.
var Methods = []string{
	MethodSendMessage, MethodSendStreamingMessage, MethodGetTask, MethodListTasks,
	MethodCancelTask, MethodSubscribeToTask, MethodCreateTaskPushNotificationConfig,
	MethodGetTaskPushNotificationConfig, MethodListTaskPushNotificationConfigs,
	MethodDeleteTaskPushNotificationConfig, MethodGetExtendedAgentCard,
}

// JSONRPCRequest is the JSON-RPC 2.0 request envelope.
type JSONRPCRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// JSONRPCResponse is the JSON-RPC 2.0 response envelope. Result is nil when the
// member was absent and "null" when it was null; both matter for
// DeleteTaskPushNotificationConfig, whose result the spec leaves open.
type JSONRPCResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *JSONRPCError   `json:"error,omitempty"`
}

// JSONRPCError is the error member. In v1.0 Data is an array of ProtoJSON Any
// objects, each with "@type"; v0.3 agents send a free-form object.
type JSONRPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Standard JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

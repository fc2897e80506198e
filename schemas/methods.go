package schemas

import "github.com/a2a-conform/a2a-conform/internal/a2a"

// methodSchemas pairs each operation (spec §5.3) with the schema of its
// JSON-RPC params / HTTP+JSON body and of its result. Delete returns
// google.protobuf.Empty (a2a.proto A2AService.DeleteTaskPushNotificationConfig),
// whose JSON-RPC form is UNSURE ({}, null or absent: A2A v1.0.1 §3.1.10 and
// §9.4.7 do not say), so it has no result schema.
var methodSchemas = map[string][2]string{
	a2a.MethodSendMessage:                      {SendMessageRequest, SendMessageResponse},
	a2a.MethodSendStreamingMessage:             {SendMessageRequest, StreamResponse},
	a2a.MethodGetTask:                          {GetTaskRequest, Task},
	a2a.MethodListTasks:                        {ListTasksRequest, ListTasksResponse},
	a2a.MethodCancelTask:                       {CancelTaskRequest, Task},
	a2a.MethodSubscribeToTask:                  {SubscribeToTaskRequest, StreamResponse},
	a2a.MethodCreateTaskPushNotificationConfig: {TaskPushNotificationConfig, TaskPushNotificationConfig},
	a2a.MethodGetTaskPushNotificationConfig:    {GetTaskPushNotificationConfigRequest, TaskPushNotificationConfig},
	a2a.MethodListTaskPushNotificationConfigs:  {ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse},
	a2a.MethodDeleteTaskPushNotificationConfig: {DeleteTaskPushNotificationConfigRequest, ""},
	a2a.MethodGetExtendedAgentCard:             {GetExtendedAgentCardRequest, AgentCard},
}

// ForMethod names the schemas for a JSON-RPC method's params and result (for
// streaming methods, the schema of each event's result). result is "" for
// DeleteTaskPushNotificationConfig. ok is false for a name that is not a v1.0
// method, such as the v0.3 "message/send".
func ForMethod(method string) (params, result string, ok bool) {
	s, ok := methodSchemas[method]
	return s[0], s[1], ok
}

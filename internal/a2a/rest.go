package a2a

import (
	"net/url"
	"strings"
)

// RESTRoute is how the HTTP+JSON binding carries one operation (spec §11.3):
// a verb and a path template relative to the interface URL. {id} is the task id
// (or the config id under pushNotificationConfigs), {taskId} the owning task.
type RESTRoute struct {
	Method string
	Verb   string
	Path   string
}

// RESTRoutes follows the google.api.http options of a2a.proto. SubscribeToTask
// is GET in the proto and POST in the spec prose (UNSURE, A2A #1574); the
// harness sends POST by default and lets the verb be configured.
var RESTRoutes = map[string]RESTRoute{
	MethodSendMessage:                      {MethodSendMessage, "POST", "/message:send"},
	MethodSendStreamingMessage:             {MethodSendStreamingMessage, "POST", "/message:stream"},
	MethodGetTask:                          {MethodGetTask, "GET", "/tasks/{id}"},
	MethodListTasks:                        {MethodListTasks, "GET", "/tasks"},
	MethodCancelTask:                       {MethodCancelTask, "POST", "/tasks/{id}:cancel"},
	MethodSubscribeToTask:                  {MethodSubscribeToTask, "POST", "/tasks/{id}:subscribe"},
	MethodCreateTaskPushNotificationConfig: {MethodCreateTaskPushNotificationConfig, "POST", "/tasks/{taskId}/pushNotificationConfigs"},
	MethodGetTaskPushNotificationConfig:    {MethodGetTaskPushNotificationConfig, "GET", "/tasks/{taskId}/pushNotificationConfigs/{id}"},
	MethodListTaskPushNotificationConfigs:  {MethodListTaskPushNotificationConfigs, "GET", "/tasks/{taskId}/pushNotificationConfigs"},
	MethodDeleteTaskPushNotificationConfig: {MethodDeleteTaskPushNotificationConfig, "DELETE", "/tasks/{taskId}/pushNotificationConfigs/{id}"},
	MethodGetExtendedAgentCard:             {MethodGetExtendedAgentCard, "GET", "/extendedAgentCard"},
}

// Expand fills the path template, escaping each value as one path segment, and
// prefixes the tenant segment when one is given.
func (r RESTRoute) Expand(tenant, taskID, id string) string {
	p := r.Path
	p = strings.ReplaceAll(p, "{taskId}", url.PathEscape(taskID))
	p = strings.ReplaceAll(p, "{id}", url.PathEscape(id))
	if tenant != "" {
		p = "/" + url.PathEscape(tenant) + p
	}
	return p
}

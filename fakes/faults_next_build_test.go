package fakes

import (
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// The observations of the faults whose build without a capability still
// claims it, added to faultCases so that TestFaults runs each with the
// fault on and off: the build is started without the capability, and its
// card must then not claim it.
func init() {
	faultCases[faultNextBuildClaimsDroppedPush] = func(e *faultEnv) string {
		n := e.node(Options{DisablePush: true})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		_, err := n.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "http://127.0.0.1:1/"})
		if n.card.PushNotifications() && err != nil {
			return "a build without push claims it on its card; create: " + err.Error()
		}
		return ""
	}
	faultCases[faultNextBuildClaimsDroppedStreaming] = func(e *faultEnv) string {
		n := e.node(Options{DisableStreaming: true})
		_, err := n.rpc().SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: scripted(directive.Directive{})})
		if n.card.Streaming() && err != nil {
			return "a build without streaming claims it on its card; stream: " + err.Error()
		}
		return ""
	}
}

package fakes

import "github.com/a2a-conform/a2a-conform/internal/a2a"

// The stale-CDN fault's observation (scenario 3), added to faultCases so
// that TestFaults runs it with the fault on and off: a generation-2 build
// without push, whose card says so, is asked for a config as a client
// holding the previous generation's card would ask.
func init() {
	faultCases[faultDroppedPushConfigAccepted] = func(e *faultEnv) string {
		n := e.node(Options{Generation: 2, DisablePush: true})
		if n.card.PushNotifications() {
			e.t.Fatal("the build without push still advertises it")
		}
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		got, err := n.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "https://a2a-conform.invalid/hook"})
		if err == nil {
			return "generation 2 card says push false; config " + got.ID + " accepted"
		}
		return ""
	}
}

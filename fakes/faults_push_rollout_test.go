package fakes

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// Observations of the push faults written for issue 17 (each scenario bug
// in a second shape), added to faultCases so that TestFaults runs each with
// the fault on and off.
func init() {
	faultCases[faultPushAuthFromCardAfterRotation] = func(e *faultEnv) string {
		n, rcv := e.node(Options{}), newReceiver(e.t)
		cfg := func() *a2a.SendMessageConfiguration {
			return &a2a.SendMessageConfiguration{TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{
				URL: rcv.srv.URL, Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: "task-own"}}}
		}
		sendTask(e.t, n.rpc(), userMsg("x"), cfg())
		settledDeliveries(e.t, n)
		for _, p := range rcv.got() {
			if a := p.header.Get("Authorization"); a != "Bearer task-own" {
				e.t.Fatalf("at generation 1 the push carried %q: the fault acts before the rotation", a)
			}
		}
		before := len(rcv.got())
		n.agent.Rotate(Rotation{})
		sendTask(e.t, n.rpc(), userMsg("x"), cfg())
		settledDeliveries(e.t, n)
		for _, p := range rcv.got()[before:] {
			if a := p.header.Get("Authorization"); a != "Bearer task-own" {
				return "after the rotation to generation 2 the push carried Authorization " + a
			}
		}
		return ""
	}
	faultCases[faultPushNamesWrongTask] = func(e *faultEnv) string {
		n, rcv := e.node(Options{}), newReceiver(e.t)
		sendTask(e.t, n.rpc(), userMsg("x"), nil)
		task := sendTask(e.t, n.rpc(), userMsg("x"), &a2a.SendMessageConfiguration{TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: rcv.srv.URL}})
		settledDeliveries(e.t, n)
		if len(rcv.got()) == 0 {
			e.t.Fatal("nothing pushed")
		}
		for _, p := range rcv.got() {
			if id := p.body.TaskID(); id != task.ID {
				return fmt.Sprintf("a push for task %s named task %s", task.ID, id)
			}
		}
		return ""
	}
	faultCases[faultPushConfigLostAfterReady] = func(e *faultEnv) string {
		// startNode returns once the instance is ready: the registration
		// comes within the fault's window.
		n, rcv := e.node(Options{}), newReceiver(e.t)
		task := sendTask(e.t, n.rpc(), userMsg("x"), &a2a.SendMessageConfiguration{TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: rcv.srv.URL}})
		settledDeliveries(e.t, n)
		if len(rcv.got()) == 0 {
			return "config registered inline just after readiness with task " + task.ID + ", task ended, nothing pushed"
		}
		return ""
	}
}

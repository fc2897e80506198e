package fakes

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// push-misrouted-to-sibling-config: two tasks, each with a config of its own
// on a receiver of its own, registered one just after the other; the first
// config must hear only about the first task.
func init() {
	faultCases[faultPushMisroutedToSiblingConfig] = func(e *faultEnv) string {
		n, rcvA, rcvB := e.node(Options{}), newReceiver(e.t), newReceiver(e.t)
		cfg := func(r *receiver) *a2a.SendMessageConfiguration {
			return &a2a.SendMessageConfiguration{TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: r.srv.URL}}
		}
		a := sendTask(e.t, n.rpc(), userMsg("x"), cfg(rcvA))
		b := sendTask(e.t, n.rpc(), userMsg("x"), cfg(rcvB))
		settledDeliveries(e.t, n)
		if len(rcvA.got()) == 0 || len(rcvB.got()) == 0 {
			e.t.Fatalf("nothing pushed: %d to task %s's config, %d to task %s's", len(rcvA.got()), a.ID, len(rcvB.got()), b.ID)
		}
		for _, p := range rcvA.got() {
			if id := p.body.TaskID(); id != a.ID {
				return fmt.Sprintf("task %s's config received a push about task %s (body honest, routing wrong)", a.ID, id)
			}
		}
		for _, p := range rcvB.got() {
			if id := p.body.TaskID(); id != b.ID {
				return fmt.Sprintf("task %s's config received a push about task %s", b.ID, id)
			}
		}
		return ""
	}
}

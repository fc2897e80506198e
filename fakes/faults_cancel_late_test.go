package fakes

import (
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// The late cancel-then-complete faults, each with a 50 ms delay: a long
// task is canceled (acknowledged CANCELED), and lateLook later the task
// shows the late writer's work in the fault's shape. Clean, it stays as
// the cancel left it.
const lateLook = 400 * time.Millisecond

// lateCanceled starts a long task on n, with a push config to url when url
// is not "", cancels it, checks the acknowledgement and waits lateLook.
func lateCanceled(e *faultEnv, n *node, url string) *a2a.Task {
	cfg := immediate()
	if url != "" {
		cfg.TaskPushNotificationConfig = &a2a.TaskPushNotificationConfig{URL: url}
	}
	task := sendTask(e.t, n.rpc(), scripted(directive.Directive{DelayMs: 60_000}), cfg)
	got, err := n.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
	if err != nil || got.Status.State != a2a.TaskStateCanceled {
		e.t.Fatalf("cancel: %v", err)
	}
	time.Sleep(lateLook)
	return got
}

func init() {
	faultCases[faultCancelThenCompleteLate] = func(e *faultEnv) string {
		n := e.node(Options{LateDelay: 50 * time.Millisecond})
		acked := lateCanceled(e, n, "")
		if got := getTask(e.t, n.rpc(), acked.ID); got.Status.State != a2a.TaskStateCanceled || len(got.Artifacts) != len(acked.Artifacts) {
			return fmt.Sprintf("canceled, then %s with %d artifact(s)", got.Status.State, len(got.Artifacts))
		}
		return ""
	}
	faultCases[faultCancelThenArtifactLate] = func(e *faultEnv) string {
		n := e.node(Options{LateDelay: 50 * time.Millisecond})
		acked := lateCanceled(e, n, "")
		got := getTask(e.t, n.rpc(), acked.ID)
		if got.Status.State != a2a.TaskStateCanceled {
			e.t.Fatalf("the artifact-only shape changed the state: %s", got.Status.State)
		}
		if len(got.Artifacts) != len(acked.Artifacts) {
			return fmt.Sprintf("canceled with %d artifact(s), then %d", len(acked.Artifacts), len(got.Artifacts))
		}
		return ""
	}
	faultCases[faultCancelThenPushCompleteLate] = func(e *faultEnv) string {
		n, rcv := e.node(Options{LateDelay: 50 * time.Millisecond}), newReceiver(e.t)
		acked := lateCanceled(e, n, rcv.srv.URL)
		settledDeliveries(e.t, n)
		if got := getTask(e.t, n.rpc(), acked.ID); got.Status.State != a2a.TaskStateCanceled {
			e.t.Fatalf("the push-only shape changed the stored task: %s", got.Status.State)
		}
		for _, s := range rcv.states() {
			if s != a2a.TaskStateCanceled {
				return fmt.Sprintf("pushed %v after the acknowledged cancel", rcv.states())
			}
		}
		return ""
	}
}

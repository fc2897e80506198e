package fakes

import (
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// cancel-executor-runs-on, on two instances sharing a store: the task runs
// on A, with a stream on A and a push config; the cancel goes through B.
// With the fault the cancel is stored, but A's stream and the pushes carry
// the artifact and TASK_STATE_COMPLETED, and the stored task gains the
// artifact while it stays TASK_STATE_CANCELED. Clean, the cancel stops A.
func init() {
	faultCases[faultCancelExecutorRunsOn] = func(e *faultEnv) string {
		a, b, rcv, task, s := cancelThroughB(e)
		evs := collect(e.t, s)
		workerDone(e.t, a, task.ID)
		settledDeliveries(e.t, a)
		var out []string
		for _, n := range []*node{a, b} {
			if t := getTask(e.t, n.rpc(), task.ID); t.Status.State != a2a.TaskStateCanceled || len(t.Artifacts) > 0 {
				out = append(out, fmt.Sprintf("GetTask: %s with %d artifact(s)", t.Status.State, len(t.Artifacts)))
			}
		}
		if last := evs[len(evs)-1]; last.StatusUpdate == nil || last.StatusUpdate.Status.State != a2a.TaskStateCanceled {
			out = append(out, "stream on A: "+describe(evs))
		}
		for _, st := range rcv.states() {
			if st.Terminal() && st != a2a.TaskStateCanceled {
				out = append(out, fmt.Sprintf("pushed %v", rcv.states()))
				break
			}
		}
		if len(out) > 0 {
			return fmt.Sprint(out)
		}
		return ""
	}
}

// roll-orphans-tasks, on two instances sharing a store: the instance
// running a task stops; clean, the other one carries it on to
// TASK_STATE_COMPLETED; with the fault it stays TASK_STATE_WORKING.
func init() {
	faultCases[faultRollOrphansTasks] = func(e *faultEnv) string {
		a, b := e.shared("a"), e.shared("b")
		task := sendTask(e.t, a.rpc(), scripted(directive.Directive{DelayMs: 100}), immediate())
		waitState(e.t, a.rpc(), task.ID, a2a.TaskStateWorking)
		a.stop()
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			if getTask(e.t, b.rpc(), task.ID).Status.State.Terminal() {
				return ""
			}
			time.Sleep(20 * time.Millisecond)
		}
		return "task still " + string(getTask(e.t, b.rpc(), task.ID).Status.State) + " 3s after its instance stopped"
	}
}

// cancel-silent-across-replicas, on two instances sharing a store: the task
// runs on A, with a stream on A and a push config; the cancel goes through
// B. With the fault the cancel is stored and A's executor stops, but A's
// stream gets no TASK_STATE_CANCELED (and stays open) and no push says
// it. Clean, A's stream and the push both carry TASK_STATE_CANCELED.
func init() {
	faultCases[faultCancelSilentAcrossReplicas] = func(e *faultEnv) string {
		a, _, rcv, task, s := cancelThroughB(e)
		// A's stream is read for at most two seconds: with the fault it
		// never closes.
		evs, closed := collectFor(s, 2*time.Second)
		canceled := false
		for _, ev := range evs {
			if st, ok := ev.State(); ok && st == a2a.TaskStateCanceled {
				canceled = true
			}
		}
		var out []string
		if !canceled {
			out = append(out, fmt.Sprintf("stream on A: no TASK_STATE_CANCELED within 2s (closed: %v): %s", closed, describe(evs)))
		}
		workerDone(e.t, a, task.ID)
		settledDeliveries(e.t, a)
		pushed := false
		for _, st := range rcv.states() {
			pushed = pushed || st == a2a.TaskStateCanceled
		}
		if !pushed {
			out = append(out, fmt.Sprintf("pushed %v, no TASK_STATE_CANCELED", rcv.states()))
		}
		if t := getTask(e.t, a.rpc(), task.ID); t.Status.State != a2a.TaskStateCanceled {
			out = append(out, "GetTask on A: "+string(t.Status.State))
		}
		if len(out) > 0 {
			return fmt.Sprint(out)
		}
		return ""
	}
}

// cancelThroughB starts a task on A of two instances sharing a store, with
// a stream of it on A and a push config, and cancels it through B.
func cancelThroughB(e *faultEnv) (a, b *node, rcv *receiver, task *a2a.Task, s *client.Stream) {
	a, b = e.shared("a"), e.shared("b")
	rcv = newReceiver(e.t)
	cfg := immediate()
	cfg.TaskPushNotificationConfig = &a2a.TaskPushNotificationConfig{URL: rcv.srv.URL}
	// The cancel must find A's executor running (a cancel written before
	// it starts shows neither shape of the fault), with steps long enough
	// that the task is still running when the cancel lands on a loaded
	// machine: 60 ms steps left the fault silent once, in a go test ./...
	task = sendTask(e.t, a.rpc(), scripted(directive.Directive{DelayMs: 250}), cfg)
	waitState(e.t, a.rpc(), task.ID, a2a.TaskStateWorking)
	s, err := a.rpc().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
	if err != nil {
		e.t.Fatalf("subscribe through A: %v", err)
	}
	got, err := b.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
	if err != nil || got.Status.State != a2a.TaskStateCanceled {
		e.t.Fatalf("cancel through B: %v", err)
	}
	return a, b, rcv, task, s
}

// cancel-unpushed-across-replicas, on two instances sharing a store: the
// task runs on A, with a stream on A and a push config; the cancel goes
// through B. With the fault A's stream gets TASK_STATE_CANCELED, but no push
// says it. Clean, both carry it.
func init() {
	faultCases[faultCancelUnpushedAcrossReplicas] = func(e *faultEnv) string {
		a, _, rcv, task, s := cancelThroughB(e)
		evs := collect(e.t, s)
		var out []string
		if last := evs[len(evs)-1]; last.StatusUpdate == nil || last.StatusUpdate.Status.State != a2a.TaskStateCanceled {
			out = append(out, "stream on A: "+describe(evs))
		}
		workerDone(e.t, a, task.ID)
		settledDeliveries(e.t, a)
		pushed := false
		for _, st := range rcv.states() {
			pushed = pushed || st == a2a.TaskStateCanceled
		}
		if !pushed {
			out = append(out, fmt.Sprintf("pushed %v, no TASK_STATE_CANCELED", rcv.states()))
		}
		if len(out) > 0 {
			return fmt.Sprint(out)
		}
		return ""
	}
}

// subscribe-unknown-on-replica, on two instances sharing a store: a task
// running on A, subscribed to through B. With the fault B answers
// TaskNotFoundError while its GetTask finds the task. Clean, B streams it.
func init() {
	faultCases[faultSubscribeUnknownOnReplica] = func(e *faultEnv) string {
		a, b := e.shared("a"), e.shared("b")
		task := sendTask(e.t, a.rpc(), scripted(directive.Directive{DelayMs: 60_000}), immediate())
		defer a.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
		s, err := b.rpc().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
		if err != nil {
			return fmt.Sprintf("SubscribeToTask through B: %v; GetTask through B: %s", err, getTask(e.t, b.rpc(), task.ID).Status.State)
		}
		s.Close()
		return ""
	}
}

package fakes

import "github.com/a2a-conform/a2a-conform/internal/a2a"

// Cancel-side fault observations, added to faultCases so that TestFaults runs
// each with the fault on and off.
func init() {
	faultCases[faultCancelTerminalAccepted] = func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		if !task.Status.State.Terminal() {
			e.t.Fatalf("echo task not terminal: %s", task.Status.State)
		}
		if got, err := n.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID}); err == nil {
			return "cancel of a " + string(task.Status.State) + " task answered with the task in " + string(got.Status.State)
		}
		return ""
	}
}

package fakes

import (
	"path/filepath"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// Forwarding replicas on two instances sharing a SQLite file: while A runs
// a task, B passes GetTask (both HTTP bindings), SubscribeToTask and
// CancelTask to A and relays A's answers, the stream until it closes at
// TASK_STATE_CANCELED; once nobody runs the task, B answers itself.
func TestForwardingReplicas(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "shared.db")
	var ns []*node
	for _, name := range []string{"a", "b"} {
		st, err := OpenSQLiteStore(db)
		if err != nil {
			t.Fatal(err)
		}
		n := startNode(t, Options{Name: name, Store: st, ForwardToOwner: true})
		t.Cleanup(func() { n.stop(); st.Close() })
		n.agent.selfURL = n.srv.URL
		if err := n.agent.advertise(ctxT()); err != nil {
			t.Fatal(err)
		}
		ns = append(ns, n)
	}
	a, b := ns[0], ns[1]
	task := sendTask(t, a.rpc(), scripted(directive.Directive{DelayMs: 60_000}), immediate())
	servedBy := func(what, method, url, body string) string {
		t.Helper()
		code, h, out := rawHTTP(t, method, url, "application/json", body, nil)
		if code != 200 || h.Get(InstanceHeader) != "b" {
			t.Fatalf("%s through B: HTTP %d from %q: %s", what, code, h.Get(InstanceHeader), out)
		}
		return h.Get(ForwardedToHeader)
	}
	rpcGet := `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"` + task.ID + `"}}`
	if got := servedBy("REST GetTask", "GET", b.srv.URL+RESTPath+"/tasks/"+task.ID, ""); got != "a" {
		t.Errorf("REST GetTask of a task A runs, through B: served by %q, want forwarded to a", got)
	}
	if got := servedBy("JSON-RPC GetTask", "POST", b.srv.URL+JSONRPCPath, rpcGet); got != "a" {
		t.Errorf("JSON-RPC GetTask of a task A runs, through B: served by %q, want forwarded to a", got)
	}
	s, err := b.rpc().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
	if err != nil {
		t.Fatalf("SubscribeToTask through B: %v", err)
	}
	if got, err := b.rest().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID}); err != nil || got.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("CancelTask through B: %v", err)
	}
	evs := collect(t, s)
	if last := evs[len(evs)-1]; last.StatusUpdate == nil || last.StatusUpdate.Status.State != a2a.TaskStateCanceled {
		t.Errorf("the stream relayed through B: %s, want it to end TASK_STATE_CANCELED", describe(evs))
	}
	workerDone(t, a, task.ID)
	if got := servedBy("JSON-RPC GetTask after the end", "POST", b.srv.URL+JSONRPCPath, rpcGet); got != "" {
		t.Errorf("GetTask of a task nobody runs, through B: forwarded to %q, want served by B", got)
	}
}

package fakes

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

func TestPushDelivery(t *testing.T) {
	n := startNode(t, Options{Name: "pusher"})
	rcv := newReceiver(t)
	c := n.rest()
	cfg := &a2a.SendMessageConfiguration{ReturnImmediately: true, TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{
		URL: rcv.srv.URL + "/hook", Token: "tok-1", Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: "cred-1"}}}
	task := sendTask(t, c, scripted(directive.Directive{DelayMs: 5, ArtifactChunks: intp(2)}), cfg)
	rcv.waitFor(t, a2a.TaskStateCompleted)
	pushes := rcv.got()
	// WORKING, two artifact chunks, COMPLETED, in order, each a StreamResponse
	// with one member, with the config's own credentials.
	if len(pushes) != 4 || pushes[1].body.ArtifactUpdate == nil || pushes[2].body.ArtifactUpdate == nil {
		t.Fatalf("pushes: %d %v", len(pushes), rcv.states())
	}
	for _, p := range pushes {
		if got := p.header.Get("Authorization"); got != "Bearer cred-1" {
			t.Fatalf("Authorization %q", got)
		}
		if p.header.Get(TokenHeader) != "tok-1" || p.header.Get("Content-Type") != PushContentType || p.header.Get(InstanceHeader) != "pusher" {
			t.Fatalf("headers %v", p.header)
		}
		if len(p.body.Members()) != 1 || p.body.TaskID() != task.ID {
			t.Fatalf("body %s", p.raw)
		}
	}
	if s := rcv.states(); s[0] != a2a.TaskStateWorking || s[1] != a2a.TaskStateCompleted {
		t.Fatalf("order %v", s)
	}
}

func TestPushRetriesAndGivesUp(t *testing.T) {
	n := startNode(t, Options{Push: PushOptions{MaxAttempts: 4}})
	rcv := newReceiver(t)
	c := n.rpc()
	// Three 503s, then success on the fourth and last attempt.
	rcv.setFail(3)
	task := sendTask(t, c, scripted(directive.Directive{DelayMs: 60_000}), immediate())
	if _, err := c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: rcv.srv.URL}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID}); err != nil {
		t.Fatal(err)
	}
	rcv.waitFor(t, a2a.TaskStateCanceled)
	eventually(t, "the delivery to leave the store", func() string {
		if k, _ := n.agent.Store().PendingDeliveries(ctxT()); k != 0 {
			return "still pending"
		}
		return ""
	})
	// Four failures: dropped after MaxAttempts, nothing delivered.
	rcv.setFail(4)
	task2 := sendTask(t, c, scripted(directive.Directive{DelayMs: 60_000}), immediate())
	c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task2.ID, URL: rcv.srv.URL})
	c.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task2.ID})
	eventually(t, "the delivery to be given up", func() string {
		if k, _ := n.agent.Store().PendingDeliveries(ctxT()); k != 0 {
			return "still pending"
		}
		return ""
	})
	if len(rcv.got()) != 1 {
		t.Fatalf("a given-up delivery arrived: %v", rcv.states())
	}
}

func TestDeleteStopsDeliveries(t *testing.T) {
	n := startNode(t, Options{})
	rcv := newReceiver(t)
	c := n.rpc()
	task := sendTask(t, c, scripted(directive.Directive{DelayMs: 60_000}), immediate())
	cfg, _ := c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: rcv.srv.URL})
	if err := c.DeleteTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: cfg.ID}); err != nil {
		t.Fatal(err)
	}
	c.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
	// A second config registered after the first was deleted proves the
	// dispatcher ran past the cancel.
	task2 := sendTask(t, c, scripted(directive.Directive{DelayMs: 60_000}), immediate())
	c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task2.ID, URL: rcv.srv.URL})
	c.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task2.ID})
	rcv.waitFor(t, a2a.TaskStateCanceled)
	for _, p := range rcv.got() {
		if p.body.TaskID() == task.ID {
			t.Fatalf("a deleted config got a push: %s", p.raw)
		}
	}
}

// Two in-process instances on one SQLite file: a task started on A and
// canceled through B stops on A; a stream on B sees A's events; configs and
// pending deliveries outlive A.
func TestTwoInstancesShareState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	stA, err := OpenSQLiteStore(path)
	if err != nil {
		t.Fatal(err)
	}
	stB, err := OpenSQLiteStore(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stA.Close(); stB.Close() })
	a := startNode(t, Options{Name: "a", Store: stA})
	b := startNode(t, Options{Name: "b", Store: stB})
	rcv := newReceiver(t)

	task := sendTask(t, a.rpc(), scripted(directive.Directive{DelayMs: 60_000}), &a2a.SendMessageConfiguration{
		ReturnImmediately: true, TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: rcv.srv.URL}})
	if got := getTask(t, b.rest(), task.ID); got.ID != task.ID {
		t.Fatal("B does not see A's task")
	}
	s, err := b.rest().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
	if err != nil {
		t.Fatal(err)
	}
	canceled, err := b.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
	if err != nil || canceled.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("cancel through B: %v %+v", err, canceled)
	}
	if got := describe(collect(t, s)); got != "task:TASK_STATE_SUBMITTED status:TASK_STATE_CANCELED" {
		t.Fatalf("stream on B: %s", got)
	}
	eventually(t, "A's worker to stop", func() string {
		rec, _ := stA.GetTask(ctxT(), task.ID)
		if rec.Owner != "" {
			return "still owned by " + rec.Owner
		}
		return ""
	})
	rcv.waitFor(t, a2a.TaskStateCanceled)

	// A task left by a drained instance is carried on by the other.
	slow := sendTask(t, a.rpc(), scripted(directive.Directive{DelayMs: 50, ArtifactChunks: intp(2)}), immediate())
	a.stop()
	done := waitState(t, b.rpc(), slow.ID, a2a.TaskStateCompleted)
	if len(done.Artifacts) != 1 || len(done.Artifacts[0].Parts) != 2 {
		t.Fatalf("adopted task's artifact: %+v", done.Artifacts)
	}
}

func TestShutdownDrains(t *testing.T) {
	n := startNode(t, Options{})
	s, err := n.rpc().SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: scripted(directive.Directive{DelayMs: 60_000})})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- n.agent.Shutdown(ctx) }()
	eventually(t, "the instance to refuse new work", func() string {
		if n.agent.Ready() {
			return "still ready"
		}
		return ""
	})
	_, err = n.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")})
	if err == nil {
		t.Fatal("a draining instance accepted new work")
	}
	// The open stream is cut when the drain deadline passes; Shutdown returns.
	s.Next() // snapshot
	if _, err := s.Next(); err == nil {
		t.Fatal("stream still open after shutdown")
	}
	<-errc
	status, hdr, _ := rawHTTP(t, "GET", n.srv.URL+a2a.WellKnownCardPath, "", "", nil)
	if status != 503 || hdr.Get("Retry-After") == "" {
		t.Fatalf("card after shutdown: %d", status)
	}
}

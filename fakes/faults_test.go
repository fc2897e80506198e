package fakes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// faultEnv starts instances with the fault under test switched on (or, for
// the clean run, off).
type faultEnv struct {
	t      *testing.T
	faults []string
	dbPath string
}

func (e *faultEnv) node(o Options) *node {
	o.Faults = e.faults
	return startNode(e.t, o)
}

// shared starts an instance on the environment's SQLite file, with its own
// store handle, as a separate process would have.
func (e *faultEnv) shared(name string) *node {
	if e.dbPath == "" {
		e.dbPath = filepath.Join(e.t.TempDir(), "shared.db")
	}
	st, err := OpenSQLiteStore(e.dbPath)
	if err != nil {
		e.t.Fatal(err)
	}
	n := e.node(Options{Name: name, Store: st})
	e.t.Cleanup(func() { n.stop(); st.Close() })
	return n
}

// settledDeliveries waits until no delivery is pending: every push the agent
// enqueued has been made (or dropped), so what the receiver has is final.
func settledDeliveries(t *testing.T, n *node) {
	t.Helper()
	eventually(t, "pending deliveries to drain", func() string {
		k, err := n.agent.Store().PendingDeliveries(ctxT())
		if err != nil || k != 0 {
			return fmt.Sprintf("%d pending (%v)", k, err)
		}
		return ""
	})
}

// workerDone waits until no instance runs the task any more (its lease is
// released when its worker stops, for whatever reason).
func workerDone(t *testing.T, n *node, id string) {
	t.Helper()
	eventually(t, "the task's worker to stop", func() string {
		rec, err := n.agent.Store().GetTask(ctxT(), id)
		if err != nil || rec.Owner != "" {
			return fmt.Sprintf("owner %q (%v)", rec.Owner, err)
		}
		return ""
	})
}

func rawResult(t *testing.T, n *node, method string, params any) string {
	t.Helper()
	resp := rpcCall(t, n, method, params)
	if resp.Error != nil {
		t.Fatalf("%s: %+v", method, resp.Error)
	}
	return string(resp.Result)
}

// nextWithin reads one stream event, giving up after d (for a stream that
// must close: a correct agent closes it at once).
func nextWithin(s *client.Stream, d time.Duration) (a2a.StreamResponse, error) {
	type res struct {
		ev  a2a.StreamResponse
		err error
	}
	ch := make(chan res, 1)
	go func() { ev, err := s.Next(); ch <- res{ev, err} }()
	select {
	case r := <-ch:
		return r.ev, r.err
	case <-time.After(d):
		s.Close()
		<-ch
		return a2a.StreamResponse{}, context.DeadlineExceeded
	}
}

// oldETagRevalidates: after a rotation, a conditional GET with the card's
// previous ETag gets 304 (the client keeps the old card).
func oldETagRevalidates(e *faultEnv) string {
	n := e.node(Options{})
	etag := fetchCard(e.t, n, nil).Header.Get("ETag")
	n.agent.Rotate(Rotation{})
	if cr := fetchCard(e.t, n, map[string]string{"If-None-Match": etag}); cr.Status == 304 {
		return "304 for the pre-rotation ETag"
	}
	return ""
}

// faultCases gives, per fault, an observation that returns a description of
// the fault's misbehaviour when it sees it and "" when the agent behaved.
// Each runs twice: with the fault (must misbehave) and without (must not),
// which proves both the fault and the clean agent.
var faultCases = map[string]func(e *faultEnv) string{
	// Both keep a revalidating client on its stale card, by different
	// means: an ETag that never changes, or a 304 for any ETag.
	faultETagNeverChanges:   oldETagRevalidates,
	faultAnyETagNotModified: oldETagRevalidates,
	// After a rotation a read without validators still gets the previous
	// generation's card, while a revalidation of its ETag gets the new one.
	faultOriginStaleWithoutValidators: func(e *faultEnv) string {
		n := e.node(Options{})
		etag := fetchCard(e.t, n, nil).Header.Get("ETag")
		n.agent.Rotate(Rotation{})
		fresh := fetchCard(e.t, n, nil)
		cond := fetchCard(e.t, n, map[string]string{"If-None-Match": etag})
		if fresh.Header.Get("ETag") == etag && cond.Status == 200 && cond.Header.Get("ETag") != etag {
			return fmt.Sprintf("after the rotation a read without validators got version %s under the old ETag, a revalidation version %s", fresh.Card.Version, cond.Card.Version)
		}
		return ""
	},
	faultNoConditionalGet: func(e *faultEnv) string {
		n := e.node(Options{})
		etag := fetchCard(e.t, n, nil).Header.Get("ETag")
		if cr := fetchCard(e.t, n, map[string]string{"If-None-Match": etag}); cr.Status != 304 {
			return fmt.Sprintf("HTTP %d for a matching If-None-Match", cr.Status)
		}
		return ""
	},
	faultNoCacheHeaders: func(e *faultEnv) string {
		cr := fetchCard(e.t, e.node(Options{}), nil)
		if cr.Header.Get("ETag") == "" || cr.Header.Get("Cache-Control") == "" {
			return fmt.Sprintf("ETag %q, Cache-Control %q", cr.Header.Get("ETag"), cr.Header.Get("Cache-Control"))
		}
		return ""
	},
	faultV03Card: func(e *faultEnv) string {
		cr := fetchCard(e.t, e.node(Options{}), nil)
		var m map[string]json.RawMessage
		json.Unmarshal(cr.Raw, &m)
		if _, ok := m["supportedInterfaces"]; !ok {
			return fmt.Sprintf("no supportedInterfaces; v0.3 keys %v", cr.Card.V03Leftovers())
		}
		return ""
	},
	faultCardBeforeReady: func(e *faultEnv) string {
		a, err := New(fastOpts(Options{WarmUp: time.Hour, Faults: e.faults}))
		if err != nil {
			e.t.Fatal(err)
		}
		srv := httptest.NewServer(a)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { a.Start(ctx); close(done) }()
		defer func() { cancel(); <-done; a.Shutdown(ctxT()); srv.Close() }()
		status, _, _ := rawHTTP(e.t, "GET", srv.URL+a2a.WellKnownCardPath, "", "", nil)
		if status == 200 {
			return "card served during warm-up"
		}
		return ""
	},
	faultCardOverclaimsStreaming: func(e *faultEnv) string {
		n := e.node(Options{})
		s, err := n.rpc().SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")})
		if err == nil {
			collect(e.t, s)
		}
		if n.card.Streaming() && err != nil {
			return "card claims streaming; SendStreamingMessage: " + err.Error()
		}
		return ""
	},
	faultCardOverclaimsPush: func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		_, err := n.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "http://127.0.0.1:1/"})
		if n.card.PushNotifications() && err != nil {
			return "card claims push; create: " + err.Error()
		}
		return ""
	},
	faultNoVersionCheck: func(e *faultEnv) string {
		n := e.node(Options{})
		_, _, body := rawHTTP(e.t, "POST", n.srv.URL+JSONRPCPath, "application/json",
			`{"jsonrpc":"2.0","id":1,"method":"ListTasks"}`, map[string]string{"A2A-Version": "9.9"})
		if !strings.Contains(string(body), "-32009") {
			return "A2A-Version 9.9 served: " + truncate(string(body), 80)
		}
		return ""
	},
	faultAcceptUnknownTaskID: func(e *faultEnv) string {
		n := e.node(Options{})
		m := userMsg("follow-up")
		m.TaskID = "invented-" + newID()
		if resp, err := n.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m}); err == nil {
			return "created task " + resp.Task.ID
		}
		return ""
	},
	faultWrongErrorCodeUnknownTask: func(e *faultEnv) string {
		_, err := e.node(Options{}).rest().GetTask(ctxT(), &a2a.GetTaskRequest{ID: "nope"})
		if ce, ok := client.AsError(err); !ok || ce.Kind != a2a.ErrTaskNotFound {
			return "unknown task answered " + err.Error()
		}
		return ""
	},
	faultTerminalMessageInvalidParams: func(e *faultEnv) string {
		n := e.node(Options{})
		done := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		m := userMsg("more")
		m.TaskID = done.ID
		_, err := n.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m})
		if ce, ok := client.AsError(err); ok && ce.Code == a2a.CodeInvalidParams {
			return "message to a terminal task answered -32602"
		}
		return ""
	},
	faultTerminalStateMutates: func(e *faultEnv) string {
		n := e.node(Options{})
		done := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		m := userMsg("again")
		m.TaskID = done.ID
		n.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m})
		if got := getTask(e.t, n.rpc(), done.ID); got.Status.Timestamp != done.Status.Timestamp || len(got.History) != len(done.History) {
			return fmt.Sprintf("completed task changed: status %s at %s, history %d", got.Status.State, got.Status.Timestamp, len(got.History))
		}
		return ""
	},
	faultCancelThenComplete: func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), scripted(directive.Directive{DelayMs: 40}), immediate())
		if got, err := n.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID}); err != nil || got.Status.State != a2a.TaskStateCanceled {
			e.t.Fatalf("cancel: %v", err)
		}
		workerDone(e.t, n, task.ID)
		if s := getTask(e.t, n.rpc(), task.ID).Status.State; s != a2a.TaskStateCanceled {
			return "canceled, then " + string(s)
		}
		return ""
	},
	faultCancelAckedNotPropagated: func(e *faultEnv) string {
		a, b := e.shared("a"), e.shared("b")
		task := sendTask(e.t, a.rpc(), scripted(directive.Directive{DelayMs: 40}), immediate())
		got, err := b.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
		if err != nil || got.Status.State != a2a.TaskStateCanceled {
			e.t.Fatalf("cancel through B: %v", err)
		}
		workerDone(e.t, a, task.ID)
		if s := getTask(e.t, a.rpc(), task.ID).Status.State; s != a2a.TaskStateCanceled {
			return "cancel acknowledged by B, task " + string(s) + " on A"
		}
		return ""
	},
	faultPushAuthFromCard: func(e *faultEnv) string {
		n, rcv := e.node(Options{}), newReceiver(e.t)
		n.agent.Rotate(Rotation{AuthScheme: "Basic"})
		sendTask(e.t, n.rpc(), userMsg("x"), &a2a.SendMessageConfiguration{TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{
			URL: rcv.srv.URL, Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: "task-own"}}})
		rcv.waitFor(e.t, a2a.TaskStateCompleted)
		for _, p := range rcv.got() {
			if a := p.header.Get("Authorization"); a != "Bearer task-own" {
				return "Authorization " + a
			}
		}
		return ""
	},
	faultPushConfigNotDurable: func(e *faultEnv) string {
		a, b := e.shared("a"), e.shared("b")
		task := sendTask(e.t, a.rpc(), userMsg("x"), nil)
		if _, err := a.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, ID: "c1", URL: "http://127.0.0.1:1/"}); err != nil {
			e.t.Fatal(err)
		}
		list, err := b.rpc().ListTaskPushNotificationConfigs(ctxT(), &a2a.ListTaskPushNotificationConfigsRequest{TaskID: task.ID})
		if err != nil || len(list.Configs) != 1 {
			return fmt.Sprintf("config created on A, B lists %d (%v)", len(list.Configs), err)
		}
		return ""
	},
	faultPushConfigLostOnDrain: func(e *faultEnv) string {
		a, b := e.shared("a"), e.shared("b")
		task := sendTask(e.t, a.rpc(), userMsg("x"), nil)
		a.agent.Drain()
		if _, err := a.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, ID: "c1", URL: "http://127.0.0.1:1/"}); err != nil {
			e.t.Fatal(err)
		}
		list, err := b.rpc().ListTaskPushNotificationConfigs(ctxT(), &a2a.ListTaskPushNotificationConfigsRequest{TaskID: task.ID})
		if err != nil || len(list.Configs) != 1 {
			return fmt.Sprintf("config created on A while it drained, B lists %d (%v)", len(list.Configs), err)
		}
		return ""
	},
	faultPushDispatcherSnapshot: func(e *faultEnv) string {
		n, rcv := e.node(Options{}), newReceiver(e.t)
		sendTask(e.t, n.rpc(), userMsg("x"), &a2a.SendMessageConfiguration{TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: rcv.srv.URL}})
		settledDeliveries(e.t, n)
		if len(rcv.got()) == 0 {
			return "config registered after start-up, task completed, nothing pushed"
		}
		return ""
	},
	faultPushConfigUnknownTask: func(e *faultEnv) string {
		n := e.node(Options{})
		if _, err := n.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: "no-such-task", URL: "http://127.0.0.1:1/"}); err == nil {
			return "config created for a task nobody issued"
		}
		return ""
	},
	faultPushNoRetry: func(e *faultEnv) string {
		n, rcv := e.node(Options{Push: PushOptions{BaseDelay: 10 * time.Millisecond}}), newReceiver(e.t)
		rcv.setFail(1)
		sendTask(e.t, n.rpc(), userMsg("x"), &a2a.SendMessageConfiguration{TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: rcv.srv.URL}})
		settledDeliveries(e.t, n)
		if rcv.refused() == 1 && len(rcv.states()) < 2 {
			return fmt.Sprintf("after one 503, pushed only %v", rcv.states())
		}
		return ""
	},
	faultWebhookSSRFUnchecked: func(e *faultEnv) string {
		n := e.node(Options{WebhookAllow: []string{"http://127.0.0.1:9/hook/"}})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		for _, u := range []string{"http://127.0.0.1:8/x", "http://[::1]:8/", "http://10.1.2.3/", "http://localhost:8/"} {
			if _, err := n.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: u}); err == nil {
				return "accepted webhook " + u
			}
		}
		if _, err := n.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "http://127.0.0.1:9/hook/abc"}); err != nil {
			e.t.Fatalf("allow-listed webhook refused: %v", err)
		}
		return ""
	},
	faultPushDropsCancel: func(e *faultEnv) string {
		n, rcv := e.node(Options{}), newReceiver(e.t)
		task := sendTask(e.t, n.rpc(), scripted(directive.Directive{DelayMs: 60_000}), &a2a.SendMessageConfiguration{
			ReturnImmediately: true, TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: rcv.srv.URL}})
		n.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
		settledDeliveries(e.t, n)
		if s := rcv.states(); len(s) != 1 || s[0] != a2a.TaskStateCanceled {
			return fmt.Sprintf("pushed %v after a cancel", s)
		}
		return ""
	},
	faultLoseTasksOnRestart: func(e *faultEnv) string {
		a := e.shared("a")
		task := sendTask(e.t, a.rpc(), userMsg("x"), nil)
		a.stop()
		a2 := e.shared("a")
		if _, err := a2.rpc().GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID}); err != nil {
			m := userMsg("follow-up")
			m.TaskID = task.ID
			resp, _ := a2.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m, Configuration: immediate()})
			state := ""
			if resp != nil && resp.Task != nil {
				state = string(resp.Task.Status.State)
			}
			return "after restart: " + err.Error() + "; follow-up gave " + state
		}
		return ""
	},
	faultStreamEventsStayLocal: func(e *faultEnv) string {
		a, b := e.shared("a"), e.shared("b")
		task := sendTask(e.t, a.rpc(), scripted(directive.Directive{DelayMs: 60_000}), immediate())
		s, err := b.rest().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
		if err != nil {
			e.t.Fatal(err)
		}
		defer s.Close()
		got := make(chan string, 8)
		go func() {
			for {
				ev, err := s.Next()
				if err != nil {
					close(got)
					return
				}
				if ev.StatusUpdate != nil {
					got <- string(ev.StatusUpdate.Status.State)
				}
			}
		}()
		a.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
		// Marker: a task canceled on B. Once B's own stream of it sees the
		// cancel, B's tailer is past A's cancel event (the log is in order).
		marker := sendTask(e.t, b.rpc(), scripted(directive.Directive{DelayMs: 60_000}), immediate())
		ms, _ := b.rpc().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: marker.ID})
		b.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: marker.ID})
		collect(e.t, ms)
		select {
		case st := <-got:
			if st == string(a2a.TaskStateCanceled) {
				return ""
			}
			return "stream on B saw " + st
		case <-time.After(time.Second): // grace for the stream writer after the marker
			return "stream on B never saw the cancel made on A"
		}
	},
	faultStreamNoClose: func(e *faultEnv) string {
		n := e.node(Options{})
		s, _ := n.rest().SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")})
		for i := 0; i < 4; i++ { // task, working, artifact, completed
			if _, err := s.Next(); err != nil {
				e.t.Fatal(err)
			}
		}
		if _, err := nextWithin(s, 2*time.Second); !errors.Is(err, io.EOF) {
			return "stream still open after the terminal event"
		}
		return ""
	},
	faultSubscribeNoSnapshot: func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), scripted(directive.Directive{DelayMs: 60_000}), immediate())
		s, _ := n.rpc().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
		n.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
		if evs := collect(e.t, s); evs[0].Task == nil {
			return "first event: " + describe(evs[:1])
		}
		return ""
	},
	faultSubscribeTerminalAllowed: func(e *faultEnv) string {
		n := e.node(Options{})
		done := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		if s, err := n.rpc().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: done.ID}); err == nil {
			return "subscribed to a completed task: " + describe(collect(e.t, s))
		}
		return ""
	},
	faultNonBlockingDefault: func(e *faultEnv) string {
		n := e.node(Options{})
		if task := sendTask(e.t, n.rpc(), scripted(directive.Directive{DelayMs: 10}), nil); !task.Status.State.Terminal() {
			return "blocking SendMessage returned " + string(task.Status.State)
		}
		return ""
	},
	faultListArtifactsAlways: func(e *faultEnv) string {
		n := e.node(Options{})
		sendTask(e.t, n.rpc(), userMsg("x"), nil)
		if r := rawResult(e.t, n, "ListTasks", map[string]any{}); strings.Contains(r, `"artifacts"`) {
			return "artifacts member without includeArtifacts"
		}
		return ""
	},
	faultListOldestFirst: func(e *faultEnv) string {
		n := e.node(Options{})
		first := sendTask(e.t, n.rpc(), userMsg("1"), nil)
		// The order is only defined between different status timestamps:
		// create the second task once the clock has moved past the first's.
		var second *a2a.Task
		for i := 0; i < 200; i++ {
			second = sendTask(e.t, n.rpc(), userMsg("2"), nil)
			if second.Status.Timestamp != first.Status.Timestamp {
				break
			}
		}
		if second.Status.Timestamp == first.Status.Timestamp {
			e.t.Fatalf("200 tasks created within one timestamp tick (%s)", first.Status.Timestamp)
		}
		list, err := n.rpc().ListTasks(ctxT(), &a2a.ListTasksRequest{})
		if err != nil {
			e.t.Fatal(err)
		}
		at := map[string]int{}
		for i, task := range list.Tasks {
			at[task.ID] = i
		}
		if at[first.ID] < at[second.ID] {
			return "oldest task listed first"
		}
		return ""
	},
	faultNoNextPageToken: func(e *faultEnv) string {
		n := e.node(Options{})
		if r := rawResult(e.t, n, "ListTasks", map[string]any{}); !strings.Contains(r, `"nextPageToken":""`) {
			return "last page without nextPageToken: " + truncate(r, 80)
		}
		return ""
	},
	faultHistoryLengthIgnored: func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		got, _ := n.rpc().GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID, HistoryLength: i32(0)})
		if len(got.History) != 0 {
			return fmt.Sprintf("historyLength 0 returned %d messages", len(got.History))
		}
		return ""
	},
	faultSnakeCaseFields: func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		if r := rawResult(e.t, n, "GetTask", map[string]any{"id": task.ID}); strings.Contains(r, `"context_id"`) {
			return "snake_case members: " + truncate(r, 80)
		}
		return ""
	},
	faultTimestampWithOffset: func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		if r := rawResult(e.t, n, "GetTask", map[string]any{"id": task.ID}); strings.Contains(r, `+00:00"`) {
			return "offset timestamp in " + truncate(r, 120)
		}
		return ""
	},
	faultRESTErrorNoErrorInfo: func(e *faultEnv) string {
		n := e.node(Options{})
		_, _, body := rawHTTP(e.t, "GET", n.srv.URL+RESTPath+"/tasks/nope", "", "", nil)
		var st a2a.HTTPErrorBody
		json.Unmarshal(body, &st)
		if _, ok := a2a.FindErrorInfo(st.Error.Details); !ok {
			return "REST error without ErrorInfo: " + string(body)
		}
		return ""
	},
}

func init() {
	faultCases[faultPushDeleteGoneFails] = func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		ref := &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: "c1"}
		if _, err := n.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, ID: "c1", URL: "http://127.0.0.1:1/"}); err != nil {
			e.t.Fatal(err)
		}
		if err := n.rpc().DeleteTaskPushNotificationConfig(ctxT(), ref); err != nil {
			e.t.Fatal(err)
		}
		if err := n.rpc().DeleteTaskPushNotificationConfig(ctxT(), ref); err != nil {
			return "second delete: " + err.Error()
		}
		return ""
	}
}

func TestFaults(t *testing.T) {
	for _, f := range Faults() {
		observe := faultCases[f.Name]
		if observe == nil {
			t.Errorf("fault %q has no observation in faultCases", f.Name)
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			t.Run("on", func(t *testing.T) {
				if got := observe(&faultEnv{t: t, faults: []string{f.Name}}); got == "" {
					t.Fatalf("fault %s switched on, but the agent behaved", f.Name)
				} else {
					t.Logf("observed: %s", got)
				}
			})
			t.Run("off", func(t *testing.T) {
				if got := observe(&faultEnv{t: t}); got != "" {
					t.Fatalf("clean agent misbehaved: %s", got)
				}
			})
		})
	}
}

func TestFaultRegistry(t *testing.T) {
	scenarios := map[string]bool{"": true, scenarioRotation: true, scenarioRollout: true, scenarioStaleCDN: true}
	for _, f := range Faults() {
		if f.Description == "" || !scenarios[f.Scenario] || f.Specs == nil {
			t.Errorf("fault %+v: description, scenario and specs list are required", f)
		}
		file := "fault_" + strings.ReplaceAll(f.Name, "-", "_") + ".go"
		if _, err := os.Stat(file); err != nil {
			t.Errorf("fault %q is not in its own file %s", f.Name, file)
		}
	}
	if _, err := LookupFault("no-such-fault"); err == nil || !strings.Contains(err.Error(), faultCancelThenComplete) {
		t.Fatalf("unknown fault error does not list the known ones: %v", err)
	}
	if _, err := New(Options{Faults: []string{"typo"}}); err == nil {
		t.Fatal("New accepted an unknown fault")
	}
	if len(Faults()) < 31 {
		t.Fatalf("only %d faults registered", len(Faults()))
	}
}

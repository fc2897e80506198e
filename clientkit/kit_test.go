package clientkit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/clientkit"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
)

// The state rule: the client's task is the first one its own calls show; a
// terminal state other than CANCELED after its acknowledged cancel is not
// taken, and said in a warning.
func TestReportKeepsTheCanceledState(t *testing.T) {
	r := clientkit.NewReport("cancel")
	r.Event("push", "status", "other-task", "TASK_STATE_WORKING", "")
	r.Event("stream", "task", "t1", "TASK_STATE_SUBMITTED", "c1")
	r.Event("stream", "status", "t1", "TASK_STATE_WORKING", "")
	r.CancelAcknowledged("TASK_STATE_CANCELED")
	r.Event("response", "task", "t1", "TASK_STATE_CANCELED", "")
	r.Event("stream", "status", "t1", "TASK_STATE_COMPLETED", "")
	id, ctx, st := r.Believed()
	if id != "t1" || ctx != "c1" || st != "TASK_STATE_CANCELED" || len(r.Warnings) != 1 {
		t.Fatalf("believed %s/%s %s, warnings %q", id, ctx, st, r.Warnings)
	}
}

// The result line is what the harness reads, with the kit's pieces named.
func TestPrintIsTheContractsResultLine(t *testing.T) {
	r := clientkit.NewReport("send")
	r.UsedInterface("http://127.0.0.1:1/a2a/jsonrpc", "JSONRPC")
	r.Event("response", "task", "t1", "TASK_STATE_COMPLETED", "c1")
	r.Fail(fmt.Errorf("wrapped: %w", errNotFound), table)
	var b bytes.Buffer
	if err := r.Print(&b); err != nil {
		t.Fatal(err)
	}
	res, why := clientrun.ParseResult(b.Bytes())
	if res == nil {
		t.Fatalf("the line does not parse (%s): %s", why, b.String())
	}
	if res.State != "TASK_STATE_COMPLETED" || res.Error == nil || res.Error.Class != "task-not-found" ||
		res.Supplied["client-state"] != "kit" || res.Interface == nil || len(res.Events) != 1 {
		t.Fatalf("parsed %+v (error %+v)", res, res.Error)
	}
}

var errNotFound = errors.New("TaskNotFoundError: no such task")

var table = []clientkit.Rule{
	{Match: func(e error) bool { return e == errNotFound }, Class: "task-not-found"},
	{Match: func(e error) bool { return strings.Contains(e.Error(), "refused") }, Class: "transport"},
}

func TestClassifyWalksTheChain(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("a: %w", fmt.Errorf("b: %w", errNotFound)), "task-not-found"},
		{errors.New("dial tcp: connection refused"), "transport"},
		{fmt.Errorf("waiting: %w", context.DeadlineExceeded), "timeout"},
		{errors.New("something else"), "other"},
	} {
		if got := clientkit.Classify(c.err, table); got != c.want {
			t.Errorf("%v: %s, want %s", c.err, got, c.want)
		}
	}
}

// The receiver refuses a push without the config's token (401) and passes
// on one with it, read; the report names the receiver as the kit's.
func TestReceiverChecksTheToken(t *testing.T) {
	addr := testkit.FreeAddr(t)
	env := clientkit.Env{WebhookListen: addr, PushToken: "tok-1"}
	r := clientkit.NewReport("push")
	got := make(chan clientkit.Push, 4)
	rv, err := clientkit.Receive(env, r, func(p clientkit.Push) { got <- p })
	if err != nil {
		t.Fatal(err)
	}
	defer rv.Close()
	body := `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`
	post := func(header, value string) int {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/hook", strings.NewReader(body))
		if header != "" {
			req.Header.Set(header, value)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		header, value string
		want          int
	}{
		{"", "", 401}, {"X-A2A-Notification-Token", "forged", 401},
		{"X-A2A-Notification-Token", "tok-1", 200}, {"Authorization", "Bearer tok-1", 200},
	} {
		if s := post(c.header, c.value); s != c.want {
			t.Errorf("%s %q: %d, want %d", c.header, c.value, s, c.want)
		}
	}
	// Each push is passed on before it is acknowledged: two accepted, two
	// held, and none of the refused ones.
	if len(got) != 2 {
		t.Fatalf("%d pushes passed on, want the 2 accepted", len(got))
	}
	for i := 0; i < 2; i++ {
		if p := <-got; p.Kind != "status" || p.TaskID != "t1" || p.State != "TASK_STATE_COMPLETED" {
			t.Errorf("push read as %+v", p)
		}
	}
	if r.Supplied["push-receiver"] != "kit" {
		t.Errorf("supplied %v", r.Supplied)
	}
}

// After the acknowledged cancel no state but CANCELED is taken, a stale
// WORKING included; a cancel answered with another terminal state (the task
// ended first) acknowledges nothing.
func TestTheStateRuleHoldsOnlyAfterACanceledAnswer(t *testing.T) {
	r := clientkit.NewReport("cancel")
	r.Event("stream", "task", "t1", "TASK_STATE_WORKING", "c1")
	r.Event("response", "task", "t1", "TASK_STATE_CANCELED", "")
	r.CancelAcknowledged("TASK_STATE_CANCELED")
	r.Event("push", "status", "t1", "TASK_STATE_WORKING", "")
	if _, _, st := r.Believed(); st != "TASK_STATE_CANCELED" || len(r.Warnings) != 1 {
		t.Fatalf("after the acknowledged cancel: %s, warnings %q", st, r.Warnings)
	}
	lost := clientkit.NewReport("cancel")
	lost.Event("response", "task", "t2", "TASK_STATE_COMPLETED", "c2")
	lost.CancelAcknowledged("TASK_STATE_COMPLETED")
	lost.Event("poll", "task", "t2", "TASK_STATE_COMPLETED", "")
	if _, _, st := lost.Believed(); st != "TASK_STATE_COMPLETED" || len(lost.Warnings) != 0 {
		t.Fatalf("a cancel that lost the race: %s, warnings %q", st, lost.Warnings)
	}
}

// Record keeps the event and the client's task but leaves the state to the
// driver, which sets it with SetState past the rule ("" for none).
func TestRecordAndSetStateLeaveTheStateToTheDriver(t *testing.T) {
	r := clientkit.NewReport("cancel")
	r.Record("stream", "task", "t1", "TASK_STATE_WORKING", "c1")
	if id, ctx, st := r.Believed(); id != "t1" || ctx != "c1" || st != "" {
		t.Fatalf("Record took a state: %s/%s %q", id, ctx, st)
	}
	r.CancelAcknowledged("TASK_STATE_CANCELED")
	r.SetState("TASK_STATE_COMPLETED")
	if _, _, st := r.Believed(); st != "TASK_STATE_COMPLETED" || len(r.Warnings) != 0 || len(r.Events) != 1 {
		t.Fatalf("SetState: %s, warnings %q, %d events", st, r.Warnings, len(r.Events))
	}
	r.SetState("")
	if _, _, st := r.Believed(); st != "" {
		t.Fatalf("SetState(\"\") left %s", st)
	}
}

// A re-submitted task becomes the client's task: its states are taken, the
// old task's no longer, and the cancel of the old one does not guard it.
func TestResubmittedMovesTheClientToTheNewTask(t *testing.T) {
	r := clientkit.NewReport("follow-up")
	r.Event("response", "task", "old", "TASK_STATE_INPUT_REQUIRED", "c1")
	r.CancelAcknowledged("TASK_STATE_CANCELED")
	r.Event("response", "task", "new", "TASK_STATE_WORKING", "c2")
	r.Resubmitted("new", "c2")
	if id, ctx, st := r.Believed(); id != "new" || ctx != "c2" || st != "" || r.ResubmittedTaskID != "new" {
		t.Fatalf("after Resubmitted: %s/%s %q, resubmitted %q", id, ctx, st, r.ResubmittedTaskID)
	}
	r.Event("poll", "task", "old", "TASK_STATE_FAILED", "")
	r.Event("poll", "task", "new", "TASK_STATE_COMPLETED", "")
	if _, _, st := r.Believed(); st != "TASK_STATE_COMPLETED" || len(r.Warnings) != 0 {
		t.Fatalf("believed %s, warnings %q", st, r.Warnings)
	}
}

// The receiver mounted in a driver's own server, behind its middleware:
// the middleware sees each answer (a refused push is the client's sign to
// reconcile), the kit checks the token and reads the body.
func TestHandlerMountsInTheDriversServer(t *testing.T) {
	r := clientkit.NewReport("push")
	got := make(chan clientkit.Push, 2)
	kit := clientkit.Handler(clientkit.Env{PushToken: "tok-2"}, r, func(p clientkit.Push) { got <- p })
	refused := make(chan int, 2)
	mux := http.NewServeMux()
	mux.Handle("/hook", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		kit.ServeHTTP(sw, req)
		if sw.code == http.StatusUnauthorized {
			refused <- sw.code
		}
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	post := func(token string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/hook", strings.NewReader(`{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`))
		req.Header.Set("X-A2A-Notification-Token", token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := post("forged"); s != 401 || len(refused) != 1 || len(got) != 0 {
		t.Fatalf("forged push: %d, %d refusals seen, %d passed on", s, len(refused), len(got))
	}
	if s := post("tok-2"); s != 200 || len(got) != 1 {
		t.Fatalf("authentic push: %d, %d passed on", s, len(got))
	}
	if p := <-got; p.Kind != "task" || p.TaskID != "t1" || p.ContextID != "c1" || p.State != "TASK_STATE_WORKING" {
		t.Errorf("push read as %+v", p)
	}
	if r.Supplied["push-receiver"] != "kit" {
		t.Errorf("supplied %v", r.Supplied)
	}
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

// Close lets a push being answered get its answer: the listener goes at
// once, the push in hand is still acknowledged.
func TestReceiverCloseAnswersThePushInHand(t *testing.T) {
	addr := testkit.FreeAddr(t)
	entered, release := make(chan struct{}), make(chan struct{})
	rv, err := clientkit.Receive(clientkit.Env{WebhookListen: addr, PushToken: "tok"}, nil, func(clientkit.Push) {
		close(entered)
		<-release
	})
	if err != nil {
		t.Fatal(err)
	}
	status := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/hook", strings.NewReader(`{}`))
		req.Header.Set("X-A2A-Notification-Token", "tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			status <- -1
			return
		}
		resp.Body.Close()
		status <- resp.StatusCode
	}()
	<-entered
	closed := make(chan error, 1)
	go func() { closed <- rv.Close() }()
	// The listener is closed first: once a dial is refused, Close is
	// waiting for the push in hand.
	for deadline := time.Now().Add(5 * time.Second); ; {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts 5 s after Close")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	if s := <-status; s != 200 {
		t.Fatalf("the push in hand got %d, want its 200", s)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}

// The contract's variables, and a context that leaves time to print: a
// quarter of the budget, at least 1.5 s.
func TestContractAndItsContext(t *testing.T) {
	vars := map[string]string{"A2A_CONFORM_ACTION": "send", "A2A_CONFORM_CASE": "c1", "A2A_CONFORM_TIMEOUT": "20"}
	env := clientkit.Contract(func(k string) string { return vars[k] })
	if env.Action != "send" || env.Case != "c1" || env.Timeout != 20*time.Second {
		t.Fatalf("contract %+v", env)
	}
	for _, c := range []struct{ budget, want time.Duration }{{20 * time.Second, 15 * time.Second}, {4 * time.Second, 2500 * time.Millisecond}, {2 * time.Second, time.Second}} {
		ctx, cancel := clientkit.Env{Timeout: c.budget}.Context(context.Background())
		dl, _ := ctx.Deadline()
		cancel()
		if left := time.Until(dl); left > c.want || left < c.want-time.Second {
			t.Errorf("budget %s: the context ends in %s, want %s", c.budget, left, c.want)
		}
	}
}

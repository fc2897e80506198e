package clientkit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/clientkit"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
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

package client

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

const (
	infoTaskNotFound  = `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]`
	infoNotCancelable = `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]`
	rpcTaskNotFound   = `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32001,"message":"Task not found","data":` + infoTaskNotFound + `}}`
	restTaskNotFound  = `{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found","details":` + infoTaskNotFound + `}}`
	restNotCancelable = `{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"no","details":` + infoNotCancelable + `}}`
	restNoErrorInfo   = `{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"bad"}}`
	messageResultJSON = `{"message":{"messageId":"m2","role":"ROLE_AGENT","parts":[{"text":"ok"}]}}`
	bareTaskV03       = `{"kind":"task","id":"t1","status":{"state":"completed"}}`
)

func mustErr(t *testing.T, err error) *Error {
	t.Helper()
	if err == nil {
		t.Fatal("expected an error, got success")
	}
	e, ok := AsError(err)
	if !ok {
		t.Fatalf("error %T (%v) is not a *client.Error", err, err)
	}
	if e.Error() == "" {
		t.Fatal("empty error message")
	}
	return e
}

func sendMsg(c *Client) (*a2a.SendMessageResponse, error) {
	return c.SendMessage(context.Background(), &a2a.SendMessageRequest{
		Message: &a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart("hi")}}})
}

func TestSendMessageReadings(t *testing.T) {
	for _, b := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		answer := func(result string) func(seen) *http.Response {
			if b == a2a.BindingJSONRPC {
				return rpcResult(result)
			}
			return fixed(200, "application/a2a+json", result)
		}
		t.Run(b, func(t *testing.T) {
			c, _ := newMocked(t, b, "", answer(messageResultJSON))
			r, err := sendMsg(c)
			if err != nil || r.Message == nil || r.Message.MessageID != "m2" {
				t.Fatalf("message reading: %+v %v", r, err)
			}
			c, _ = newMocked(t, b, "", answer(`{"task":`+taskJSON+`}`))
			if r, err := sendMsg(c); err != nil || r.Task == nil {
				t.Fatalf("task reading: %+v %v", r, err)
			}
			for name, bad := range map[string]string{
				"v0.3 bare task": bareTaskV03,
				"both members":   `{"task":` + taskJSON + `,"message":{"messageId":"m","role":"ROLE_AGENT","parts":[]}}`,
				"empty object":   `{}`,
				"null":           `null`,
				"array":          `[]`,
				"wrong types":    `{"task":{"id":5}}`,
			} {
				c, _ = newMocked(t, b, "", answer(bad))
				_, err := sendMsg(c)
				if e := mustErr(t, err); e.Class != Protocol || len(e.Body) == 0 {
					t.Errorf("%s: class %s body %q, want protocol with the offending bytes", name, e.Class, e.Body)
				}
			}
		})
	}
}

func TestDeleteReadings(t *testing.T) {
	ref := &a2a.TaskPushNotificationConfigRef{TaskID: "t1", ID: "p1"}
	del := func(c *Client) error { return c.DeleteTaskPushNotificationConfig(context.Background(), ref) }
	ok := map[string]func(seen) *http.Response{
		"rpc result {}":     rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"result":{}}`),
		"rpc result null":   rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"result":null}`),
		"rpc result absent": rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}}}`),
	}
	for name, a := range ok {
		c, _ := newMocked(t, a2a.BindingJSONRPC, "", a)
		if err := del(c); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	restOK := map[string]func(seen) *http.Response{
		"200 empty":        fixed(200, "", ""),
		"204 empty":        fixed(204, "", ""),
		"200 {}":           fixed(200, "application/json", `{}`),
		"200 {} a2a+json":  fixed(200, "application/a2a+json; charset=utf-8", ` {} `),
		"204 with ct only": fixed(204, "application/json", ""),
	}
	for name, a := range restOK {
		c, _ := newMocked(t, a2a.BindingHTTPJSON, "", a)
		if err := del(c); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := map[string]struct {
		binding string
		answer  func(seen) *http.Response
	}{
		"rpc result scalar": {a2a.BindingJSONRPC, rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"result":5}`)},
		"rpc both":          {a2a.BindingJSONRPC, rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"result":{},"error":{"code":1,"message":"x"}}`)},
		"rest array":        {a2a.BindingHTTPJSON, fixed(200, "application/json", `[1]`)},
		"rest html":         {a2a.BindingHTTPJSON, fixed(200, "text/html", `<p>ok</p>`)},
	}
	for name, tc := range bad {
		c, _ := newMocked(t, tc.binding, "", tc.answer)
		if e := mustErr(t, del(c)); e.Class != Protocol {
			t.Errorf("%s: class %s, want protocol", name, e.Class)
		}
	}
	// Only Delete may omit the result.
	c, _ := newMocked(t, a2a.BindingJSONRPC, "", rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}}}`))
	_, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"})
	if e := mustErr(t, err); e.Class != Protocol {
		t.Fatalf("GetTask without result: class %s", e.Class)
	}
}

func TestContentTypes(t *testing.T) {
	for _, ct := range []string{"application/json", "application/a2a+json", "application/json; charset=utf-8", "Application/JSON"} {
		for _, b := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
			a := fixed(200, ct, taskJSON)
			if b == a2a.BindingJSONRPC {
				a = rpcRaw(200, ct, `{"jsonrpc":"2.0","id":{{id}},"result":`+taskJSON+`}`)
			}
			c, _ := newMocked(t, b, "", a)
			if _, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"}); err != nil {
				t.Errorf("%s %s: %v", b, ct, err)
			}
		}
	}
	for _, ct := range []string{"text/html", "", "text/plain", "application/xml"} {
		c, _ := newMocked(t, a2a.BindingHTTPJSON, "", fixed(200, ct, taskJSON))
		_, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"})
		if e := mustErr(t, err); e.Class != Protocol || !strings.Contains(e.Message, "Content-Type") {
			t.Errorf("%q: %v", ct, e)
		}
	}
}

// errorCase is one agent answer and the classification expected for it.
type errorCase struct {
	name    string
	binding string
	answer  func(seen) *http.Response
	class   Class
	kind    a2a.ErrorKind
	code    int
	status  int
	reason  string
	tables  []a2a.ErrorTable
}

func TestErrorClassification(t *testing.T) {
	cases := []errorCase{
		// JSON-RPC
		{name: "rpc A2A error with ErrorInfo", binding: a2a.BindingJSONRPC, answer: rpcRaw(200, "application/json", rpcTaskNotFound),
			class: A2A, kind: a2a.ErrTaskNotFound, code: -32001, status: 200, reason: "TASK_NOT_FOUND"},
		{name: "rpc A2A error without data", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32002,"message":"nope"}}`),
			class:  A2A, kind: a2a.ErrTaskNotCancelable, code: -32002, status: 200},
		{name: "rpc v0.3 object data", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32601,"message":"Method not found","data":{"method":"x"}}}`),
			class:  A2A, code: -32601, status: 200},
		{name: "rpc error with null id", binding: a2a.BindingJSONRPC,
			answer: fixed(200, "application/json", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`),
			class:  A2A, code: -32700, status: 200},
		{name: "rpc error under HTTP 4xx", binding: a2a.BindingJSONRPC, answer: rpcRaw(404, "application/json", rpcTaskNotFound),
			class: A2A, kind: a2a.ErrTaskNotFound, code: -32001, status: 404, reason: "TASK_NOT_FOUND"},
		{name: "rpc unknown code, known reason", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-31000,"message":"x","data":`+infoTaskNotFound+`}}`),
			class:  A2A, kind: a2a.ErrTaskNotFound, code: -31000, status: 200, reason: "TASK_NOT_FOUND"},
		{name: "rpc proxy 502", binding: a2a.BindingJSONRPC, answer: fixed(502, "text/html", "<h1>Bad Gateway</h1>"),
			class: HTTP, status: 502},
		{name: "rpc 401 empty", binding: a2a.BindingJSONRPC, answer: fixed(401, "", ""), class: HTTP, status: 401},
		{name: "rpc wrong version", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"1.0","id":{{id}},"result":`+taskJSON+`}`), class: Protocol, status: 200},
		{name: "rpc no version", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"id":{{id}},"result":`+taskJSON+`}`), class: Protocol, status: 200},
		{name: "rpc mismatched id", binding: a2a.BindingJSONRPC,
			answer: fixed(200, "application/json", `{"jsonrpc":"2.0","id":"other","result":`+taskJSON+`}`), class: Protocol, status: 200},
		{name: "rpc string id for number", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":"{{id}}","result":`+taskJSON+`}`), class: Protocol, status: 200},
		{name: "rpc missing id", binding: a2a.BindingJSONRPC,
			answer: fixed(200, "application/json", `{"jsonrpc":"2.0","result":`+taskJSON+`}`), class: Protocol, status: 200},
		{name: "rpc result and error", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"result":{},"error":{"code":-32001,"message":"x"}}`), class: Protocol, status: 200},
		{name: "rpc neither", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}}}`), class: Protocol, status: 200},
		{name: "rpc error code not integer", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"error":{"code":"-32001","message":"x"}}`), class: Protocol, status: 200},
		{name: "rpc error without message", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32001}}`), class: Protocol, status: 200},
		{name: "rpc bad json", binding: a2a.BindingJSONRPC, answer: fixed(200, "application/json", `{"jsonrpc":`), class: Protocol, status: 200},
		{name: "rpc null result", binding: a2a.BindingJSONRPC,
			answer: rpcRaw(200, "application/json", `{"jsonrpc":"2.0","id":{{id}},"result":null}`), class: Protocol, status: 200},
		// HTTP+JSON
		{name: "rest 404 TaskNotFound", binding: a2a.BindingHTTPJSON, answer: fixed(404, "application/json", restTaskNotFound),
			class: A2A, kind: a2a.ErrTaskNotFound, code: -32001, status: 404, reason: "TASK_NOT_FOUND",
			tables: []a2a.ErrorTable{a2a.TableV100, a2a.TableV101}},
		{name: "rest 409 NotCancelable (v1.0.0 table)", binding: a2a.BindingHTTPJSON,
			answer: fixed(409, "application/a2a+json", strings.Replace(restNotCancelable, "400", "409", 1)),
			class:  A2A, kind: a2a.ErrTaskNotCancelable, code: -32002, status: 409, reason: "TASK_NOT_CANCELABLE",
			tables: []a2a.ErrorTable{a2a.TableV100}},
		{name: "rest 400 NotCancelable (v1.0.1 table)", binding: a2a.BindingHTTPJSON, answer: fixed(400, "application/json", restNotCancelable),
			class: A2A, kind: a2a.ErrTaskNotCancelable, code: -32002, status: 400, reason: "TASK_NOT_CANCELABLE",
			tables: []a2a.ErrorTable{a2a.TableV101}},
		{name: "rest 500 NotCancelable (no table)", binding: a2a.BindingHTTPJSON, answer: fixed(500, "application/json", restNotCancelable),
			class: A2A, kind: a2a.ErrTaskNotCancelable, code: -32002, status: 500, reason: "TASK_NOT_CANCELABLE"},
		{name: "rest error without ErrorInfo", binding: a2a.BindingHTTPJSON, answer: fixed(400, "application/json", restNoErrorInfo),
			class: A2A, status: 400},
		{name: "rest error body under 200", binding: a2a.BindingHTTPJSON, answer: fixed(200, "application/json", restTaskNotFound),
			class: A2A, kind: a2a.ErrTaskNotFound, code: -32001, status: 200, reason: "TASK_NOT_FOUND"},
		{name: "rest problem+json", binding: a2a.BindingHTTPJSON,
			answer: fixed(400, "application/problem+json", `{"type":"about:blank","title":"Version not supported","status":400}`), class: HTTP, status: 400},
		{name: "rest html 503", binding: a2a.BindingHTTPJSON, answer: fixed(503, "text/html", "<p>down</p>"), class: HTTP, status: 503},
		{name: "rest bad json", binding: a2a.BindingHTTPJSON, answer: fixed(200, "application/json", `{"id":`), class: Protocol, status: 200},
		{name: "rest wrong member type", binding: a2a.BindingHTTPJSON, answer: fixed(200, "application/json", `{"id":"t","status":"done"}`), class: Protocol, status: 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newMocked(t, tc.binding, "", tc.answer)
			_, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"})
			e := mustErr(t, err)
			if e.Class != tc.class || e.Kind != tc.kind || e.Code != tc.code || e.HTTPStatus != tc.status || e.Reason != tc.reason {
				t.Fatalf("got class=%s kind=%s code=%d status=%d reason=%q; want class=%s kind=%s code=%d status=%d reason=%q\n%v",
					e.Class, e.Kind, e.Code, e.HTTPStatus, e.Reason, tc.class, tc.kind, tc.code, tc.status, tc.reason, e)
			}
			if !reflect.DeepEqual(e.Tables, tc.tables) {
				t.Fatalf("tables %v, want %v", e.Tables, tc.tables)
			}
			if e.Op != a2a.MethodGetTask || e.Binding != tc.binding {
				t.Fatalf("op %q binding %q", e.Op, e.Binding)
			}
			if tc.class != Transport && len(e.Body) == 0 && tc.name != "rpc 401 empty" {
				t.Fatal("error keeps no body as evidence")
			}
		})
	}
}

// TestSameClassificationOnBothBindings: the same agent error gives the same
// class, kind, code and reason whichever binding carried it.
func TestSameClassificationOnBothBindings(t *testing.T) {
	rpc, _ := newMocked(t, a2a.BindingJSONRPC, "", rpcRaw(200, "application/json", rpcTaskNotFound))
	rest, _ := newMocked(t, a2a.BindingHTTPJSON, "", fixed(404, "application/json", restTaskNotFound))
	var got []*Error
	for _, c := range []*Client{rpc, rest} {
		_, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"})
		got = append(got, mustErr(t, err))
	}
	a, b := got[0], got[1]
	if a.Class != b.Class || a.Kind != b.Kind || a.Code != b.Code || a.Reason != b.Reason || a.Message != b.Message {
		t.Fatalf("classification differs:\n rpc  %+v\n rest %+v", a, b)
	}
}

func TestTransportAndCap(t *testing.T) {
	boom := errors.New("connection reset")
	c2, err := New(a2a.AgentInterface{URL: restURL, ProtocolBinding: a2a.BindingHTTPJSON},
		WithHTTPClient(&http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, boom })}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c2.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"})
	if e := mustErr(t, err); e.Class != Transport || !errors.Is(err, boom) {
		t.Fatalf("got %v", e)
	}

	big := `{"id":"t1","status":{"state":"TASK_STATE_WORKING"},"metadata":{"x":"` + strings.Repeat("a", 2000) + `"}}`
	c3, _ := newMocked(t, a2a.BindingHTTPJSON, "", fixed(200, "application/json", big), WithMaxBody(1000))
	_, err = c3.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"})
	e := mustErr(t, err)
	if e.Class != Protocol || !strings.Contains(e.Error(), "body exceeded 1000 bytes") || len(e.Body) != 1000 {
		t.Fatalf("oversized body: %v (body %d bytes)", e, len(e.Body))
	}
	c4, _ := newMocked(t, a2a.BindingHTTPJSON, "", fixed(200, "application/json", big), WithMaxBody(int64(len(big))))
	if _, err := c4.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"}); err != nil {
		t.Fatalf("a body exactly at the cap must pass: %v", err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestErrorMessageIsSafe(t *testing.T) {
	hostile := `{"error":{"code":400,"message":"line1\nline2\u001b[31m` + strings.Repeat("x", 5000) + `"}}`
	c, _ := newMocked(t, a2a.BindingHTTPJSON, "", fixed(400, "application/json", hostile))
	_, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"})
	msg := mustErr(t, err).Error()
	if strings.ContainsAny(msg, "\n\x1b") || len(msg) > 600 {
		t.Fatalf("agent-supplied message not escaped/capped (%d bytes): %.200s", len(msg), msg)
	}
}

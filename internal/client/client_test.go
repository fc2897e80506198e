package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/jarcoal/httpmock"
)

// The mock transport never touches the network; the .invalid host makes that
// obvious in failure messages.
const (
	rpcURL  = "http://agent.invalid/a2a/rpc"
	restURL = "http://agent.invalid/a2a/rest"
)

// seen is one request as the mock transport received it.
type seen struct {
	method string
	url    string
	path   string // escaped
	query  string
	header http.Header
	body   []byte
}

// recorder captures requests and answers with a canned response built from
// the request (so JSON-RPC responses can echo the id).
type mockAgent struct {
	t        testing.TB
	requests []seen
	answer   func(s seen) *http.Response
}

func (m *mockAgent) responder(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
	}
	s := seen{method: req.Method, url: req.URL.String(), path: req.URL.EscapedPath(), query: req.URL.RawQuery,
		header: req.Header.Clone(), body: body}
	m.requests = append(m.requests, s)
	resp := m.answer(s)
	resp.Request = req
	return resp, nil
}

func (m *mockAgent) last() seen {
	m.t.Helper()
	if len(m.requests) == 0 {
		m.t.Fatal("no request reached the mock agent")
	}
	return m.requests[len(m.requests)-1]
}

// newMocked returns a client for binding whose http.Client uses an httpmock
// transport (never the global Activate) answered by m.
func newMocked(t testing.TB, binding, tenant string, answer func(seen) *http.Response, opts ...Option) (*Client, *mockAgent) {
	t.Helper()
	m := &mockAgent{t: t, answer: answer}
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(m.responder)
	u := rpcURL
	if binding == a2a.BindingHTTPJSON {
		u = restURL
	}
	c, err := New(a2a.AgentInterface{URL: u, ProtocolBinding: binding, Tenant: tenant, ProtocolVersion: "1.0"},
		append([]Option{WithHTTPClient(&http.Client{Transport: mt})}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

func response(status int, ct, body string) *http.Response {
	r := httpmock.NewStringResponse(status, body)
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	return r
}

// rpcResult answers a JSON-RPC request with result (raw JSON), echoing its id.
func rpcResult(result string) func(seen) *http.Response {
	return func(s seen) *http.Response {
		var req a2a.JSONRPCRequest
		_ = json.Unmarshal(s.body, &req)
		return response(200, "application/json", `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":`+result+`}`)
	}
}

// rpcRaw answers with a body in which {{id}} is replaced by the request id.
func rpcRaw(status int, ct, body string) func(seen) *http.Response {
	return func(s seen) *http.Response {
		var req a2a.JSONRPCRequest
		_ = json.Unmarshal(s.body, &req)
		return response(status, ct, strings.ReplaceAll(body, "{{id}}", string(req.ID)))
	}
}

func fixed(status int, ct, body string) func(seen) *http.Response {
	return func(seen) *http.Response { return response(status, ct, body) }
}

func jsonEqual(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %q is not JSON: %v", what, got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: want %q is not JSON: %v", what, want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("%s:\n got %s\nwant %s", what, got, want)
	}
}

func i32(v int32) *int32 { return &v }
func bptr(v bool) *bool  { return &v }

const (
	taskJSON   = `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}`
	configJSON = `{"id":"p1","taskId":"t1","url":"https://hook.invalid/h","token":"tok"}`
	cardJSON   = `{"name":"A","description":"d","version":"1","supportedInterfaces":[{"url":"http://agent.invalid/a2a/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`
)

// opCase is one operation with the wire shape expected on each binding.
type opCase struct {
	op     string
	invoke func(ctx context.Context, c *Client) (any, error)
	// JSON-RPC params as sent (tenant "t1" is the interface's).
	params string
	// HTTP+JSON verb, escaped path, query and body ("" for none).
	verb, path, query, body string
	result                  string // the result document the agent answers
	check                   func(t *testing.T, got any)
}

func opCases() []opCase {
	msg := &a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart("hi")}}
	return []opCase{
		{
			op: a2a.MethodSendMessage,
			invoke: func(ctx context.Context, c *Client) (any, error) {
				return c.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
			},
			params: `{"tenant":"t1","message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`,
			verb:   "POST", path: "/a2a/rest/t1/message:send",
			body:   `{"tenant":"t1","message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`,
			result: `{"task":` + taskJSON + `}`,
			check: func(t *testing.T, got any) {
				r := got.(*a2a.SendMessageResponse)
				if r.Task == nil || r.Task.ID != "t1" || r.Message != nil {
					t.Fatalf("decoded %+v", r)
				}
			},
		},
		{
			op: a2a.MethodGetTask,
			invoke: func(ctx context.Context, c *Client) (any, error) {
				return c.GetTask(ctx, &a2a.GetTaskRequest{ID: "t/1", HistoryLength: i32(3)})
			},
			params: `{"tenant":"t1","id":"t/1","historyLength":3}`,
			verb:   "GET", path: "/a2a/rest/t1/tasks/t%2F1", query: "historyLength=3",
			result: taskJSON,
			check: func(t *testing.T, got any) {
				if task := got.(*a2a.Task); task.ID != "t1" || task.Status.State != a2a.TaskStateWorking {
					t.Fatalf("decoded %+v", task)
				}
			},
		},
		{
			op: a2a.MethodListTasks,
			invoke: func(ctx context.Context, c *Client) (any, error) {
				return c.ListTasks(ctx, &a2a.ListTasksRequest{ContextID: "c1", Status: a2a.TaskStateWorking,
					PageSize: i32(10), PageToken: "p", HistoryLength: i32(0),
					StatusTimestampAfter: "2026-01-01T00:00:00Z", IncludeArtifacts: bptr(false)})
			},
			params: `{"tenant":"t1","contextId":"c1","status":"TASK_STATE_WORKING","pageSize":10,"pageToken":"p","historyLength":0,"statusTimestampAfter":"2026-01-01T00:00:00Z","includeArtifacts":false}`,
			verb:   "GET", path: "/a2a/rest/t1/tasks",
			query:  "contextId=c1&historyLength=0&includeArtifacts=false&pageSize=10&pageToken=p&status=TASK_STATE_WORKING&statusTimestampAfter=2026-01-01T00%3A00%3A00Z",
			result: `{"tasks":[` + taskJSON + `],"nextPageToken":"","pageSize":10,"totalSize":1}`,
			check: func(t *testing.T, got any) {
				r := got.(*a2a.ListTasksResponse)
				if len(r.Tasks) != 1 || r.NextPageToken == nil || *r.NextPageToken != "" || r.TotalSize != 1 {
					t.Fatalf("decoded %+v", r)
				}
			},
		},
		{
			op: a2a.MethodCancelTask,
			invoke: func(ctx context.Context, c *Client) (any, error) {
				return c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: "t1"})
			},
			params: `{"tenant":"t1","id":"t1"}`,
			verb:   "POST", path: "/a2a/rest/t1/tasks/t1:cancel", body: `{"tenant":"t1","id":"t1"}`,
			result: `{"id":"t1","status":{"state":"TASK_STATE_CANCELED"}}`,
			check: func(t *testing.T, got any) {
				if got.(*a2a.Task).Status.State != a2a.TaskStateCanceled {
					t.Fatalf("decoded %+v", got)
				}
			},
		},
		{
			op: a2a.MethodCreateTaskPushNotificationConfig,
			invoke: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: "t1", URL: "https://hook.invalid/h", Token: "tok"})
			},
			params: `{"tenant":"t1","taskId":"t1","url":"https://hook.invalid/h","token":"tok"}`,
			verb:   "POST", path: "/a2a/rest/t1/tasks/t1/pushNotificationConfigs",
			body:   `{"tenant":"t1","taskId":"t1","url":"https://hook.invalid/h","token":"tok"}`,
			result: configJSON,
			check: func(t *testing.T, got any) {
				if got.(*a2a.TaskPushNotificationConfig).ID != "p1" {
					t.Fatalf("decoded %+v", got)
				}
			},
		},
		{
			op: a2a.MethodGetTaskPushNotificationConfig,
			invoke: func(ctx context.Context, c *Client) (any, error) {
				return c.GetTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: "t1", ID: "p1"})
			},
			params: `{"tenant":"t1","taskId":"t1","id":"p1"}`,
			verb:   "GET", path: "/a2a/rest/t1/tasks/t1/pushNotificationConfigs/p1",
			result: configJSON,
			check: func(t *testing.T, got any) {
				if got.(*a2a.TaskPushNotificationConfig).URL != "https://hook.invalid/h" {
					t.Fatalf("decoded %+v", got)
				}
			},
		},
		{
			op: a2a.MethodListTaskPushNotificationConfigs,
			invoke: func(ctx context.Context, c *Client) (any, error) {
				return c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: "t1", PageSize: 5, PageToken: "x"})
			},
			params: `{"tenant":"t1","taskId":"t1","pageSize":5,"pageToken":"x"}`,
			verb:   "GET", path: "/a2a/rest/t1/tasks/t1/pushNotificationConfigs", query: "pageSize=5&pageToken=x",
			result: `{"configs":[` + configJSON + `],"nextPageToken":"n"}`,
			check: func(t *testing.T, got any) {
				r := got.(*a2a.ListTaskPushNotificationConfigsResponse)
				if len(r.Configs) != 1 || r.NextPageToken != "n" {
					t.Fatalf("decoded %+v", r)
				}
			},
		},
		{
			op: a2a.MethodDeleteTaskPushNotificationConfig,
			invoke: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: "t1", ID: "p1"})
			},
			params: `{"tenant":"t1","taskId":"t1","id":"p1"}`,
			verb:   "DELETE", path: "/a2a/rest/t1/tasks/t1/pushNotificationConfigs/p1",
			result: `{}`,
			check:  func(t *testing.T, got any) {},
		},
		{
			op: a2a.MethodGetExtendedAgentCard,
			invoke: func(ctx context.Context, c *Client) (any, error) {
				return c.GetExtendedAgentCard(ctx, nil)
			},
			params: `{"tenant":"t1"}`,
			verb:   "GET", path: "/a2a/rest/t1/extendedAgentCard",
			result: cardJSON,
			check: func(t *testing.T, got any) {
				if got.(*a2a.AgentCard).Name != "A" {
					t.Fatalf("decoded %+v", got)
				}
			},
		},
	}
}

func TestEveryUnaryOperationJSONRPC(t *testing.T) {
	for _, tc := range opCases() {
		t.Run(tc.op, func(t *testing.T) {
			c, m := newMocked(t, a2a.BindingJSONRPC, "t1", rpcResult(tc.result), WithHeader("Authorization", "Bearer k"))
			got, err := tc.invoke(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, got)
			s := m.last()
			if s.method != "POST" || s.url != rpcURL {
				t.Fatalf("request %s %s, want POST %s", s.method, s.url, rpcURL)
			}
			assertCommonHeaders(t, s, true)
			var env map[string]json.RawMessage
			if err := json.Unmarshal(s.body, &env); err != nil {
				t.Fatal(err)
			}
			jsonEqual(t, "jsonrpc", env["jsonrpc"], `"2.0"`)
			jsonEqual(t, "method", env["method"], `"`+tc.op+`"`)
			jsonEqual(t, "params", env["params"], tc.params)
			if len(env["id"]) == 0 {
				t.Fatal("request has no id")
			}
		})
	}
}

func TestEveryUnaryOperationREST(t *testing.T) {
	for _, tc := range opCases() {
		t.Run(tc.op, func(t *testing.T) {
			c, m := newMocked(t, a2a.BindingHTTPJSON, "t1", fixed(200, "application/json", tc.result), WithHeader("Authorization", "Bearer k"))
			got, err := tc.invoke(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, got)
			s := m.last()
			if s.method != tc.verb || s.path != tc.path || s.query != tc.query {
				t.Fatalf("request %s %s?%s, want %s %s?%s", s.method, s.path, s.query, tc.verb, tc.path, tc.query)
			}
			assertCommonHeaders(t, s, tc.body != "")
			if tc.body == "" {
				if len(s.body) != 0 {
					t.Fatalf("%s sent a body %q", tc.verb, s.body)
				}
			} else {
				jsonEqual(t, "body", s.body, tc.body)
			}
		})
	}
}

func assertCommonHeaders(t *testing.T, s seen, hasBody bool) {
	t.Helper()
	if v := s.header.Get("A2A-Version"); v != "1.0" {
		t.Fatalf("A2A-Version %q, want 1.0", v)
	}
	if v := s.header.Get("Authorization"); v != "Bearer k" {
		t.Fatalf("Authorization %q", v)
	}
	if ct := s.header.Get("Content-Type"); hasBody && ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	} else if !hasBody && ct != "" {
		t.Fatalf("Content-Type %q on a request without body", ct)
	}
}

func TestNoTenantMeansNoPrefixAndNoMember(t *testing.T) {
	c, m := newMocked(t, a2a.BindingHTTPJSON, "", fixed(200, "application/json", taskJSON))
	if _, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"}); err != nil {
		t.Fatal(err)
	}
	if p := m.last().path; p != "/a2a/rest/tasks/t1" {
		t.Fatalf("path %s", p)
	}
	c, m = newMocked(t, a2a.BindingJSONRPC, "", rpcResult(taskJSON))
	if _, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(m.last().body, []byte("tenant")) {
		t.Fatalf("tenant sent without an interface tenant: %s", m.last().body)
	}
	// A request's own tenant wins over the interface's, and the caller's
	// request is not modified.
	c, m = newMocked(t, a2a.BindingHTTPJSON, "t1", fixed(200, "application/json", taskJSON))
	req := &a2a.GetTaskRequest{ID: "t1", Tenant: "other"}
	if _, err := c.GetTask(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if p := m.last().path; p != "/a2a/rest/other/tasks/t1" {
		t.Fatalf("path %s", p)
	}
	req2 := &a2a.GetTaskRequest{ID: "t1"}
	c.GetTask(context.Background(), req2)
	if req2.Tenant != "" {
		t.Fatal("client modified the caller's request")
	}
}

func TestHeaderOptions(t *testing.T) {
	c, m := newMocked(t, a2a.BindingJSONRPC, "", rpcResult(taskJSON),
		WithVersion(""), WithExtensions("urn:a", "urn:b"), WithContentType("application/a2a+json"),
		WithHeader("X-Trace", "1"), WithHeader("X-Trace", "2"))
	if _, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"}); err != nil {
		t.Fatal(err)
	}
	h := m.last().header
	if _, ok := h["A2a-Version"]; ok {
		t.Fatalf("WithVersion(\"\") still sent A2A-Version: %v", h)
	}
	if h.Get("A2A-Extensions") != "urn:a, urn:b" || h.Get("Content-Type") != "application/a2a+json" {
		t.Fatalf("headers %v", h)
	}
	if got := h.Values("X-Trace"); len(got) != 2 {
		t.Fatalf("X-Trace %v", got)
	}
	c, m = newMocked(t, a2a.BindingJSONRPC, "", rpcResult(taskJSON), WithVersion("0.3"), WithHeader("A2A-Version", "9.9"))
	c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1"})
	if v := m.last().header.Values("A2A-Version"); len(v) != 1 || v[0] != "9.9" {
		t.Fatalf("WithHeader must override the default: %v", v)
	}
}

func TestSubscribeVerbOption(t *testing.T) {
	sse := func(seen) *http.Response {
		return response(200, "text/event-stream", "data: {\"task\":"+taskJSON+"}\n\n")
	}
	for _, verb := range []string{"POST", "GET"} {
		c, m := newMocked(t, a2a.BindingHTTPJSON, "", sse, WithSubscribeVerb(verb))
		s, err := c.SubscribeToTask(context.Background(), &a2a.SubscribeToTaskRequest{ID: "t1"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Next(); err != nil {
			t.Fatal(err)
		}
		s.Close()
		r := m.last()
		if r.method != verb || r.path != "/a2a/rest/tasks/t1:subscribe" || r.header.Get("Accept") != "text/event-stream" {
			t.Fatalf("%s: request %s %s accept %q", verb, r.method, r.path, r.header.Get("Accept"))
		}
		if verb == "POST" {
			jsonEqual(t, "subscribe body", r.body, `{"id":"t1"}`)
		} else if len(r.body) != 0 {
			t.Fatalf("GET subscribe sent a body %q", r.body)
		}
	}
	if _, err := New(a2a.AgentInterface{URL: restURL, ProtocolBinding: a2a.BindingHTTPJSON}, WithSubscribeVerb("PUT")); err == nil {
		t.Fatal("PUT subscribe verb accepted")
	}
}

func TestNewAndFromCard(t *testing.T) {
	for _, bad := range []a2a.AgentInterface{
		{URL: rpcURL, ProtocolBinding: "GRPC"},
		{URL: "agent.invalid:443", ProtocolBinding: "JSONRPC"},
		{URL: "ftp://agent.invalid/", ProtocolBinding: "JSONRPC"},
		{URL: "http://%zz", ProtocolBinding: "JSONRPC"},
	} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%+v) accepted", bad)
		}
	}
	card := &a2a.AgentCard{SupportedInterfaces: []a2a.AgentInterface{
		{URL: "wss://x.invalid", ProtocolBinding: "https://example.com/bindings/ws/v1"},
		{URL: restURL, ProtocolBinding: "HTTP+JSON", Tenant: "x"},
		{URL: rpcURL, ProtocolBinding: "JSONRPC"},
	}}
	c, err := FromCard(card)
	if err != nil {
		t.Fatal(err)
	}
	if c.Binding() != a2a.BindingHTTPJSON || c.Interface().Tenant != "x" {
		t.Fatalf("picked %+v, want the first supported interface in card order", c.Interface())
	}
	if c, err := FromCard(&a2a.AgentCard{SupportedInterfaces: []a2a.AgentInterface{{URL: "g.invalid:1", ProtocolBinding: "GRPC"}, {URL: restURL, ProtocolBinding: "HTTP+JSON"}}}); err != nil || c.Binding() != a2a.BindingGRPC {
		t.Fatalf("a card preferring GRPC: %v, %v", c, err)
	}
	_, err = FromCard(&a2a.AgentCard{SupportedInterfaces: []a2a.AgentInterface{{URL: "x", ProtocolBinding: "SOAP"}, {URL: "wss://x.invalid", ProtocolBinding: "https://example.com/bindings/ws/v1"}}})
	if err == nil || !strings.Contains(err.Error(), `"SOAP"`) || !strings.Contains(err.Error(), "bindings/ws") {
		t.Fatalf("error should list what was declared: %v", err)
	}
	if _, err := FromCard(&a2a.AgentCard{}); err == nil {
		t.Fatal("empty card accepted")
	}
	if _, err := FromCard(nil); err == nil {
		t.Fatal("nil card accepted")
	}
}

func TestInterfaceURLQueryKept(t *testing.T) {
	m := &mockAgent{t: t, answer: fixed(200, "application/json", taskJSON)}
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(m.responder)
	c, err := New(a2a.AgentInterface{URL: "http://agent.invalid/rest/?key=abc", ProtocolBinding: a2a.BindingHTTPJSON},
		WithHTTPClient(&http.Client{Transport: mt}))
	if err != nil {
		t.Fatal(err)
	}
	c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t1", HistoryLength: i32(1)})
	if s := m.last(); s.path != "/rest/tasks/t1" || s.query != "historyLength=1&key=abc" {
		t.Fatalf("got %s?%s", s.path, s.query)
	}
}

func TestRequestIDsAreUnique(t *testing.T) {
	c, m := newMocked(t, a2a.BindingJSONRPC, "", rpcResult(taskJSON))
	for i := 0; i < 3; i++ {
		if _, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	ids := map[string]bool{}
	for _, r := range m.requests {
		var env a2a.JSONRPCRequest
		json.Unmarshal(r.body, &env)
		ids[string(env.ID)] = true
	}
	if len(ids) != 3 {
		t.Fatalf("ids not unique: %v", ids)
	}
}

func TestAsError(t *testing.T) {
	if _, ok := AsError(errors.New("x")); ok {
		t.Fatal("plain error recognised")
	}
	e := &Error{Class: A2A}
	if got, ok := AsError(errors.Join(errors.New("ctx"), e)); !ok || got != e {
		t.Fatal("wrapped *Error not found")
	}
}

// The run remembers TLS sessions by host:port; a URL without a port names
// its scheme's default one, and a client's Authority is its URL's.
func TestAuthorityOf(t *testing.T) {
	for raw, want := range map[string]string{
		"https://agent.example.com/a2a":      "agent.example.com:443",
		"https://agent.example.com:8443/a2a": "agent.example.com:8443",
		"http://127.0.0.1/a2a":               "127.0.0.1:80",
		"https://[::1]/x":                    "[::1]:443",
	} {
		u, _ := url.Parse(raw)
		if got := AuthorityOf(u); got != want {
			t.Errorf("AuthorityOf(%s) = %s, want %s", raw, got, want)
		}
	}
	c, err := New(a2a.AgentInterface{URL: "https://agent.example.com/a2a", ProtocolBinding: a2a.BindingJSONRPC})
	if err != nil || c.Authority() != "agent.example.com:443" {
		t.Fatalf("JSON-RPC client authority %q, %v", c.Authority(), err)
	}
	g, err := New(a2a.AgentInterface{URL: "https://agent.example.com", ProtocolBinding: a2a.BindingGRPC})
	if err != nil || g.Authority() != "agent.example.com:443" {
		t.Fatalf("gRPC client authority %q, %v", g.Authority(), err)
	}
}

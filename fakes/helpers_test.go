package fakes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// testTimeout bounds every wait in these tests; waits poll, never sleep.
const testTimeout = 10 * time.Second

// node is one running instance behind a real socket.
type node struct {
	t     *testing.T
	agent *Agent
	srv   *httptest.Server
	card  *a2a.AgentCard
	// clients holds one client per binding, in card order (JSON-RPC first).
	clients []*client.Client
}

func (n *node) rpc() *client.Client  { return n.clients[0] }
func (n *node) rest() *client.Client { return n.clients[1] }

func fastOpts(o Options) Options {
	if o.PollInterval == 0 {
		o.PollInterval = 5 * time.Millisecond
	}
	if o.Push.BaseDelay == 0 {
		o.Push.BaseDelay = 10 * time.Millisecond
	}
	if o.Push.MaxDelay == 0 {
		o.Push.MaxDelay = 40 * time.Millisecond
	}
	if o.Push.Timeout == 0 {
		o.Push.Timeout = 2 * time.Second
	}
	if o.LeaseTTL == 0 {
		o.LeaseTTL = 600 * time.Millisecond
	}
	return o
}

// startNode starts an instance with fast polling and retries, and stops it
// when the test ends.
func startNode(t *testing.T, o Options) *node {
	t.Helper()
	a, err := New(fastOpts(o))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a)
	n := &node{t: t, agent: a, srv: srv}
	t.Cleanup(n.stop)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	n.loadCard()
	return n
}

// loadCard fetches the card and builds one client per interface it lists;
// when it lists none (a v0.3-shaped card under a fault), the clients are
// built from the known paths.
func (n *node) loadCard() {
	n.t.Helper()
	cr, err := client.FetchCard(context.Background(), nil, n.srv.URL, nil)
	if err != nil || cr.Card == nil {
		n.t.Fatalf("card: %v %v (HTTP %d)", err, cr.DecodeErr, cr.Status)
	}
	n.card = cr.Card
	n.clients = nil
	ifaces := cr.Card.SupportedInterfaces
	if len(ifaces) == 0 {
		ifaces = []a2a.AgentInterface{
			{URL: n.srv.URL + JSONRPCPath, ProtocolBinding: a2a.BindingJSONRPC, ProtocolVersion: "1.0"},
			{URL: n.srv.URL + RESTPath, ProtocolBinding: a2a.BindingHTTPJSON, ProtocolVersion: "1.0"},
		}
	}
	for _, i := range ifaces {
		c, err := client.New(i)
		if err != nil {
			n.t.Fatal(err)
		}
		n.clients = append(n.clients, c)
	}
}

var stopOnce sync.Map

func (n *node) stop() {
	if _, done := stopOnce.LoadOrStore(n, true); done {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n.agent.Shutdown(ctx)
	n.srv.Close()
}

// bothBindings runs f once per binding.
func bothBindings(t *testing.T, n *node, f func(t *testing.T, c *client.Client)) {
	for _, c := range n.clients {
		c := c
		t.Run(c.Binding(), func(t *testing.T) { f(t, c) })
	}
}

func intp(i int) *int       { return &i }
func i32(i int32) *int32    { return &i }
func boolp(b bool) *bool    { return &b }
func ctxT() context.Context { return context.Background() }

func userMsg(text string, extra ...a2a.Part) *a2a.Message {
	return &a2a.Message{MessageID: newID(), Role: a2a.RoleUser, Parts: append([]a2a.Part{a2a.TextPart(text)}, extra...)}
}

// scripted builds a message carrying a directive.
func scripted(d directive.Directive) *a2a.Message {
	d.Version = directive.Version
	return userMsg("scripted", d.MustPart())
}

func send(t *testing.T, c *client.Client, m *a2a.Message, cfg *a2a.SendMessageConfiguration) *a2a.SendMessageResponse {
	t.Helper()
	resp, err := c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m, Configuration: cfg})
	if err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	return resp
}

func sendTask(t *testing.T, c *client.Client, m *a2a.Message, cfg *a2a.SendMessageConfiguration) *a2a.Task {
	t.Helper()
	resp := send(t, c, m, cfg)
	if resp.Task == nil {
		t.Fatalf("SendMessage answered a message, want a task: %+v", resp.Message)
	}
	return resp.Task
}

func immediate() *a2a.SendMessageConfiguration {
	return &a2a.SendMessageConfiguration{ReturnImmediately: true}
}

func getTask(t *testing.T, c *client.Client, id string) *a2a.Task {
	t.Helper()
	task, err := c.GetTask(ctxT(), &a2a.GetTaskRequest{ID: id})
	if err != nil {
		t.Fatalf("GetTask %s: %v", id, err)
	}
	return task
}

// eventually polls cond until it returns "" or the deadline passes; the last
// non-empty answer says what was still wrong.
func eventually(t *testing.T, what string, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	last := ""
	for time.Now().Before(deadline) {
		if last = cond(); last == "" {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("timed out after %v waiting for %s: %s", testTimeout, what, last)
}

func waitState(t *testing.T, c *client.Client, id string, want a2a.TaskState) *a2a.Task {
	t.Helper()
	var task *a2a.Task
	eventually(t, fmt.Sprintf("task %s to reach %s", id, want), func() string {
		got, err := c.GetTask(ctxT(), &a2a.GetTaskRequest{ID: id})
		if err != nil {
			return err.Error()
		}
		task = got
		if got.Status.State != want {
			return "still " + string(got.Status.State)
		}
		return ""
	})
	return task
}

// expectKind asserts err is the A2A error kind (both bindings classify alike).
func expectKind(t *testing.T, err error, kind a2a.ErrorKind) *client.Error {
	t.Helper()
	ce, ok := client.AsError(err)
	if !ok || ce.Kind != kind {
		t.Fatalf("want %s, got %v", kind, err)
	}
	if ce.Binding == a2a.BindingHTTPJSON {
		found := false
		for _, tb := range ce.Tables {
			found = found || tb == a2a.TableV101
		}
		if !found {
			t.Fatalf("%s: HTTP status %d is not the v1.0.1 table's", kind, ce.HTTPStatus)
		}
	}
	return ce
}

// expectCode asserts a standard JSON-RPC error (or its HTTP+JSON status).
func expectCode(t *testing.T, err error, code, httpStatus int) *client.Error {
	t.Helper()
	ce, ok := client.AsError(err)
	if !ok {
		t.Fatalf("want error %d, got %v", code, err)
	}
	if ce.Binding == a2a.BindingJSONRPC && ce.Code != code {
		t.Fatalf("want JSON-RPC code %d, got %v", code, err)
	}
	if ce.Binding == a2a.BindingHTTPJSON && ce.HTTPStatus != httpStatus {
		t.Fatalf("want HTTP %d, got %v", httpStatus, err)
	}
	return ce
}

// collect reads a stream to its end (io.EOF), failing on any other error.
func collect(t *testing.T, s *client.Stream) []a2a.StreamResponse {
	t.Helper()
	var out []a2a.StreamResponse
	done := make(chan error, 1)
	go func() {
		for {
			ev, err := s.Next()
			if err != nil {
				done <- err
				return
			}
			out = append(out, ev)
		}
	}()
	select {
	case err := <-done:
		if !errors.Is(err, io.EOF) {
			t.Fatalf("stream ended with %v after %d events", err, len(out))
		}
	case <-time.After(testTimeout):
		s.Close()
		<-done
		t.Fatalf("stream did not close within %v; got %d events: %s", testTimeout, len(out), describe(out))
	}
	return out
}

// collectFor reads a stream for at most d, closing it then: the events,
// and whether the agent ended it first.
func collectFor(s *client.Stream, d time.Duration) ([]a2a.StreamResponse, bool) {
	var out []a2a.StreamResponse
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			ev, err := s.Next()
			if err != nil {
				return
			}
			out = append(out, ev)
		}
	}()
	select {
	case <-done:
		return out, true
	case <-time.After(d):
		s.Close()
		<-done
		return out, false
	}
}

func describe(evs []a2a.StreamResponse) string {
	var parts []string
	for _, e := range evs {
		switch {
		case e.Task != nil:
			parts = append(parts, "task:"+string(e.Task.Status.State))
		case e.StatusUpdate != nil:
			parts = append(parts, "status:"+string(e.StatusUpdate.Status.State))
		case e.ArtifactUpdate != nil:
			parts = append(parts, fmt.Sprintf("artifact(append=%v,last=%v)", e.ArtifactUpdate.Append, e.ArtifactUpdate.LastChunk))
		case e.Message != nil:
			parts = append(parts, "message")
		}
	}
	return strings.Join(parts, " ")
}

// rawHTTP sends a request with a body and headers and returns status,
// headers and body.
func rawHTTP(t *testing.T, method, url, contentType, body string, hdr map[string]string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("A2A-Version", "1.0")
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// rpcCall sends one JSON-RPC request and decodes the envelope.
func rpcCall(t *testing.T, n *node, method string, params any) a2a.JSONRPCResponse {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	_, _, body := rawHTTP(t, http.MethodPost, n.srv.URL+JSONRPCPath, "application/json", string(b), nil)
	var resp a2a.JSONRPCResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatalf("JSON-RPC response %s: %v", body, err)
	}
	return resp
}

// receiver is a webhook endpoint on loopback recording every push.
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	pushes []push
	// fail answers 503 while it is positive, counting down per request;
	// failed counts the requests so refused.
	fail, failed int
}

type push struct {
	header http.Header
	body   a2a.StreamResponse
	raw    []byte
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.fail > 0 {
			r.fail--
			r.failed++
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		var sr a2a.StreamResponse
		json.Unmarshal(b, &sr)
		r.pushes = append(r.pushes, push{header: req.Header.Clone(), body: sr, raw: b})
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) setFail(n int) {
	r.mu.Lock()
	r.fail = n
	r.mu.Unlock()
}

func (r *receiver) refused() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *receiver) got() []push {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]push(nil), r.pushes...)
}

// states lists the task states the pushes reported, in arrival order.
func (r *receiver) states() []a2a.TaskState {
	var out []a2a.TaskState
	for _, p := range r.got() {
		if s, ok := p.body.State(); ok {
			out = append(out, s)
		}
	}
	return out
}

func (r *receiver) waitFor(t *testing.T, state a2a.TaskState) {
	t.Helper()
	eventually(t, "a push of "+string(state), func() string {
		for _, s := range r.states() {
			if s == state {
				return ""
			}
		}
		return fmt.Sprintf("pushed so far: %v", r.states())
	})
}

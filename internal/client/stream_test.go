package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// agentServer starts a loopback server whose handler writes an SSE body built
// by script. {{id}} in the script is replaced by the JSON-RPC request id.
// Handlers that must hang block on release, which closes at cleanup (before
// the server's own Close, which waits for handlers).
func agentServer(t *testing.T, handler func(w http.ResponseWriter, r *http.Request, id string, release <-chan struct{})) *httptest.Server {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req a2a.JSONRPCRequest
		_ = json.Unmarshal(body, &req)
		handler(w, r, string(req.ID), release)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv
}

// sseScript writes the chunks with a flush after each one, so the client
// sees them arrive separately.
func sseScript(chunks ...string) func(http.ResponseWriter, *http.Request, string, <-chan struct{}) {
	return func(w http.ResponseWriter, r *http.Request, id string, _ <-chan struct{}) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		for _, c := range chunks {
			io.WriteString(w, strings.ReplaceAll(c, "{{id}}", id))
			w.(http.Flusher).Flush()
		}
	}
}

func streamClient(t *testing.T, srv *httptest.Server, binding string, opts ...Option) *Client {
	t.Helper()
	path := "/rpc"
	if binding == a2a.BindingHTTPJSON {
		path = "/rest"
	}
	c, err := New(a2a.AgentInterface{URL: srv.URL + path, ProtocolBinding: binding, ProtocolVersion: "1.0"},
		append([]Option{WithHTTPClient(srv.Client())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func openSend(t *testing.T, c *Client) (*Stream, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{
		Message: &a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart("go")}}})
}

// drain reads a stream to its final error, returning the events and the
// non-final errors in order.
func drain(t *testing.T, s *Stream) (events []a2a.StreamResponse, errs []error, final error) {
	t.Helper()
	for i := 0; i < 100; i++ {
		ev, err := s.Next()
		if err == nil {
			events = append(events, ev)
			continue
		}
		if err == io.EOF || isFinal(err) {
			return events, errs, err
		}
		errs = append(errs, err)
	}
	t.Fatal("stream did not end")
	return
}

func isFinal(err error) bool {
	e, ok := AsError(err)
	return ok && (e.Class == Transport || (e.Class == Protocol && (strings.Contains(e.Message, "limit") || strings.Contains(e.Message, "ended inside"))))
}

const (
	sseTask   = `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_SUBMITTED"}}}`
	sseStatus = `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`
	sseArt    = `{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"text":"x"}]},"lastChunk":true}}`
	sseDone   = `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`
)

func rpcEv(result string) string {
	return `{"jsonrpc":"2.0","id":{{id}},"result":` + result + `}`
}

func TestStreamJSONRPCFraming(t *testing.T) {
	srv := agentServer(t, sseScript(
		": keep-alive\n\n",
		"id: 1\ndata: "+rpcEv(sseTask)+"\n\n",
		// One JSON document split over data lines: joined with "\n", still JSON.
		"data: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":{{id}},\r\ndata: \"result\":"+sseStatus+"}\r\n\r\n",
		": keep-alive\n",
		"\ndata:"+rpcEv(sseArt)+"\r\r",
		"data: "+rpcEv(sseDone)+"\n\n",
	))
	c := streamClient(t, srv, a2a.BindingJSONRPC)
	s, err := openSend(t, c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	events, errs, final := drain(t, s)
	if final != io.EOF || len(errs) != 0 {
		t.Fatalf("final %v, errors %v", final, errs)
	}
	var kinds []string
	for _, ev := range events {
		kinds = append(kinds, ev.Members()[0])
	}
	if got := strings.Join(kinds, ","); got != "task,statusUpdate,artifactUpdate,statusUpdate" {
		t.Fatalf("events %s", got)
	}
	if st, _ := events[3].State(); st != a2a.TaskStateCompleted {
		t.Fatalf("last state %s", st)
	}
	if !strings.Contains(string(s.Raw()), "TASK_STATE_COMPLETED") || s.StatusCode() != 200 {
		t.Fatalf("raw %s", s.Raw())
	}
}

func TestStreamRESTFraming(t *testing.T) {
	var gotAccept, gotVersion, gotPath string
	srv := agentServer(t, func(w http.ResponseWriter, r *http.Request, id string, rel <-chan struct{}) {
		gotAccept, gotVersion, gotPath = r.Header.Get("Accept"), r.Header.Get("A2A-Version"), r.URL.Path
		sseScript("data: "+sseTask+"\n\n", "event: message\ndata: "+sseStatus+"\n\n", "data: "+sseDone+"\n\n")(w, r, id, rel)
	})
	c := streamClient(t, srv, a2a.BindingHTTPJSON)
	s, err := openSend(t, c)
	if err != nil {
		t.Fatal(err)
	}
	events, errs, final := drain(t, s)
	if final != io.EOF || len(errs) != 0 || len(events) != 3 {
		t.Fatalf("events %d errors %v final %v", len(events), errs, final)
	}
	if gotAccept != "text/event-stream" || gotVersion != "1.0" || gotPath != "/rest/message:stream" {
		t.Fatalf("request accept=%q version=%q path=%q", gotAccept, gotVersion, gotPath)
	}
	// A bare StreamResponse on JSON-RPC lacks the envelope: protocol error.
	c = streamClient(t, srv, a2a.BindingJSONRPC)
	s, err = openSend(t, c)
	if err != nil {
		t.Fatal(err)
	}
	_, errs, _ = drain(t, s)
	if len(errs) != 3 {
		t.Fatalf("want 3 protocol errors for bare events on JSON-RPC, got %v", errs)
	}
	if e := mustErr(t, errs[0]); e.Class != Protocol || !e.InStream || !strings.Contains(string(e.Body), "TASK_STATE_SUBMITTED") {
		t.Fatalf("got %v", e)
	}
}

func TestStreamMidStreamErrors(t *testing.T) {
	rpcErr := `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32001,"message":"gone","data":` + infoTaskNotFound + `}}`
	restErr := `{"error":{"code":404,"status":"NOT_FOUND","message":"gone","details":` + infoTaskNotFound + `}}`
	cases := []struct {
		name    string
		binding string
		script  []string
	}{
		{"jsonrpc error in data", a2a.BindingJSONRPC, []string{"data: " + rpcEv(sseTask) + "\n\n", "data: " + rpcErr + "\n\n"}},
		{"jsonrpc event: error", a2a.BindingJSONRPC, []string{"data: " + rpcEv(sseTask) + "\n\n", "event: error\ndata: " + rpcErr + "\n\n"}},
		{"rest data error object", a2a.BindingHTTPJSON, []string{"data: " + sseTask + "\n\n", "data: " + restErr + "\n\n"}},
		{"rest event: error with Status", a2a.BindingHTTPJSON, []string{"data: " + sseTask + "\n\n", "event: error\ndata: " + restErr + "\n\n"}},
		{"rest event: error bare object", a2a.BindingHTTPJSON, []string{"data: " + sseTask + "\n\n",
			"event: error\ndata: {\"code\":-32001,\"message\":\"gone\"}\n\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := agentServer(t, sseScript(tc.script...))
			s, err := openSend(t, streamClient(t, srv, tc.binding))
			if err != nil {
				t.Fatal(err)
			}
			events, errs, final := drain(t, s)
			if len(events) != 1 || len(errs) != 1 || final != io.EOF {
				t.Fatalf("events %d errs %v final %v", len(events), errs, final)
			}
			e := mustErr(t, errs[0])
			if e.Class != A2A || e.Kind != a2a.ErrTaskNotFound || !e.InStream || e.Message != "gone" || len(e.Tables) != 0 {
				t.Fatalf("got %+v", e)
			}
		})
	}
}

func TestStreamErrorBeforeStream(t *testing.T) {
	cases := []struct {
		name    string
		binding string
		status  int
		ct      string
		body    string
		class   Class
		kind    a2a.ErrorKind
	}{
		{"rest 404 status body", a2a.BindingHTTPJSON, 404, "application/json", restTaskNotFound, A2A, a2a.ErrTaskNotFound},
		{"rest 400 unsupported", a2a.BindingHTTPJSON, 400, "application/a2a+json",
			`{"error":{"code":400,"message":"no streaming","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"UNSUPPORTED_OPERATION","domain":"a2a-protocol.org"}]}}`,
			A2A, a2a.ErrUnsupportedOperation},
		{"jsonrpc 200 json error", a2a.BindingJSONRPC, 200, "application/json",
			`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32004,"message":"no streaming"}}`, A2A, a2a.ErrUnsupportedOperation},
		{"jsonrpc 200 json result instead of stream", a2a.BindingJSONRPC, 200, "application/json", rpcEv(sseTask), Protocol, ""},
		{"rest 200 json instead of stream", a2a.BindingHTTPJSON, 200, "application/json", sseTask, Protocol, ""},
		{"rest 502 html", a2a.BindingHTTPJSON, 502, "text/html", "<h1>bad gateway</h1>", HTTP, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := agentServer(t, func(w http.ResponseWriter, r *http.Request, id string, _ <-chan struct{}) {
				w.Header().Set("Content-Type", tc.ct)
				w.WriteHeader(tc.status)
				io.WriteString(w, strings.ReplaceAll(tc.body, "{{id}}", id))
			})
			s, err := openSend(t, streamClient(t, srv, tc.binding))
			if s != nil {
				t.Fatal("stream returned for a non-stream answer")
			}
			e := mustErr(t, err)
			if e.Class != tc.class || e.Kind != tc.kind || e.HTTPStatus != tc.status || e.InStream {
				t.Fatalf("got %+v", e)
			}
		})
	}
}

func TestStreamGarbageAndTruncation(t *testing.T) {
	srv := agentServer(t, sseScript(
		"data: "+sseTask+"\n\n",
		"data: not json\n\n",
		"data: {\"kind\":\"status-update\",\"taskId\":\"t1\"}\n\n",
		"data: [1,2]\n\n",
		"data: "+sseDone+"\n", // no blank line: discarded, reported
	))
	s, err := openSend(t, streamClient(t, srv, a2a.BindingHTTPJSON))
	if err != nil {
		t.Fatal(err)
	}
	events, errs, final := drain(t, s)
	if len(events) != 1 || len(errs) != 3 {
		t.Fatalf("events %d errs %v", len(events), errs)
	}
	for _, err := range errs {
		if e := mustErr(t, err); e.Class != Protocol || len(e.Body) == 0 {
			t.Fatalf("got %v", e)
		}
	}
	e := mustErr(t, final)
	if e.Class != Protocol || !strings.Contains(string(e.Body), "TASK_STATE_COMPLETED") || !errors.Is(final, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated final event: %v body %q", e, e.Body)
	}
	if _, again := s.Next(); again != final {
		t.Fatal("final error must repeat")
	}
}

func TestStreamOversizedEvent(t *testing.T) {
	big := `{"task":{"id":"t1","status":{"state":"TASK_STATE_WORKING"},"metadata":{"x":"` + strings.Repeat("a", 4000) + `"}}}`
	srv := agentServer(t, sseScript("data: "+sseTask+"\n\n", "data: "+big+"\n\n"))
	s, err := openSend(t, streamClient(t, srv, a2a.BindingHTTPJSON, WithMaxBody(1024)))
	if err != nil {
		t.Fatal(err)
	}
	events, _, final := drain(t, s)
	e := mustErr(t, final)
	if len(events) != 1 || e.Class != Protocol || !strings.Contains(e.Error(), "1024-byte limit") {
		t.Fatalf("events %d final %v", len(events), e)
	}
}

func TestTimeoutIsTransport(t *testing.T) {
	srv := agentServer(t, func(w http.ResponseWriter, r *http.Request, id string, release <-chan struct{}) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	for _, b := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		c := streamClient(t, srv, b)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: "t1"})
		cancel()
		e := mustErr(t, err)
		if e.Class != Transport || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s: got %v", b, e)
		}
	}
}

func TestStreamDeadlineAndClose(t *testing.T) {
	srv := agentServer(t, func(w http.ResponseWriter, r *http.Request, id string, release <-chan struct{}) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: "+sseTask+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	c := streamClient(t, srv, a2a.BindingHTTPJSON)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	s, err := c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(); err != nil {
		t.Fatal(err)
	}
	_, err = s.Next()
	if e := mustErr(t, err); e.Class != Transport || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", e)
	}

	// Close from another goroutine unblocks a pending Next.
	s, err = c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{})
	if err != nil {
		t.Fatal(err)
	}
	s.Next()
	done := make(chan error, 1)
	go func() {
		_, err := s.Next()
		done <- err
	}()
	s.Close()
	select {
	case err := <-done:
		if e := mustErr(t, err); e.Class != Transport {
			t.Fatalf("after Close: %v", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not unblock Next")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestSubscribeToTaskStream(t *testing.T) {
	var method string
	srv := agentServer(t, func(w http.ResponseWriter, r *http.Request, id string, rel <-chan struct{}) {
		method = r.Method + " " + r.URL.Path
		sseScript("data: "+rpcEv(sseTask)+"\n\n")(w, r, id, rel)
	})
	c := streamClient(t, srv, a2a.BindingJSONRPC)
	s, err := c.SubscribeToTask(context.Background(), &a2a.SubscribeToTaskRequest{ID: "t1"})
	if err != nil {
		t.Fatal(err)
	}
	events, _, final := drain(t, s)
	if len(events) != 1 || final != io.EOF || method != "POST /rpc" {
		t.Fatalf("events %d final %v method %s", len(events), final, method)
	}
}

func TestStreamIDMismatch(t *testing.T) {
	srv := agentServer(t, sseScript(`data: {"jsonrpc":"2.0","id":999,"result":`+sseTask+"}\n\n"))
	s, err := openSend(t, streamClient(t, srv, a2a.BindingJSONRPC))
	if err != nil {
		t.Fatal(err)
	}
	_, errs, _ := drain(t, s)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "does not match") {
		t.Fatalf("errs %v", errs)
	}
}

// An event whose StreamResponse holds only members v1.0 does not define is
// reported with ErrUnknownEventKind as its cause, and the stream goes on, so
// that a client ignoring unknown fields (§5.7) can skip it; an event with no
// member at all, or with two, is not of that kind.
func TestUnknownEventKindIsSkippable(t *testing.T) {
	srv := agentServer(t, sseScript(
		`data: {"jsonrpc":"2.0","id":{{id}},"result":{"a2aConformFutureEvent":{"x":1}}}`+"\n\n",
		`data: {"jsonrpc":"2.0","id":{{id}},"result":{}}`+"\n\n",
		`data: {"jsonrpc":"2.0","id":{{id}},"result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}}`+"\n\n",
	))
	s, err := openSend(t, streamClient(t, srv, a2a.BindingJSONRPC))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Next(); !errors.Is(err, ErrUnknownEventKind) {
		t.Fatalf("first event: %v, want ErrUnknownEventKind", err)
	}
	if _, err := s.Next(); err == nil || errors.Is(err, ErrUnknownEventKind) {
		t.Fatalf("an empty result: %v, want a protocol error not of an unknown kind", err)
	}
	ev, err := s.Next()
	if err != nil || ev.StatusUpdate == nil || ev.StatusUpdate.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("third event %+v, %v: want the completed status, read after the unknown one", ev, err)
	}
}

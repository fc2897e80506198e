package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// grpcAgent serves the reference agent's gRPC binding on loopback.
func grpcAgent(t *testing.T, opts fakes.Options) string {
	t.Helper()
	gln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.GRPCURL = "http://" + gln.Addr().String()
	a, err := fakes.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a)
	gs := a.GRPCServer()
	go gs.Serve(gln)
	if err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gs.Stop(); srv.Close(); a.Shutdown(context.Background()) })
	return opts.GRPCURL
}

type callLog struct {
	mu                   sync.Mutex
	method, target, body string
	header               http.Header
	events               int
	code                 int
	resp                 string
}

func (l *callLog) Event([]byte) { l.mu.Lock(); l.events++; l.mu.Unlock() }
func (l *callLog) End(code int, h http.Header, body []byte, err error) {
	l.mu.Lock()
	l.code, l.resp = code, string(body)
	l.mu.Unlock()
}

func text(s string) []a2a.Part { return []a2a.Part{{Text: &s}} }

func TestGRPCOperationsAgainstTheReferenceAgent(t *testing.T) {
	t.Parallel()
	url := grpcAgent(t, fakes.Options{})
	var logs []*callLog
	var mu sync.Mutex
	rec := func(ctx context.Context, method, target string, h http.Header, body []byte) client.CallLog {
		l := &callLog{method: method, target: target, header: h, body: string(body)}
		mu.Lock()
		logs = append(logs, l)
		mu.Unlock()
		return l
	}
	c, err := client.New(a2a.AgentInterface{URL: url, ProtocolBinding: a2a.BindingGRPC},
		client.WithCallRecorder(rec), client.WithHeader("Authorization", "Bearer s3cret"), client.WithExtensions("urn:x"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Plaintext() {
		t.Error("an http:// loopback gRPC URL should be plaintext h2c")
	}
	ctx := context.Background()
	resp, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Parts: text("hello")}})
	if err != nil || resp.Task == nil || resp.Task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("SendMessage: %+v, %v", resp, err)
	}
	task, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: resp.Task.ID})
	if err != nil || task.ID != resp.Task.ID || len(task.Artifacts) != 1 {
		t.Fatalf("GetTask: %+v, %v", task, err)
	}
	_, err = c.GetTask(ctx, &a2a.GetTaskRequest{ID: "no-such-task"})
	ce, ok := client.AsError(err)
	if !ok || ce.Class != client.A2A || ce.Kind != a2a.ErrTaskNotFound || ce.Status != "NOT_FOUND" || ce.Domain != a2a.ErrorDomain || len(ce.Tables) != 2 {
		t.Fatalf("GetTask(unknown): %v", err)
	}
	_, err = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: resp.Task.ID})
	if ce, ok := client.AsError(err); !ok || ce.Kind != a2a.ErrTaskNotCancelable || ce.Status != "FAILED_PRECONDITION" {
		t.Fatalf("CancelTask(completed): %v", err)
	}
	list, err := c.ListTasks(ctx, &a2a.ListTasksRequest{ContextID: resp.Task.ContextID})
	if err != nil || len(list.Tasks) != 1 || list.NextPageToken == nil {
		t.Fatalf("ListTasks: %+v, %v", list, err)
	}
	s, err := c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m2", Role: a2a.RoleUser, Parts: text("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for {
		ev, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		kinds = append(kinds, ev.Members()...)
	}
	if len(kinds) < 2 || kinds[0] != "task" {
		t.Errorf("stream events %v, want a task first", kinds)
	}
	_, err = c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: resp.Task.ID})
	if ce, ok := client.AsError(err); !ok || ce.Kind != a2a.ErrUnsupportedOperation {
		t.Errorf("SubscribeToTask(terminal) = %v, want UnsupportedOperationError before the stream", err)
	}

	mu.Lock()
	defer mu.Unlock()
	first := logs[0]
	if first.method != "SendMessage" || first.target != strings.Replace(url, "http://", "grpc://", 1)+"/lf.a2a.v1.A2AService/SendMessage" {
		t.Errorf("recorded %s %s", first.method, first.target)
	}
	if first.header.Get("A2A-Version") != "1.0" || first.header.Get("A2A-Extensions") != "urn:x" || first.header.Get("Authorization") == "" {
		t.Errorf("recorded metadata %v", first.header)
	}
	if !strings.Contains(first.body, `"messageId":"m1"`) || !strings.Contains(first.resp, `"TASK_STATE_COMPLETED"`) {
		t.Errorf("recorded bodies are not ProtoJSON: %s → %s", first.body, first.resp)
	}
	if logs[2].code != 5 || !strings.Contains(logs[2].resp, "TASK_NOT_FOUND") {
		t.Errorf("recorded status %d %s", logs[2].code, logs[2].resp)
	}
	if logs[5].events < 2 {
		t.Errorf("stream recorded %d events", logs[5].events)
	}
}

func TestGRPCFaultsShowOnlyOnGRPC(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ fault, status, reason string }{
		{"grpc-error-no-errorinfo", "NOT_FOUND", ""},
		{"grpc-wrong-status-unknown-task", "INVALID_ARGUMENT", "TASK_NOT_FOUND"},
	} {
		url := grpcAgent(t, fakes.Options{Faults: []string{tc.fault}})
		c, err := client.New(a2a.AgentInterface{URL: url, ProtocolBinding: a2a.BindingGRPC})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "nope"})
		ce, _ := client.AsError(err)
		if ce == nil || ce.Status != tc.status || ce.Reason != tc.reason {
			t.Errorf("%s: %v", tc.fault, err)
		}
	}
}

func TestGRPCURLForms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url       string
		ok, plain bool
	}{
		{"http://127.0.0.1:7001", true, true},
		{"grpc://localhost:7001", true, true},
		{"127.0.0.1:7001", true, true},
		{"https://agent.example.com", true, false},
		{"agent.example.com:443", true, false},
		{"http://agent.example.com:80", false, false},
		{"ftp://agent.example.com", false, false},
	} {
		c, err := client.New(a2a.AgentInterface{URL: tc.url, ProtocolBinding: a2a.BindingGRPC})
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want ok=%v", tc.url, err, tc.ok)
			continue
		}
		if err == nil && c.Plaintext() != tc.plain {
			t.Errorf("%s: plaintext %v", tc.url, c.Plaintext())
		}
	}
}

// endLog counts the ends recorded for one call.
type endLog struct {
	mu    sync.Mutex
	ends  int
	code  int
	cause string
}

func (l *endLog) Event([]byte) {}
func (l *endLog) End(code int, _ http.Header, _ []byte, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ends++
	l.code = code
	if err != nil {
		l.cause = err.Error()
	}
}

// Close from another goroutine, while a Next is blocked in the gRPC
// receive, ends the stream once: the reader gets a Transport error, and
// the call is recorded as ended by the client exactly once. Run under
// -race: Close and the reader used to share the stream's final error
// unsynchronised.
func TestGRPCStreamCloseWhileReading(t *testing.T) {
	t.Parallel()
	// Every step takes a minute, so the stream stays open until closed.
	url := grpcAgent(t, fakes.Options{StepDelay: time.Minute})
	var mu sync.Mutex
	var logs []*endLog
	rec := func(ctx context.Context, method, target string, h http.Header, body []byte) client.CallLog {
		l := &endLog{}
		mu.Lock()
		logs = append(logs, l)
		mu.Unlock()
		return l
	}
	c, err := client.New(a2a.AgentInterface{URL: url, ProtocolBinding: a2a.BindingGRPC}, client.WithCallRecorder(rec))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		s, err := c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: fmt.Sprint("close-", i), Role: a2a.RoleUser, Parts: text("hi")}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Next(); err != nil { // the Task, read when the stream opened
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := s.Next()
			done <- err
		}()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if ce, ok := client.AsError(err); !ok || ce.Class != client.Transport {
				t.Fatalf("Next after Close: %v, want a Transport error", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("Close did not unblock Next")
		}
		if _, err := s.Next(); err == nil {
			t.Fatal("Next after the end returned no error")
		}
		s.Close()
		mu.Lock()
		l := logs[len(logs)-1]
		mu.Unlock()
		l.mu.Lock()
		if l.ends != 1 || l.code != 1 || l.cause != "closed by the client" {
			t.Errorf("stream %d: %d ends recorded, last code %d (%q); want one, CANCELLED, closed by the client", i, l.ends, l.code, l.cause)
		}
		l.mu.Unlock()
	}
}

package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// frontAgent starts a reference agent (prompt map, fast) for a front test.
func frontAgent(t *testing.T, o fakes.Options) *fakes.Agent {
	t.Helper()
	o.PromptMap = true
	o.DisableDirective = true
	if o.PollInterval == 0 {
		o.PollInterval = 5 * time.Millisecond
	}
	a, err := fakes.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		a.Shutdown(ctx)
	})
	return a
}

func clientsOf(t *testing.T, base string) []*client.Client {
	t.Helper()
	cr, err := client.FetchCard(context.Background(), nil, base, nil)
	if err != nil || cr.Card == nil {
		t.Fatalf("card: %v (HTTP %d)", err, cr.Status)
	}
	var out []*client.Client
	for _, i := range cr.Card.SupportedInterfaces {
		if i.ProtocolBinding == a2a.BindingGRPC {
			continue
		}
		c, err := client.New(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func text(s string) *a2a.Message {
	return &a2a.Message{MessageID: "m-" + s[:4] + time.Now().Format("150405.000000000"), Role: a2a.RoleUser, Parts: []a2a.Part{{Text: &s}}}
}

// A follow-up after the restart gets TaskNotFoundError from the next
// instance, whose card is a new generation (a new ETag).
func TestRestartLosesTheTaskAndRotatesTheCard(t *testing.T) {
	for _, binding := range []int{0, 1} {
		first := frontAgent(t, fakes.Options{})
		next := frontAgent(t, fakes.Options{Generation: 2})
		rs := NewRestart(first, next)
		srv := httptest.NewServer(rs)
		defer srv.Close()
		cr1, _ := client.FetchCard(context.Background(), nil, srv.URL, nil)
		c := clientsOf(t, srv.URL)[binding]
		resp, err := c.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: text("ask me for input")})
		if err != nil || resp.Task == nil || resp.Task.Status.State != a2a.TaskStateInputRequired {
			t.Fatalf("%s: first send: %v %+v", c.Binding(), err, resp)
		}
		if ok, _ := rs.Switched(); !ok {
			t.Fatalf("%s: no restart after the first send", c.Binding())
		}
		cr2, _ := client.FetchCard(context.Background(), nil, srv.URL, nil)
		if cr1.Header.Get("ETag") == cr2.Header.Get("ETag") || cr2.Header.Get("ETag") == "" {
			t.Fatalf("%s: ETag %q → %q: the restart must be a new card generation", c.Binding(), cr1.Header.Get("ETag"), cr2.Header.Get("ETag"))
		}
		m := text("here is more")
		m.TaskID, m.ContextID = resp.Task.ID, resp.Task.ContextID
		_, err = c.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: m})
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Kind != a2a.ErrTaskNotFound {
			t.Fatalf("%s: follow-up after the restart: want TaskNotFoundError, got %v", c.Binding(), err)
		}
	}
}

// The edge keeps serving the old card (and revalidates its ETag) while
// every other request reaches the agent as it is now.
func TestStaleEdgeServesTheOldCard(t *testing.T) {
	old := frontAgent(t, fakes.Options{})
	live := frontAgent(t, fakes.Options{Generation: 2, DisableStreaming: true})
	edge := &StaleEdge{Agent: live, MaxAge: 300 * time.Second}
	srv := httptest.NewServer(edge)
	defer srv.Close()
	var err error
	edge.Card, edge.ETag, err = CaptureCard(old, srv.URL)
	if err != nil || edge.ETag == "" {
		t.Fatalf("capture: %v, ETag %q", err, edge.ETag)
	}
	cr, _ := client.FetchCard(context.Background(), nil, srv.URL, nil)
	if cr.Card == nil || cr.Card.Capabilities.Streaming == nil || !*cr.Card.Capabilities.Streaming {
		t.Fatalf("the edge's card must still claim streaming: %s", cr.Raw)
	}
	cr2, _ := client.FetchCard(context.Background(), nil, srv.URL, http.Header{"If-None-Match": {edge.ETag}})
	if cr2.Status != http.StatusNotModified {
		t.Fatalf("revalidation at the edge: HTTP %d", cr2.Status)
	}
	c := clientsOf(t, srv.URL)[0]
	_, err = c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: text("work slowly then complete")})
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != a2a.ErrUnsupportedOperation {
		t.Fatalf("the live agent no longer streams: want UnsupportedOperationError, got %v", err)
	}
}

// The first stream is cut after two events; the task goes on and completes,
// and a GetTask afterwards sees it.
func TestStreamCutMidTask(t *testing.T) {
	for _, binding := range []int{0, 1} {
		a := frontAgent(t, fakes.Options{})
		sc := &StreamCut{Agent: a, Events: 2}
		srv := httptest.NewServer(sc)
		defer srv.Close()
		c := clientsOf(t, srv.URL)[binding]
		st, err := c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: text("work slowly then complete")})
		if err != nil {
			t.Fatal(err)
		}
		var n int
		var last a2a.TaskState
		var streamErr error
		for {
			ev, err := st.Next()
			if err != nil {
				streamErr = err
				break
			}
			n++
			if ev.StatusUpdate != nil {
				last = ev.StatusUpdate.Status.State
			}
		}
		st.Close()
		cut, _, taskID := sc.Cut()
		if !cut || taskID == "" {
			t.Fatalf("%s: stream not cut (cut=%v task=%q, %d events, last %s)", c.Binding(), cut, taskID, n, last)
		}
		if last.Terminal() {
			t.Fatalf("%s: the cut stream carried the terminal state %s", c.Binding(), last)
		}
		if streamErr == nil || strings.Contains(streamErr.Error(), "EOF") && !strings.Contains(streamErr.Error(), "unexpected") {
			t.Logf("%s: stream ended with %v", c.Binding(), streamErr)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			task, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: taskID})
			if err == nil && task.Status.State == a2a.TaskStateCompleted {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: task %s did not complete after the cut: %v %+v", c.Binding(), taskID, err, task)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// The golden front answers with the ACTS payload, in each binding's shape.
func TestGoldenFrontServesEachPayload(t *testing.T) {
	a := frontAgent(t, fakes.Options{})
	for _, p := range ActsPayloads {
		g := &GoldenFront{Agent: a, Payload: p}
		srv := httptest.NewServer(g)
		for _, c := range clientsOf(t, srv.URL) {
			ctx := context.Background()
			resp, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: text("anything at all"),
				Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: p.Operation == "get_task"}})
			if err != nil {
				t.Fatalf("%s %s: send: %v", p.ID, c.Binding(), err)
			}
			if p.Operation == "send_message" {
				if p.TaskID == "" && resp.Message == nil || p.TaskID != "" && (resp.Task == nil || resp.Task.ID != p.TaskID) {
					t.Fatalf("%s %s: send answered %+v", p.ID, c.Binding(), resp)
				}
				continue
			}
			if resp.Task == nil || resp.Task.ID != p.TaskID {
				t.Fatalf("%s %s: the send must name the payload's task: %+v", p.ID, c.Binding(), resp)
			}
			_, err = c.GetTask(ctx, &a2a.GetTaskRequest{ID: p.TaskID})
			if p.ErrorCode != 0 {
				var ce *client.Error
				if !errors.As(err, &ce) || ce.Kind != a2a.ErrTaskNotFound {
					t.Fatalf("%s %s: want TaskNotFound, got %v", p.ID, c.Binding(), err)
				}
			}
		}
		if g.Served() == 0 {
			t.Fatalf("%s: payload never served", p.ID)
		}
		srv.Close()
	}
}

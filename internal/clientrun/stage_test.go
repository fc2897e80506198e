package clientrun_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

const text = "a2a-conform stage test task"

func start(t *testing.T, s clientrun.Script) *clientrun.Stage {
	t.Helper()
	st, err := clientrun.StartStage(context.Background(), s, clientrun.StageOptions{Text: text, FollowUpText: "a2a-conform stage follow-up"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

func card(t *testing.T, st *clientrun.Stage, etag string) *client.CardResponse {
	t.Helper()
	h := http.Header{}
	if etag != "" {
		h.Set("If-None-Match", etag)
	}
	r, err := client.FetchCard(context.Background(), nil, st.BaseURL(), h)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func newClient(t *testing.T, c *a2a.AgentCard, i int) *client.Client {
	t.Helper()
	cl, err := client.New(c.SupportedInterfaces[i])
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

func msg(s, task, ctx string) *a2a.Message {
	return &a2a.Message{MessageID: "m-" + s, Role: a2a.RoleUser, TaskID: task, ContextID: ctx, Parts: []a2a.Part{{Text: &s}}}
}

// The card rotates (new version, new ETag, 304 only for the current one),
// a stale copy serves the previous card and ETag, and a rotation that loses
// the tasks makes the old task unknown.
func TestStageRotationStaleAndLostTasks(t *testing.T) {
	st := start(t, clientrun.Script{Behaviour: directive.Directive{Version: 1, Outcome: directive.OutcomeInputRequired}})
	c1 := card(t, st, "")
	etag1 := c1.Header.Get("ETag")
	if c1.Status != 200 || c1.Card == nil || etag1 == "" {
		t.Fatalf("card: %d %v etag %q", c1.Status, c1.DecodeErr, etag1)
	}
	if r := card(t, st, etag1); r.Status != http.StatusNotModified {
		t.Fatalf("revalidation with the current ETag: %d, want 304", r.Status)
	}
	cl := newClient(t, c1.Card, 0)
	ctx := context.Background()
	resp, err := cl.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg(text, "", "")})
	if err != nil || resp.Task == nil || resp.Task.Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("send: %v %+v", err, resp)
	}
	if err := st.Rotate(ctx, clientrun.Rotation{LoseTasks: true}); err != nil {
		t.Fatal(err)
	}
	c2 := card(t, st, etag1)
	if c2.Status != 200 || c2.Header.Get("ETag") == etag1 || c2.Card.Version == c1.Card.Version {
		t.Fatalf("after rotation: %d, etag %q (was %q), version %q (was %q)", c2.Status, c2.Header.Get("ETag"), etag1, c2.Card.Version, c1.Card.Version)
	}
	st.ServeStale(true)
	if r := card(t, st, ""); r.Header.Get("ETag") != etag1 || r.Card.Version != c1.Card.Version {
		t.Fatalf("stale card: etag %q version %q, want the previous %q %q", r.Header.Get("ETag"), r.Card.Version, etag1, c1.Card.Version)
	}
	st.ServeStale(false)
	_, err = cl.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg("a2a-conform stage follow-up", resp.Task.ID, resp.Task.ContextID)})
	if ce, ok := client.AsError(err); !ok || ce.Kind != a2a.ErrTaskNotFound {
		t.Fatalf("follow-up of a lost task: %v, want TaskNotFoundError", err)
	}
	var ops []string
	for _, r := range st.Requests() {
		ops = append(ops, r.Op)
	}
	if got := strings.Join(ops, ","); got != "card,card,SendMessage,card,card,SendMessage" {
		t.Errorf("requests recorded: %s", got)
	}
}

// Unknown fields reach every object of answers and events; a tenant
// interface routes HTTP+JSON's /{tenant} prefix; a stream can be cut and a
// streaming request answered with a plain error.
func TestStageRewrites(t *testing.T) {
	ctx := context.Background()
	t.Run("unknown fields", func(t *testing.T) {
		st := start(t, clientrun.Script{UnknownFields: true})
		c := card(t, st, "")
		if _, ok := c.Card.Extra[clientrun.UnknownField]; !ok {
			t.Fatalf("card lacks %s", clientrun.UnknownField)
		}
		resp, err := newClient(t, c.Card, 1).SendMessage(ctx, &a2a.SendMessageRequest{Message: msg(text, "", "")})
		if err != nil || resp.Task == nil {
			t.Fatal(err)
		}
		if _, ok := resp.Task.Extra[clientrun.UnknownField]; !ok {
			t.Errorf("task lacks %s: %+v", clientrun.UnknownField, resp.Task.Extra)
		}
		if _, ok := resp.Task.Status.Extra[clientrun.UnknownField]; !ok {
			t.Errorf("status lacks %s", clientrun.UnknownField)
		}
	})
	t.Run("tenant", func(t *testing.T) {
		st := start(t, clientrun.Script{Interfaces: []clientrun.Interface{{Binding: a2a.BindingHTTPJSON, Tenant: "t-1"}}})
		c := card(t, st, "")
		if c.Card.SupportedInterfaces[0].Tenant != "t-1" {
			t.Fatalf("interface: %+v", c.Card.SupportedInterfaces[0])
		}
		resp, err := newClient(t, c.Card, 0).SendMessage(ctx, &a2a.SendMessageRequest{Message: msg(text, "", "")})
		if err != nil || resp.Task == nil {
			t.Fatalf("send through the tenant interface: %v", err)
		}
		last := st.Requests()[len(st.Requests())-1]
		if last.Tenant != "t-1" || last.Op != "SendMessage" || last.Interface != 0 {
			t.Errorf("recorded %+v", last)
		}
	})
	// streamed opens a stream on interface iface of a stage running script,
	// reads it to its end, and returns how many events came and how it ended.
	streamed := func(t *testing.T, script clientrun.Script, iface int) (*clientrun.Stage, int, error) {
		t.Helper()
		script.Behaviour = directive.Directive{Version: 1, DelayMs: 200}
		st := start(t, script)
		c := card(t, st, "")
		s, err := newClient(t, c.Card, iface).SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg(text, "", "")})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		n := 0
		for {
			if _, err = s.Next(); err != nil {
				return st, n, err
			}
			n++
		}
	}
	t.Run("cut stream", func(t *testing.T) {
		_, n, err := streamed(t, clientrun.Script{CutStreamAfter: 2}, 0)
		if errors.Is(err, io.EOF) || n != 2 {
			t.Errorf("%d events, then %v; want 2, then the connection cut (not a clean end)", n, err)
		}
	})
	t.Run("closed stream", func(t *testing.T) {
		_, n, err := streamed(t, clientrun.Script{CloseStreamAfter: 2}, 0)
		if !errors.Is(err, io.EOF) || n != 2 {
			t.Errorf("%d events, then %v; want 2, then a clean end", n, err)
		}
	})
	t.Run("error event", func(t *testing.T) {
		for _, k := range []struct {
			iface int
			typed bool
		}{{0, false}, {1, false}, {1, true}} {
			st, n, err := streamed(t, clientrun.Script{ErrorEventAfter: 2, ErrorEventTyped: k.typed}, k.iface)
			ce, ok := client.AsError(err)
			if n != 2 || !ok || ce.Class != client.A2A || !ce.InStream || !strings.Contains(ce.Message, "mid-task") {
				t.Errorf("interface %d (typed %v): %d events, then %v; want 2, then the internal error in the stream", k.iface, k.typed, n, err)
			}
			if q := st.Requests()[len(st.Requests())-1]; !q.ErrorEvent || !q.Closed {
				t.Errorf("interface %d: the request is not marked: %+v", k.iface, q)
			}
		}
	})
	t.Run("stream error", func(t *testing.T) {
		st := start(t, clientrun.Script{StreamError: true})
		c := card(t, st, "")
		_, err := newClient(t, c.Card, 0).SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg(text, "", "")})
		if ce, ok := client.AsError(err); !ok || ce.InStream {
			t.Fatalf("want a plain error answer, got %v", err)
		}
	})
	t.Run("cancel-then-complete fault", func(t *testing.T) {
		st := start(t, clientrun.Script{Faults: []string{"cancel-then-complete"}, Behaviour: directive.Directive{Version: 1, DelayMs: 400}})
		c := card(t, st, "")
		cl := newClient(t, c.Card, 0)
		resp, err := cl.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg(text, "", ""), Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
		if err != nil || resp.Task == nil {
			t.Fatal(err)
		}
		if _, err := cl.CancelTask(ctx, &a2a.CancelTaskRequest{ID: resp.Task.ID}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			got, err := cl.GetTask(ctx, &a2a.GetTaskRequest{ID: resp.Task.ID})
			if err == nil && got.Status.State == a2a.TaskStateCompleted {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("the fault never completed the canceled task")
	})
}

// Script.Answer replaces the agent's answer with a hand-made payload, a
// plain body or an event stream.
func TestStageAnswer(t *testing.T) {
	ctx := context.Background()
	st := start(t, clientrun.Script{Answer: func(s *clientrun.Stage, r clientrun.Request) *clientrun.Answer {
		switch r.Op {
		case "GetTask":
			return &clientrun.Answer{Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{"id":"t-x","status":{"state":"TASK_STATE_WORKING"}}}`)}
		case "SendStreamingMessage":
			return &clientrun.Answer{Events: [][]byte{
				[]byte(`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t-x","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}}`),
				[]byte(`{"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t-x","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}}`),
			}}
		}
		return nil
	}})
	c := card(t, st, "")
	cl := newClient(t, c.Card, 0)
	s, err := cl.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg(text, "", "")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var states []a2a.TaskState
	for {
		ev, err := s.Next()
		if err != nil {
			break
		}
		switch {
		case ev.Task != nil:
			states = append(states, ev.Task.Status.State)
		case ev.StatusUpdate != nil:
			states = append(states, ev.StatusUpdate.Status.State)
		}
	}
	if len(states) != 2 || states[1] != a2a.TaskStateCompleted {
		t.Errorf("hand-made stream: %v", states)
	}
}

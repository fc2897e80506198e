package client

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
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

// Each ACTS payload answers the request it is for, with the request's own
// JSON-RPC id, and in the HTTP+JSON shape over that binding; a get_task
// payload's send is answered with the payload's task, still working.
func TestActsPayloadsAnswerTheirRequest(t *testing.T) {
	for _, p := range ActsPayloads {
		var served atomic.Int64
		answer := p.Answer(&served)
		for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
			send := Request{Op: a2a.MethodSendMessage, Binding: binding, RPCID: json.RawMessage(`"c-7"`)}
			a := answer(nil, send)
			if a == nil {
				t.Fatalf("%s %s: no answer to SendMessage", p.ID, binding)
			}
			var env struct {
				ID     string          `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			body := a.Body
			if binding == a2a.BindingJSONRPC {
				if json.Unmarshal(a.Body, &env) != nil || env.ID != "c-7" {
					t.Fatalf("%s: the JSON-RPC answer does not echo the request's id: %s", p.ID, a.Body)
				}
				body = env.Result
			}
			var resp a2a.SendMessageResponse
			if err := json.Unmarshal(body, &resp); err != nil {
				t.Fatalf("%s %s: send answer %s: %v", p.ID, binding, body, err)
			}
			switch {
			case p.Operation == "send_message" && p.TaskID == "" && resp.Message == nil:
				t.Fatalf("%s %s: want the payload's message, got %s", p.ID, binding, body)
			case p.TaskID != "" && (resp.Task == nil || resp.Task.ID != p.TaskID):
				t.Fatalf("%s %s: want task %s, got %s", p.ID, binding, p.TaskID, body)
			case p.Operation == "get_task" && resp.Task.Status.State != a2a.TaskStateWorking:
				t.Fatalf("%s %s: the send of a get_task payload must leave the task working: %s", p.ID, binding, body)
			}
			if p.Operation != "get_task" {
				continue
			}
			get := answer(nil, Request{Op: a2a.MethodGetTask, Binding: binding, TaskID: p.TaskID, RPCID: json.RawMessage(`9`)})
			if get == nil {
				t.Fatalf("%s %s: no answer to GetTask", p.ID, binding)
			}
			if p.ErrorCode != 0 && binding == a2a.BindingHTTPJSON && get.Status != 404 {
				t.Fatalf("%s: the error payload over HTTP+JSON must be a 404, got %d", p.ID, get.Status)
			}
			if p.ErrorCode != 0 && binding == a2a.BindingJSONRPC && !strings.Contains(string(get.Body), `"code":-32001`) {
				t.Fatalf("%s: the JSON-RPC error payload lost its code: %s", p.ID, get.Body)
			}
		}
		if answer(nil, Request{Card: true, Op: "card"}) != nil {
			t.Fatalf("%s: the card must be the agent's", p.ID)
		}
		if served.Load() == 0 {
			t.Fatalf("%s: the payload was never counted as served", p.ID)
		}
	}
}

// Under cancel-then-complete and stream-no-close, the watched stream carries
// the acknowledged CANCELED, then COMPLETED, and then ends; GetTask serves
// COMPLETED; the front records every state served, on both bindings.
func TestWatchEndsTheStreamAfterTheLaterTerminalState(t *testing.T) {
	for _, binding := range []int{0, 1} {
		a := frontAgent(t, fakes.Options{Faults: []string{"cancel-then-complete", "stream-no-close"},
			Prompts: map[string]directive.Directive{"go on": {Version: 1, Outcome: directive.OutcomeCompleted, DelayMs: 200}}})
		var served Served
		srv := httptest.NewServer(Watch(&served, a2a.TaskStateCompleted)(a))
		c := clientsOf(t, srv.URL)[binding]
		st, err := c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{Message: text("go on now")})
		if err != nil {
			t.Fatal(err)
		}
		var id string
		var seen []a2a.TaskState
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				ev, err := st.Next()
				if err != nil {
					return
				}
				switch {
				case ev.Task != nil:
					id = ev.Task.ID
				case ev.StatusUpdate != nil:
					seen = append(seen, ev.StatusUpdate.Status.State)
					if ev.StatusUpdate.Status.State == a2a.TaskStateWorking {
						if tk, err := c.CancelTask(context.Background(), &a2a.CancelTaskRequest{ID: id}); err != nil || tk.Status.State != a2a.TaskStateCanceled {
							t.Errorf("cancel: %v", err)
						}
					}
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the stream did not end after COMPLETED (saw %v)", c.Binding(), seen)
		}
		st.Close()
		want := []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCanceled, a2a.TaskStateCompleted}
		if len(seen) != 3 || seen[0] != want[0] || seen[1] != want[1] || seen[2] != want[2] {
			t.Fatalf("%s: stream states %v, want %v", c.Binding(), seen, want)
		}
		tk, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: id})
		if err != nil || tk.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("%s: GetTask after: %v %+v", c.Binding(), err, tk)
		}
		var ops []string
		for _, s := range served.States() {
			ops = append(ops, s.Op+":"+string(s.State))
		}
		got := strings.Join(ops, " ")
		for _, w := range []string{"SendStreamingMessage:TASK_STATE_CANCELED", "SendStreamingMessage:TASK_STATE_COMPLETED", "CancelTask:TASK_STATE_CANCELED", "GetTask:TASK_STATE_COMPLETED"} {
			if !strings.Contains(got, w) {
				t.Fatalf("%s: served %s, want %s among them", c.Binding(), got, w)
			}
		}
		srv.Close()
	}
}

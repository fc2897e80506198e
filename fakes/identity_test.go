package fakes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// Two identities of one agent: tokenA and tokenB.
const (
	tokenA = "token-of-identity-a"
	tokenB = "token-of-identity-b"
)

// twoIdentities starts an instance that accepts both tokens, and serves its
// gRPC binding too.
func twoIdentities(t *testing.T, faults ...string) *node {
	t.Helper()
	return startNode(t, Options{RequireAuth: tokenA, OtherTokens: []string{tokenB}, Faults: faults})
}

// as returns one client per binding (JSON-RPC, HTTP+JSON, gRPC) that sends
// token as its bearer credential.
func (n *node) as(token string) []*client.Client {
	n.t.Helper()
	var out []*client.Client
	for _, c := range n.clients {
		cc, err := client.New(c.Interface(), client.WithHeader("Authorization", "Bearer "+token))
		if err != nil {
			n.t.Fatal(err)
		}
		out = append(out, cc)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		n.t.Fatal(err)
	}
	gs := n.agent.GRPCServer()
	go gs.Serve(ln)
	n.t.Cleanup(gs.Stop)
	g, err := client.New(a2a.AgentInterface{URL: "http://" + ln.Addr().String(), ProtocolBinding: a2a.BindingGRPC},
		client.WithHeader("Authorization", "Bearer "+token))
	if err != nil {
		n.t.Fatal(err)
	}
	return append(out, g)
}

// kindOf summarises an error by what a caller can tell apart.
func kindOf(err error) string {
	if err == nil {
		return "success"
	}
	ce, ok := client.AsError(err)
	if !ok {
		return err.Error()
	}
	return fmt.Sprintf("%s %s code %d HTTP %d %s", ce.Class, ce.Kind, ce.Code, ce.HTTPStatus, ce.Status)
}

// subscribeErr opens a subscription and returns its refusal (before the
// stream or as its first event); nil when it was served.
func subscribeErr(c *client.Client, id string) error {
	ctx, cancel := context.WithTimeout(ctxT(), 2*time.Second)
	defer cancel()
	s, err := c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id})
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.Next(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// Every operation on another identity's task answers what an unknown id
// gets, on every binding, and ListTasks leaves it out; the owner still sees
// it, unchanged.
func TestAnotherIdentitysTaskDoesNotExist(t *testing.T) {
	n := twoIdentities(t)
	as, bs := n.as(tokenA), n.as(tokenB)
	for i := range as {
		a, b := as[i], bs[i]
		t.Run(a.Binding(), func(t *testing.T) {
			task := sendTask(t, a, scripted(directive.Directive{Outcome: directive.OutcomeInputRequired}), nil)
			if task.Status.State != a2a.TaskStateInputRequired {
				t.Fatalf("task in %s, want INPUT_REQUIRED", task.Status.State)
			}
			cfg, err := a.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "http://127.0.0.1:9/hook"})
			if err != nil {
				t.Fatalf("owner's push config: %v", err)
			}
			unknown := "no-such-task-" + newID()
			ops := map[string]func(id string) error{
				"GetTask": func(id string) error { _, err := b.GetTask(ctxT(), &a2a.GetTaskRequest{ID: id}); return err },
				"CancelTask": func(id string) error {
					_, err := b.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: id})
					return err
				},
				"SubscribeToTask": func(id string) error { return subscribeErr(b, id) },
				"SendMessage": func(id string) error {
					m := userMsg("go on")
					m.TaskID = id
					_, err := b.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m})
					return err
				},
				"GetTaskPushNotificationConfig": func(id string) error {
					_, err := b.GetTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfigRef{TaskID: id, ID: cfg.ID})
					return err
				},
				"ListTaskPushNotificationConfigs": func(id string) error {
					_, err := b.ListTaskPushNotificationConfigs(ctxT(), &a2a.ListTaskPushNotificationConfigsRequest{TaskID: id})
					return err
				},
				"CreateTaskPushNotificationConfig": func(id string) error {
					_, err := b.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: id, URL: "http://127.0.0.1:9/other"})
					return err
				},
			}
			for name, op := range ops {
				other, missing := op(task.ID), op(unknown)
				expectKind(t, other, a2a.ErrTaskNotFound)
				if kindOf(other) != kindOf(missing) {
					t.Errorf("%s: another identity's task: %s; unknown id: %s", name, kindOf(other), kindOf(missing))
				}
			}
			list, err := b.ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: task.ContextID})
			if err != nil || len(list.Tasks) != 0 || list.TotalSize != 0 {
				t.Errorf("B lists A's context: %v, %+v", err, list)
			}
			if got := getTask(t, a, task.ID); got.Status.State != a2a.TaskStateInputRequired {
				t.Errorf("after B's cancel the owner sees %s", got.Status.State)
			}
			mine, err := a.ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: task.ContextID})
			if err != nil || len(mine.Tasks) != 1 {
				t.Errorf("owner lists its context: %v, %+v", err, mine)
			}
			if _, err := a.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID}); err != nil {
				t.Errorf("owner cancels: %v", err)
			}
		})
	}
}

// A token the agent does not know is no identity at all.
func TestUnknownTokenIsRefused(t *testing.T) {
	n := twoIdentities(t)
	for _, c := range n.as("not-a-token") {
		_, err := c.ListTasks(ctxT(), &a2a.ListTasksRequest{})
		if ce, ok := client.AsError(err); !ok || (ce.HTTPStatus != 401 && ce.Status != "UNAUTHENTICATED") {
			t.Errorf("%s: an unknown token got %s", c.Binding(), kindOf(err))
		}
	}
}

// A stream opened by SendStreamingMessage stays up while its task waits in
// AUTH_REQUIRED (spec §7.6.1 SHOULD), and carries the task on after the
// follow-up message, to its end.
func TestStreamStaysUpInAuthRequired(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		evs, open := authRequiredStream(t, c, 300*time.Millisecond)
		if !open {
			t.Fatalf("stream closed in AUTH_REQUIRED: %s", describe(evs))
		}
	})
}

// authRequiredStream streams a task that asks for authorization, waits for
// AUTH_REQUIRED, then for hold; it reports whether the stream was still open
// then. When it was, it sends the follow-up and reads the stream to its end.
func authRequiredStream(t *testing.T, c *client.Client, hold time.Duration) ([]a2a.StreamResponse, bool) {
	t.Helper()
	s, err := c.SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: scripted(directive.Directive{Outcome: directive.OutcomeAuthRequired})})
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		ev  a2a.StreamResponse
		err error
	}
	items := make(chan item, 16)
	go func() {
		for {
			ev, err := s.Next()
			items <- item{ev, err}
			if err != nil {
				close(items)
				return
			}
		}
	}()
	var evs []a2a.StreamResponse
	taskID := ""
	for {
		it, ok := <-items
		if !ok || it.err != nil {
			t.Fatalf("stream ended before AUTH_REQUIRED: %v; %s", it.err, describe(evs))
		}
		evs = append(evs, it.ev)
		if taskID == "" {
			taskID = it.ev.TaskID()
		}
		if st, ok := it.ev.State(); ok && st == a2a.TaskStateAuthRequired {
			break
		}
	}
	select {
	case it := <-items:
		s.Close()
		if errors.Is(it.err, io.EOF) {
			return evs, false
		}
		t.Fatalf("after AUTH_REQUIRED: %s %v", describe([]a2a.StreamResponse{it.ev}), it.err)
	case <-time.After(hold):
	}
	m := userMsg("authorized out of band; go on")
	m.TaskID = taskID
	if _, err := c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m, Configuration: immediate()}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(testTimeout)
	for {
		select {
		case it, ok := <-items:
			if !ok || errors.Is(it.err, io.EOF) {
				if st, _ := evs[len(evs)-1].State(); !st.Terminal() {
					t.Fatalf("stream ended without the task's end: %s", describe(evs))
				}
				return evs, true
			}
			if it.err != nil {
				t.Fatalf("stream after the follow-up: %v", it.err)
			}
			evs = append(evs, it.ev)
		case <-deadline:
			s.Close()
			t.Fatalf("stream not closed after the follow-up: %s", describe(evs))
		}
	}
}

// Both readings of a stream in AUTH_REQUIRED (A2A v1.0 §3.1.6, UNSURE): kept
// open by default (§7.6.1), closed with Options.CloseStreamAtAuthRequired
// (§11.7).
func TestCloseStreamAtAuthRequiredVariant(t *testing.T) {
	e := &faultEnv{t: t}
	if evs, open := authRequiredStream(t, e.node(Options{}).rest(), 300*time.Millisecond); !open {
		t.Errorf("the default agent closed its stream in AUTH_REQUIRED after %s", describe(evs))
	}
	e = &faultEnv{t: t}
	if evs, open := authRequiredStream(t, e.node(Options{CloseStreamAtAuthRequired: true}).rest(), 300*time.Millisecond); open {
		t.Errorf("CloseStreamAtAuthRequired kept the stream open in AUTH_REQUIRED after %s", describe(evs))
	}
}

func init() {
	faultCases[faultListLeaksOtherIdentity] = func(e *faultEnv) string {
		n := e.node(Options{RequireAuth: tokenA, OtherTokens: []string{tokenB}})
		a, b := n.as(tokenA)[0], n.as(tokenB)[1]
		task := sendTask(e.t, a, userMsg("mine"), nil)
		list, err := b.ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: task.ContextID})
		if err != nil {
			e.t.Fatal(err)
		}
		if len(list.Tasks) > 0 {
			return fmt.Sprintf("identity B lists %d of A's tasks", len(list.Tasks))
		}
		return ""
	}
	faultCases[faultUnfilteredListLeaksOtherIdentity] = func(e *faultEnv) string {
		n := e.node(Options{RequireAuth: tokenA, OtherTokens: []string{tokenB}})
		a, b := n.as(tokenA)[0], n.as(tokenB)[0]
		task := sendTask(e.t, a, userMsg("mine"), nil)
		byCtx, err := b.ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: task.ContextID})
		if err != nil {
			e.t.Fatal(err)
		}
		if len(byCtx.Tasks) > 0 {
			return fmt.Sprintf("identity B lists %d of A's tasks by context (the fault leaks only unfiltered lists)", len(byCtx.Tasks))
		}
		all, err := b.ListTasks(ctxT(), &a2a.ListTasksRequest{})
		if err != nil {
			e.t.Fatal(err)
		}
		for _, got := range all.Tasks {
			if got.ID == task.ID {
				return "identity B lists A's task without filters"
			}
		}
		return ""
	}
	faultCases[faultOtherIdentityPushConfigCreated] = func(e *faultEnv) string {
		n := e.node(Options{RequireAuth: tokenA, OtherTokens: []string{tokenB}})
		task := sendTask(e.t, n.as(tokenA)[0], userMsg("mine"), nil)
		cfg := &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "http://127.0.0.1:9/hook"}
		if got, err := n.as(tokenB)[0].CreateTaskPushNotificationConfig(ctxT(), cfg); err == nil {
			return "identity B created config " + got.ID + " on A's task"
		}
		return ""
	}
	faultCases[faultOtherIdentityCancelApplied] = func(e *faultEnv) string {
		n := e.node(Options{RequireAuth: tokenA, OtherTokens: []string{tokenB}})
		a, b := n.as(tokenA)[0], n.as(tokenB)[0]
		task := sendTask(e.t, a, scripted(directive.Directive{Outcome: directive.OutcomeInputRequired}), nil)
		_, err := b.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
		if ce, ok := client.AsError(err); !ok || ce.Kind != a2a.ErrTaskNotFound {
			return "identity B's cancel answered " + kindOf(err) + ", not TaskNotFoundError"
		}
		if got, err := a.GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID}); err == nil && got.Status.State == a2a.TaskStateCanceled {
			return "identity B's refused cancel canceled A's task"
		}
		return ""
	}
	faultCases[faultOtherIdentityTaskForbidden] = func(e *faultEnv) string {
		n := e.node(Options{RequireAuth: tokenA, OtherTokens: []string{tokenB}})
		bs := n.as(tokenB)
		task := sendTask(e.t, n.as(tokenA)[0], userMsg("mine"), nil)
		for _, b := range bs {
			_, other := b.GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID})
			_, missing := b.GetTask(ctxT(), &a2a.GetTaskRequest{ID: "no-such-" + newID()})
			if kindOf(other) != kindOf(missing) {
				return fmt.Sprintf("%s: another's task: %s; unknown id: %s", b.Binding(), kindOf(other), kindOf(missing))
			}
		}
		return ""
	}
	faultCases[faultOtherIdentityTaskReadable] = func(e *faultEnv) string {
		n := e.node(Options{RequireAuth: tokenA, OtherTokens: []string{tokenB}})
		task := sendTask(e.t, n.as(tokenA)[1], userMsg("mine"), nil)
		if got, err := n.as(tokenB)[2].GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID}); err == nil {
			return "identity B read A's task " + got.ID
		}
		return ""
	}
}

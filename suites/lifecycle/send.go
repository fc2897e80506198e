package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/schemas"
	"github.com/a2a-conform/a2a-conform/suites"
)

// rawAnswer is one request sent with client.RawDo: the answer as the agent
// wrote it, so that a spec can judge the bytes (member names, extra keys,
// content type) that the typed client would have smoothed over.
type rawAnswer struct {
	Raw *client.RawResponse
	// Result is the JSON-RPC result member, or the whole HTTP+JSON body; set
	// only when Err is nil.
	Result json.RawMessage
	// Err is what the typed method would have returned: nil on success, else
	// a *client.Error (A2A, HTTP, Protocol or Transport class).
	Err error
}

func callRaw(ctx context.Context, c *client.Client, rr client.RawRequest) rawAnswer {
	r, err := c.RawDo(ctx, rr)
	if err != nil {
		return rawAnswer{Raw: r, Err: err}
	}
	out := rawAnswer{Raw: r, Err: c.Classify(rr.Method, r)}
	if out.Err == nil {
		out.Result = r.Body
		if c.Binding() == a2a.BindingJSONRPC {
			var env struct {
				Result json.RawMessage `json:"result"`
			}
			_ = json.Unmarshal(r.Body, &env)
			out.Result = env.Result
		}
	}
	return out
}

// userText is a plain user message: what a client without any script sends.
func userText(text string) a2a.Message {
	return a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)}}
}

// scriptedOr returns the message for s when the agent offers that behaviour,
// else a plain text message (ok false): for specs that do not need a
// particular behaviour but use one when they can.
func scriptedOr(t *suites.T, s suites.Script, text string) (msg a2a.Message, ok bool) {
	if t.Env.Behaviour != nil {
		if m, err := t.Env.Behaviour.Message(t.Stretched(s)); err == nil {
			t.Observe("behaviour", t.Env.Behaviour.Kind())
			return m, true
		}
	}
	return userText(text), false
}

// scriptDuration is how long a directive script takes from creation to its
// last transition; ok is false for a prompt-map agent, which takes the time
// it takes.
func scriptDuration(t *suites.T, s suites.Script) (time.Duration, bool) {
	if t.Env.Behaviour == nil || t.Env.Behaviour.Kind() != "directive" {
		return 0, false
	}
	s = t.Stretched(s)
	d := directive.Directive{Version: directive.Version, Outcome: s.Outcome, DelayMs: s.Delay.Milliseconds()}
	if s.Chunks > 0 {
		n := s.Chunks
		d.ArtifactChunks = &n
	}
	return d.Duration(), true
}

// finishedTask returns a task at rest made on c: a scripted completed task
// when the agent offers behaviours (the spec ends indeterminate if it does
// not complete, suites.T.Showed), else whatever task a plain message
// creates, which may rest interrupted when the agent asks for input (an
// allowed answer; the caller decides whether it serves). Without either,
// the spec could not run.
func finishedTask(ctx context.Context, t *suites.T, c *client.Client) *a2a.Task {
	if canScript(t, suites.Script{Outcome: directive.OutcomeCompleted}) {
		return runToEnd(ctx, t, c, directive.OutcomeCompleted)
	}
	msg := userText("a2a-conform: a task to read back")
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "send", Where: "SendMessage (" + c.Binding() + ")",
			Expected: "an answer to a plain text message", Actual: suites.ErrText(err)})
	}
	if resp.Task == nil {
		t.CouldNotRun("the agent answered a plain message with a Message, not a task, and offers no scripted behaviour to make one.")
	}
	if !atRest(resp.Task) {
		return t.WaitFor(ctx, c, resp.Task.ID, "terminal or interrupted", suites.TerminalOrInterrupted)
	}
	return resp.Task
}

// refusal reports whether err is the agent refusing a request with an error
// of its binding (an A2A error or a JSON-RPC/validation error), as opposed to
// crashing (-32603, 5xx) or answering something that is not an error body.
func refusal(err error) bool {
	ce, ok := client.AsError(err)
	return ok && ce.Class == client.A2A && ce.Code != a2a.CodeInternalError && ce.HTTPStatus < 500
}

// mediaType is the media type of a Content-Type value, "" when unparsable.
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return mt
}

// prefixed moves schema violations under a location: the operation, then the
// JSON pointer inside the document.
func prefixed(where string, vs []invariants.Violation) []invariants.Violation {
	out := make([]invariants.Violation, len(vs))
	for i, v := range vs {
		ptr := v.Where
		if ptr == "" {
			ptr = "(document)"
		}
		v.Where = where + " " + ptr
		out[i] = v
	}
	return out
}

// judgeSendAnswer sends req raw and checks what LIFE-001 requires of the
// answer: a 2xx JSON response of the binding's content type, a JSON-RPC 2.0
// envelope with the request's id, and a result that validates as a
// SendMessageResponse holding exactly one of task and message.
func judgeSendAnswer(ctx context.Context, t *suites.T, c *client.Client, req *a2a.SendMessageRequest, where string) (*a2a.SendMessageResponse, []invariants.Violation) {
	ans := callRaw(ctx, c, client.RawRequest{Method: a2a.MethodSendMessage, Params: req})
	if ans.Err != nil {
		return nil, []invariants.Violation{{Invariant: "send-response", Where: where,
			Expected: "a SendMessageResponse", Actual: suites.ErrText(ans.Err)}}
	}
	var vs []invariants.Violation
	ct := ans.Raw.Header.Get("Content-Type")
	switch mt := mediaType(ct); {
	case c.Binding() == a2a.BindingJSONRPC && mt != client.ContentTypeJSON:
		vs = append(vs, invariants.Violation{Invariant: "content-type", Where: where + " Content-Type",
			Expected: "application/json (JSON-RPC binding, §9.1)", Actual: fmt.Sprintf("%q", ct)})
	case c.Binding() == a2a.BindingHTTPJSON && mt != client.ContentTypeJSON && mt != client.ContentTypeA2AJSON:
		vs = append(vs, invariants.Violation{Invariant: "content-type", Where: where + " Content-Type",
			Expected: "application/a2a+json or application/json (HTTP+JSON binding, §11.1)", Actual: fmt.Sprintf("%q", ct)})
	}
	if c.Binding() == a2a.BindingHTTPJSON {
		t.Observe("content-type-"+c.Binding(), mediaType(ct))
	}
	if c.Binding() == a2a.BindingGRPC {
		// A proto3 message (GRPC-SVC-002): it decoded as
		// lf.a2a.v1.SendMessageResponse, rendered below as ProtoJSON.
		t.Observe("payload-"+c.Binding(), "proto3 lf.a2a.v1.SendMessageResponse")
	}
	if c.Binding() == a2a.BindingJSONRPC {
		env, err := schemas.Validate(schemas.JSONRPCResponse, ans.Raw.Body)
		if err != nil {
			t.Indeterminate("the harness could not validate the JSON-RPC envelope: %v", err)
		}
		vs = append(vs, prefixed(where+" envelope", env)...)
	}
	res, err := schemas.Validate(schemas.SendMessageResponse, ans.Result)
	if err != nil {
		t.Indeterminate("the harness could not validate the result: %v", err)
	}
	vs = append(vs, prefixed(where+" result", res)...)
	var members map[string]json.RawMessage
	_ = json.Unmarshal(ans.Result, &members)
	_, hasTask := members["task"]
	_, hasMsg := members["message"]
	if hasTask == hasMsg {
		vs = append(vs, invariants.Violation{Invariant: "send-response", Where: where + " result",
			Expected: "exactly one of task and message (SendMessageResponse oneof)", Actual: membersList(members)})
		return nil, vs
	}
	var out a2a.SendMessageResponse
	if err := json.Unmarshal(ans.Result, &out); err != nil {
		vs = append(vs, invariants.Violation{Invariant: "send-response", Where: where + " result",
			Expected: "a SendMessageResponse", Actual: err.Error()})
		return nil, vs
	}
	return &out, vs
}

func membersList(m map[string]json.RawMessage) string {
	if len(m) == 0 {
		return "no members"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	if len(keys) > 8 {
		keys = keys[:8]
	}
	return fmt.Sprintf("members %q", keys)
}

// LIFE-001 (§3.1.1, §5.5, §5.6.1, §5.7, §9.1, §11.1): on every binding, the
// answer to SendMessage — a task with an artifact, and a Message reply when
// the agent can be asked for one — holds exactly one payload, validates
// against the v1.0 schema as written (raw bytes, so snake_case or v0.3 keys
// are seen), in the binding's content type and envelope.
var _ = suites.Spec("LIFE-001", func(ctx context.Context, t *suites.T) {
	// Each binding sends messages of its own, so the bindings run together
	// (suites.T.Each).
	cs := t.Clients()
	t.Each(len(cs), func(i int) {
		c := cs[i]
		task, scripted := scriptedOr(t, suites.Script{Outcome: directive.OutcomeCompleted}, "a2a-conform: hello")
		kinds := []a2a.Message{task}
		if scripted {
			if m, ok := scriptedOr(t, suites.Script{Outcome: directive.OutcomeMessage}, ""); ok {
				kinds = append(kinds, m)
			} else {
				t.Observe("message-reply", "not checked: the agent's behaviour has no plain Message reply")
			}
		}
		for i, msg := range kinds {
			msg := msg
			req := &a2a.SendMessageRequest{Tenant: c.Interface().Tenant, Message: &msg}
			where := fmt.Sprintf("SendMessage #%d (%s)", i+1, c.Binding())
			resp, got := judgeSendAnswer(ctx, t, c, req, where)
			t.Record(got...)
			if resp != nil {
				what := "message"
				if resp.Task != nil {
					what = "task in " + string(resp.Task.Status.State)
				}
				t.Observe(fmt.Sprintf("answer-%d-%s", i+1, c.Binding()), what)
			}
		}
	})
	t.Violated()
})

// blockingStep is the per-step delay LIFE-004 asks of its completed script
// under the directive extension: short, since the call blocks for the whole
// script on every binding.
const blockingStep = Step / 3

// LIFE-004 (§3.2.2): without returnImmediately the call blocks until the task
// is terminal or interrupted. A task that completes shows the first; a task
// that asks for input shows the second, and an agent that cannot be asked for
// one leaves that part unchecked (naming the prompt-map key). An answer at
// rest in either kind of state passes, whatever the script asked.
var _ = suites.Spec("LIFE-004", func(ctx context.Context, t *suites.T) {
	completes := suites.Script{Outcome: directive.OutcomeCompleted, Delay: blockingStep, Least: suites.PromptComplete}
	asks := suites.Script{Outcome: directive.OutcomeInputRequired}
	scripts := []suites.Script{completes}
	if t.Env.Behaviour != nil {
		if _, err := t.Env.Behaviour.Message(asks); err != nil {
			t.Unchecked("returns at an interrupted state", fmt.Sprintf("no task that asks for input can be scripted: %v", err))
		} else {
			scripts = append(scripts, asks)
		}
	}
	// Each binding and script is a blocking call on a task of its own, and
	// each is judged alone: they run together (suites.T.Each), so the spec
	// takes one task's time, not six.
	type trial struct {
		c *client.Client
		s suites.Script
		// didNotAsk is the task when it was scripted to ask for input and
		// came to rest otherwise: the interrupted half then was not
		// exercised.
		didNotAsk *a2a.Task
	}
	var trials []trial
	var msgs []a2a.Message
	for _, c := range t.Clients() {
		for _, s := range scripts {
			trials = append(trials, trial{c: c, s: s})
			msgs = append(msgs, t.Scripted(s))
		}
	}
	t.Each(len(trials), func(i int) {
		c, s, msg := trials[i].c, trials[i].s, msgs[i]
		where := fmt.Sprintf("blocking SendMessage of a scripted %s task (%s)", s.Outcome, c.Binding())
		start := time.Now()
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
		took := time.Since(start).Round(time.Millisecond)
		if err != nil {
			t.Record(invariants.Violation{Invariant: "blocking-send", Where: where,
				Expected: "the task, terminal or interrupted", Actual: suites.ErrText(err)})
			return
		}
		if resp.Task == nil {
			t.Record(invariants.Violation{Invariant: "blocking-send", Where: where,
				Expected: "a Task for a scripted task", Actual: "a Message"})
			return
		}
		state := resp.Task.Status.State
		script := "unknown"
		if d, ok := scriptDuration(t, s); ok {
			script = d.String()
		}
		t.Observe(fmt.Sprintf("blocking-%s-%s", s.Outcome, c.Binding()),
			fmt.Sprintf("%s after %s (script %s, %s)", state, took, script, suites.KeyOf(t.Env.Behaviour, s)))
		if !atRest(resp.Task) {
			t.Record(invariants.Violation{Invariant: "blocking-send", Where: where + " task " + resp.Task.ID,
				Expected: "a terminal or interrupted state when the call returns (returnImmediately unset)",
				Actual:   fmt.Sprintf("%s after %s (script %s)", state, took, script)})
			return
		}
		if s.Outcome == directive.OutcomeInputRequired && !state.Interrupted() {
			trials[i].didNotAsk = resp.Task
		}
	})
	for _, tr := range trials {
		if tr.didNotAsk != nil {
			t.Showed(asks, tr.didNotAsk, "so whether a blocking call returns at an interrupted state was not seen")
		}
	}
})

// LIFE-005 (§3.2.2): with returnImmediately the call returns while the task
// is in progress. A task already at rest in the answer fails only when the
// call plainly waited for it: when the call took at least half of what such a
// task takes on this agent (suites.T.Expected), and that span is well above a
// round trip. A task that finishes about as fast as a round trip did not show
// the slow behaviour asked for, and one at rest in an answer that came early
// did not either: both are indeterminate.
var _ = suites.Spec("LIFE-005", func(ctx context.Context, t *suites.T) {
	s := suites.Script{Outcome: directive.OutcomeCompleted, Delay: Step}
	for _, c := range t.Clients() {
		msg := t.Scripted(s)
		where := "SendMessage with returnImmediately (" + c.Binding() + ")"
		start := time.Now()
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
			Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
		took := time.Since(start)
		if err != nil {
			t.Record(invariants.Violation{Invariant: "return-immediately", Where: where,
				Expected: "the task, still in progress", Actual: suites.ErrText(err)})
			continue
		}
		if resp.Task == nil {
			t.Record(invariants.Violation{Invariant: "return-immediately", Where: where,
				Expected: "a Task for a scripted slow task", Actual: "a Message"})
			continue
		}
		state := resp.Task.Status.State
		t.Observe("return-immediately-"+c.Binding(), fmt.Sprintf("%s after %s", state, took.Round(time.Millisecond)))
		if !atRest(resp.Task) {
			// The task is not needed any more; the cancel only frees the agent.
			_, _ = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: resp.Task.ID})
			continue
		}
		rtStart := time.Now()
		_, _ = t.Get(ctx, c, resp.Task.ID)
		rt := time.Since(rtStart)
		expected := t.Expected(ctx, c, s)
		t.Observe("return-immediately-judged-"+c.Binding(), fmt.Sprintf("at rest after %s; such a task takes %s here; a round trip %s",
			took.Round(time.Millisecond), expected.Round(time.Millisecond), rt.Round(time.Millisecond)))
		if expected < 4*rt || expected < 2*suites.Poll {
			t.Indeterminate("the agent did not show a task that runs: %s asked for a slow task, which takes %s on this agent, about a round trip (%s), so whether the answer waited for it cannot be told (task %s answered %s)",
				suites.KeyOf(t.Env.Behaviour, s), expected.Round(time.Millisecond), rt.Round(time.Millisecond), resp.Task.ID, state)
		}
		if took >= expected/2 {
			t.Record(invariants.Violation{Invariant: "return-immediately", Where: where + " task " + resp.Task.ID,
				Expected: fmt.Sprintf("a task still in progress (SUBMITTED or WORKING): the call returns once the task exists, well before the %s such a task takes", expected.Round(time.Millisecond)),
				Actual:   fmt.Sprintf("%s after %s: the call waited for the task", state, took.Round(time.Millisecond))})
			continue
		}
		t.ShowedRunning(s, resp.Task, fmt.Sprintf("the answer came after %s, well before the %s such a task takes, so the agent did not block; it just had nothing running", took.Round(time.Millisecond), expected.Round(time.Millisecond)))
	}
})

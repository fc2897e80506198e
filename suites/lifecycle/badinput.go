package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// badRequest is one request LIFE-027 sends and the refusal it must get: a
// JSON-RPC error code, or HTTP statuses on HTTP+JSON.
type badRequest struct {
	name     string
	req      client.RawRequest
	rpcCode  int      // JSON-RPC
	statuses []int    // HTTP+JSON; the first is the one the spec names
	codes    []string // gRPC status codes; the first is the one the spec names
	// should marks a request the A2A text asks to be refused only with
	// SHOULD: a REQUIRED member missing or not of its type ("Implementations
	// SHOULD validate these requirements and reject messages with missing
	// required fields", A2A v1.0.1 §5.7). A miss warns (docs/levels.md).
	should bool
}

// badRequests builds the malformed and invalid requests for c's binding.
// Every message they carry names marker as its contextId, so that a task
// created anyway can be found.
func badRequests(c *client.Client, marker string) []badRequest {
	tenant := c.Interface().Tenant
	msg := func(parts any) map[string]any {
		return map[string]any{"messageId": suites.NewID("msg"), "role": a2a.RoleUser, "contextId": marker, "parts": parts}
	}
	params := func(m map[string]any) map[string]any {
		if tenant != "" {
			m["tenant"] = tenant
		}
		return m
	}
	good := msg([]map[string]any{{"text": "a2a-conform: a request that should never be served"}})
	goodJSON, _ := json.Marshal(params(map[string]any{"message": good}))
	noMessage := params(map[string]any{"metadata": map[string]any{"a2aConform": "a SendMessage without a message"}})
	wrongType := params(map[string]any{"message": msg("not a list of parts")})
	truncated := []byte(`{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"cut off`)

	if c.Binding() == a2a.BindingJSONRPC {
		envelope := func(fields string) []byte {
			return []byte(`{` + fields + `,"params":` + string(goodJSON) + `}`)
		}
		return []badRequest{
			{name: "malformed JSON", rpcCode: a2a.CodeParseError,
				req: client.RawRequest{Method: a2a.MethodSendMessage, Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":` + string(truncated))}},
			{name: `jsonrpc "1.0"`, rpcCode: a2a.CodeInvalidRequest,
				req: client.RawRequest{Method: a2a.MethodSendMessage, Body: envelope(`"jsonrpc":"1.0","id":2,"method":"SendMessage"`)}},
			{name: "no method", rpcCode: a2a.CodeInvalidRequest,
				req: client.RawRequest{Method: a2a.MethodSendMessage, Body: envelope(`"jsonrpc":"2.0","id":3`)}},
			{name: "unknown method", rpcCode: a2a.CodeMethodNotFound,
				req: client.RawRequest{Method: "A2aConformNoSuchMethod", Params: params(map[string]any{})}},
			{name: "SendMessage without message", rpcCode: a2a.CodeInvalidParams, should: true,
				req: client.RawRequest{Method: a2a.MethodSendMessage, Params: noMessage}},
			{name: "SendMessage with message.parts a string", rpcCode: a2a.CodeInvalidParams, should: true,
				req: client.RawRequest{Method: a2a.MethodSendMessage, Params: wrongType}},
		}
	}
	if c.Binding() == a2a.BindingGRPC {
		// gRPC's own libraries answer a message that does not decode with
		// INTERNAL before any A2A code runs, so that is accepted beside
		// INVALID_ARGUMENT (and recorded). A part list of the wrong type
		// cannot be expressed in protobuf; an unknown rpc is the
		// framework's UNIMPLEMENTED.
		return []badRequest{
			{name: "malformed protobuf", codes: []string{"INVALID_ARGUMENT", "INTERNAL"},
				req: client.RawRequest{Method: a2a.MethodSendMessage, Body: []byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01}}},
			{name: "SendMessage without message", codes: []string{"INVALID_ARGUMENT"}, should: true,
				req: client.RawRequest{Method: a2a.MethodSendMessage, Params: noMessage}},
			{name: "an rpc the service does not have", codes: []string{"UNIMPLEMENTED"},
				req: client.RawRequest{Method: "A2aConformNoSuchMethod"}},
		}
	}
	return []badRequest{
		{name: "malformed JSON", statuses: []int{http.StatusBadRequest},
			req: client.RawRequest{Method: a2a.MethodSendMessage, Body: truncated}},
		{name: "SendMessage without message", statuses: []int{http.StatusBadRequest}, should: true,
			req: client.RawRequest{Method: a2a.MethodSendMessage, Params: noMessage}},
		{name: "SendMessage with message.parts a string", statuses: []int{http.StatusBadRequest}, should: true,
			req: client.RawRequest{Method: a2a.MethodSendMessage, Params: wrongType}},
		{name: "an operation that does not exist", statuses: []int{http.StatusNotFound, http.StatusMethodNotAllowed},
			req: client.RawRequest{Method: "A2aConformNoSuchMethod", Verb: http.MethodPost, Path: "/a2a-conform-no-such-operation", Body: []byte(`{}`)}},
	}
}

// judgeBadRequest checks the refusal of one bad request.
func judgeBadRequest(c *client.Client, b badRequest, ans rawAnswer) *invariants.Violation {
	where := b.name + " (" + c.Binding() + ")"
	if ans.Raw == nil {
		return &invariants.Violation{Invariant: "validation", Where: where, Expected: "a refusal", Actual: suites.ErrText(ans.Err)}
	}
	status := ans.Raw.Status
	if c.Binding() == a2a.BindingGRPC {
		ce, _ := client.AsError(ans.Err)
		got := "success: " + clipped(ans.Result)
		if ce != nil {
			got = "gRPC " + ce.Status
			for _, want := range b.codes {
				if ce.Class == client.A2A && ce.Status == want {
					return nil
				}
			}
			got = suites.ErrText(ans.Err)
		}
		return &invariants.Violation{Invariant: "validation", Where: where, Expected: "gRPC " + strings.Join(b.codes, " or "), Actual: got}
	}
	if status >= 500 {
		return &invariants.Violation{Invariant: "validation", Where: where,
			Expected: "a validation error, never a server error", Actual: fmt.Sprintf("HTTP %d: %s", status, clipped(ans.Raw.Body))}
	}
	if c.Binding() == a2a.BindingJSONRPC {
		want := fmt.Sprintf("JSON-RPC error %d", b.rpcCode)
		if ans.Err == nil {
			return &invariants.Violation{Invariant: "validation", Where: where, Expected: want, Actual: "success: " + clipped(ans.Result)}
		}
		if ce, ok := client.AsError(ans.Err); !ok || ce.Class != client.A2A || ce.Code != b.rpcCode {
			return &invariants.Violation{Invariant: "validation", Where: where, Expected: want, Actual: suites.ErrText(ans.Err)}
		}
		return nil
	}
	for _, s := range b.statuses {
		if status == s {
			return nil
		}
	}
	want := make([]string, len(b.statuses))
	for i, s := range b.statuses {
		want[i] = "HTTP " + strconv.Itoa(s)
	}
	actual := fmt.Sprintf("HTTP %d: %s", status, clipped(ans.Raw.Body))
	if ans.Err != nil {
		actual = suites.ErrText(ans.Err)
	}
	return &invariants.Violation{Invariant: "validation", Where: where, Expected: strings.Join(want, " or "), Actual: actual}
}

// LIFE-027 (§3.3.2, §9.5, §11.6): malformed and invalid requests get the
// binding's standard validation errors — never a task, a 5xx or a hang. A
// request served with a task is read back by GetTask, which proves the task
// exists; a task made by a request refused with an error carries the
// marker context, and only ListTasks can find it: when ListTasks fails, that
// part is reported unchecked rather than passed. A request whose only fault
// is a REQUIRED member missing or mistyped (no message, parts a string) is
// one the text asks agents to refuse with SHOULD (A2A v1.0 §5.7): serving it,
// or refusing it with another code, warns (docs/levels.md).
var _ = suites.Spec("LIFE-027", func(ctx context.Context, t *suites.T) {
	var vs []invariants.Violation
	marker := suites.NewID("ctx-a2a-conform-invalid")
	cs := t.Clients()
	totals := map[*client.Client]int32{}
	for _, c := range cs {
		if list, err := c.ListTasks(ctx, &a2a.ListTasksRequest{}); err == nil {
			totals[c] = list.TotalSize
		}
	}
	// served are the tasks the SHOULD requests were answered with: judged
	// with them, not again by the marker's listing.
	served := map[string]bool{}
	for _, c := range cs {
		for _, b := range badRequests(c, marker) {
			ans := callRaw(ctx, c, b.req)
			got := append(violations(judgeBadRequest(c, b, ans)), servedTask(ctx, t, c, b, ans)...)
			if !b.should {
				vs = append(vs, got...)
				continue
			}
			t.Should(got...)
			if id := servedTaskID(ans); id != "" {
				served[id] = true
			}
		}
	}
	for _, c := range cs {
		list, err := c.ListTasks(ctx, &a2a.ListTasksRequest{ContextID: marker})
		if err != nil {
			t.Unchecked("no task from a request refused with an error ("+c.Binding()+")",
				"ListTasks contextId="+marker+" failed ("+suites.ErrText(err)+"), and a refused request names no task id that GetTask could read")
			continue
		}
		var made []string
		for _, task := range list.Tasks {
			if !served[task.ID] {
				made = append(made, task.ID)
			}
		}
		if len(made) > 0 {
			vs = append(vs, invariants.Violation{Invariant: "validation", Where: "ListTasks contextId " + marker + " (" + c.Binding() + ")",
				Expected: "no task from the refused requests", Actual: fmt.Sprintf("%d tasks, e.g. %s", len(made), made[0])})
		}
		// A request without a message cannot carry the marker: a change in
		// the total is recorded (another client of a shared agent may have
		// created tasks meanwhile, so it is not judged).
		if before, ok := totals[c]; ok {
			if all, err := c.ListTasks(ctx, &a2a.ListTasksRequest{}); err == nil && all.TotalSize != before {
				t.Observe("total-size-"+c.Binding(), fmt.Sprintf("%d before the bad requests, %d after", before, all.TotalSize))
			}
		}
	}
	t.Violated(vs...)
})

// servedTaskID is the id of the task a request was answered with, or "".
func servedTaskID(ans rawAnswer) string {
	if ans.Err != nil || len(ans.Result) == 0 {
		return ""
	}
	var resp a2a.SendMessageResponse
	if json.Unmarshal(ans.Result, &resp) != nil || resp.Task == nil {
		return ""
	}
	return resp.Task.ID
}

// servedTask reads back, by GetTask, a task that a bad request was served
// with: the answer alone is already a violation, and the read proves the
// agent also keeps the task (the Why's "never a task").
func servedTask(ctx context.Context, t *suites.T, c *client.Client, b badRequest, ans rawAnswer) []invariants.Violation {
	if ans.Err != nil || len(ans.Result) == 0 {
		return nil
	}
	var resp a2a.SendMessageResponse
	if json.Unmarshal(ans.Result, &resp) != nil || resp.Task == nil || resp.Task.ID == "" {
		return nil
	}
	if got, err := t.Get(ctx, c, resp.Task.ID); err == nil {
		return []invariants.Violation{{Invariant: "validation", Where: "GetTask " + resp.Task.ID + " after " + b.name + " (" + c.Binding() + ")",
			Expected: "no task from a request that must be refused", Actual: fmt.Sprintf("the task exists, in %s", got.Status.State)}}
	}
	return nil
}

// oddMediaType is a media type no agent declares: the harness's own.
const oddMediaType = "application/x-a2a-conform-unsupported"

// accepts reports whether a declared input mode covers mt: exactly, as
// type/*, or as */*.
func accepts(modes []string, mt string) (string, bool) {
	major, _, _ := strings.Cut(mt, "/")
	for _, m := range modes {
		m = strings.ToLower(strings.TrimSpace(strings.Split(m, ";")[0]))
		if m == mt || m == "*/*" || m == major+"/*" {
			return m, true
		}
	}
	return "", false
}

// oddPartMessage carries a text part and a raw part of oddMediaType.
func oddPartMessage() a2a.Message {
	msg := userText("a2a-conform: the next part's media type is not one the card declares")
	msg.Parts = append(msg.Parts, a2a.Part{Raw: a2a.Bytes("a2a-conform"), MediaType: oddMediaType, Filename: "a2a-conform.bin"})
	return msg
}

// LIFE-028 (§3.1.1; a MAY, docs/levels.md): an agent that refuses a part
// of a media type the card's input modes do not cover says so with
// ContentTypeNotSupportedError. Refusing is the agent's choice (no sentence
// requires it), so a served part is recorded and never judged: a MAY never
// warns for not being done. Only a refusal is judged, on its error. When
// every binding served the part there was no refusal to judge: not
// applicable. When the card accepts every type, the part must be served,
// and the spec is not applicable either.
var _ = suites.Spec("LIFE-028", func(ctx context.Context, t *suites.T) {
	card := t.Card()
	modes := append([]string(nil), card.DefaultInputModes...)
	for _, s := range card.Skills {
		modes = append(modes, s.InputModes...)
	}
	t.Observe("input-modes", strings.Join(modes, ", "))
	var vs []invariants.Violation
	if mode, ok := accepts(modes, oddMediaType); ok {
		for _, c := range t.Clients() {
			msg := oddPartMessage()
			if _, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg}); err != nil {
				vs = append(vs, invariants.Violation{Invariant: "content-type", Where: "SendMessage with a " + oddMediaType + " part (" + c.Binding() + ")",
					Expected: "served: the card's input mode " + mode + " covers it", Actual: suites.ErrText(err)})
			}
		}
		t.Violated(vs...)
		t.NotApplicable("the card's input mode %q accepts every media type the harness could send (a %s part was served)", mode, oddMediaType)
	}
	refusals, unanswered := 0, 0
	for _, c := range t.Clients() {
		msg := oddPartMessage()
		where := "SendMessage with a " + oddMediaType + " part (" + c.Binding() + ")"
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
		ce, _ := client.AsError(err)
		switch {
		case err == nil:
			served := "a Message"
			if resp.Task != nil {
				served = fmt.Sprintf("task %s in %s", resp.Task.ID, resp.Task.Status.State)
			}
			t.Observe("served-"+c.Binding(), "the part was served ("+served+"): refusing it is the agent's choice (MAY)")
			continue
		case ce != nil && ce.Class == client.Transport:
			t.Unchecked(where, "no answer: "+suites.ErrText(err))
			unanswered++
			continue
		}
		refusals++
		if v := expectKind(err, a2a.ErrContentTypeNotSupported, where); v != nil {
			v.Invariant = "content-type"
			v.Expected = "a refusal of the media type names ContentTypeNotSupportedError (-32005; A2A v1.0 §3.1.1, §3.3.2)"
			vs = append(vs, *v)
			continue
		}
		t.Observe("refused-"+c.Binding(), suites.ErrText(err))
	}
	t.Violated(vs...)
	if refusals == 0 && unanswered == 0 {
		t.NotApplicable("the agent served the %s part on every binding: which media types it takes is its own choice (a MAY), so there was no refusal whose error could be judged", oddMediaType)
	}
})

// unknownMember is the name of the member LIFE-029 adds: one no version of
// the proto will define.
const unknownMember = "a2aConformUnknownMember"

// LIFE-029 (§5.7, SHOULD): unknown members in SendMessage (top level and
// inside the message) and GetTask requests are ignored and the requests
// served. The GetTask half reads the task the SendMessage made; when that was
// answered with a Message, it reads a task the run can script instead, and
// when there is none, it reads an unknown id with and without the member:
// the same TaskNotFoundError both ways shows the member changed nothing.
var _ = suites.Spec("LIFE-029", func(ctx context.Context, t *suites.T) {
	// Each binding sends requests of its own, so the bindings run together
	// (suites.T.Each).
	cs := t.Clients()
	t.Each(len(cs), func(i int) {
		c := cs[i]
		msg := userText("a2a-conform: this request carries members the agent does not know")
		var m map[string]any
		b, _ := json.Marshal(msg)
		_ = json.Unmarshal(b, &m)
		m[unknownMember] = "inside the message"
		params := map[string]any{"message": m, unknownMember: map[string]any{"note": "at the top level"}}
		if tn := c.Interface().Tenant; tn != "" {
			params["tenant"] = tn
		}
		where := "SendMessage with unknown members (" + c.Binding() + ")"
		ans := callRaw(ctx, c, client.RawRequest{Method: a2a.MethodSendMessage, Params: params})
		if ans.Err != nil {
			t.Record(invariants.Violation{Invariant: "unknown-members", Where: where,
				Expected: "served, the unknown members ignored (§5.7)", Actual: suites.ErrText(ans.Err)})
			return
		}
		id := ""
		var resp a2a.SendMessageResponse
		if json.Unmarshal(ans.Result, &resp) == nil && resp.Task != nil {
			id = resp.Task.ID
		} else if scripted, ok := scriptedOr(t, suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete}, ""); ok {
			if r, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &scripted}); err == nil && r.Task != nil {
				id = r.Task.ID
				t.Observe("get-"+c.Binding(), "the message was answered without a task; GetTask read a scripted task "+id)
			}
		}
		if id != "" {
			if got := callRaw(ctx, c, getWithUnknown(c, id)); got.Err != nil {
				t.Record(invariants.Violation{Invariant: "unknown-members", Where: "GetTask " + id + " with an unknown member (" + c.Binding() + ")",
					Expected: "served, the unknown member ignored (§5.7)", Actual: suites.ErrText(got.Err)})
			}
			return
		}
		unknown := suites.NewID("task-unknown")
		_, plain := t.Get(ctx, c, unknown)
		with := callRaw(ctx, c, getWithUnknown(c, unknown)).Err
		t.Observe("get-"+c.Binding(), "no task to read (Message replies, nothing scripted): GetTask of unknown id "+unknown+" compared with and without the member")
		pk, wk := errKind(plain), errKind(with)
		if pk != wk || pk == "" {
			t.Record(invariants.Violation{Invariant: "unknown-members", Where: "GetTask of unknown id " + unknown + " with an unknown member (" + c.Binding() + ")",
				Expected: "the answer GetTask gets without the member, " + suites.ErrText(plain) + " (the member ignored, §5.7)", Actual: suites.ErrText(with)})
		}
	})
	t.Violated()
})

// getWithUnknown is a GetTask of id carrying unknownMember.
func getWithUnknown(c *client.Client, id string) client.RawRequest {
	rr := client.RawRequest{Method: a2a.MethodGetTask}
	if c.Binding() != a2a.BindingHTTPJSON {
		get := map[string]any{"id": id, unknownMember: true}
		if tn := c.Interface().Tenant; tn != "" {
			get["tenant"] = tn
		}
		rr.Params = get
	} else {
		rr.PathID = id
		rr.Query = url.Values{unknownMember: {"true"}}
	}
	return rr
}

// errKind names the A2A error kind of err, "" when it is not one.
func errKind(err error) a2a.ErrorKind {
	if ce, ok := client.AsError(err); ok && ce.Class == client.A2A {
		return ce.Kind
	}
	return ""
}

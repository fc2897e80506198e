package client

import (
	"encoding/json"
	"net/http"
	"sync/atomic"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
)

// The ACTS client-parsing payloads (a2aproject/A2A PR #1882, branch
// conformance-spec, tests/acts/client-parsing.acts.yaml at commit 42509658):
// each is the JSON-RPC response the draft asks a client to parse. They are
// kept byte for byte as the draft gives them, including where they are not
// valid v1.0 (missing messageId in history, an error "data" object, v0.3
// file parts): the specs that serve them say which readings are allowed.

// ActsPayload is one CLIENT-PARSE-* golden response and how it is served.
type ActsPayload struct {
	// ID is the ACTS test ID (CLIENT-PARSE-001 …).
	ID string
	// Operation is the ACTS operation the payload answers: send_message or
	// get_task.
	Operation string
	// Wire is the JSON-RPC response object of the draft ("id" is replaced by
	// the request's own id when served).
	Wire string
	// TaskID, ContextID and State are what expect_parsed asks the client to
	// have read ("" for a Message result or an error).
	TaskID, ContextID, State string
	// ErrorCode is the JSON-RPC error code of an error payload.
	ErrorCode int
	// Level is the draft's level (must, should).
	Level string
}

// ActsPayloads are the six CLIENT-PARSE tests of the draft.
var ActsPayloads = []ActsPayload{
	{ID: "CLIENT-PARSE-001", Operation: "send_message", Level: "must",
		TaskID: "task-abc-123", ContextID: "ctx-001", State: "TASK_STATE_COMPLETED",
		Wire: `{"jsonrpc":"2.0","id":"req-001","result":{"task":{"id":"task-abc-123","contextId":"ctx-001","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2025-05-25T20:00:00Z"},"artifacts":[{"artifactId":"art-1","parts":[{"text":"hello world"}]}]}}}`},
	{ID: "CLIENT-PARSE-002", Operation: "send_message", Level: "must",
		Wire: `{"jsonrpc":"2.0","id":"req-002","result":{"message":{"messageId":"msg-001","role":"ROLE_AGENT","parts":[{"text":"I can help with that"}]}}}`},
	{ID: "CLIENT-PARSE-003", Operation: "get_task", Level: "must",
		TaskID: "task-xyz-789", ContextID: "ctx-002", State: "TASK_STATE_COMPLETED",
		Wire: `{"jsonrpc":"2.0","id":"req-003","result":{"id":"task-xyz-789","contextId":"ctx-002","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2025-05-25T20:05:00Z"},"artifacts":[{"artifactId":"art-1","parts":[{"text":"result text"}]},{"artifactId":"art-2","parts":[{"data":{"key":"value"}}]}],"history":[{"role":"ROLE_USER","parts":[{"text":"original request"}]},{"role":"ROLE_AGENT","parts":[{"text":"processing..."}]}]}}`},
	{ID: "CLIENT-PARSE-004", Operation: "get_task", Level: "must",
		TaskID: "nonexistent-task-id", ErrorCode: -32001,
		Wire: `{"jsonrpc":"2.0","id":"req-004","error":{"code":-32001,"message":"Task not found","data":{"taskId":"nonexistent-task-id"}}}`},
	{ID: "CLIENT-PARSE-005", Operation: "send_message", Level: "must",
		TaskID: "task-multi-001", ContextID: "ctx-multi-001", State: "TASK_STATE_INPUT_REQUIRED",
		Wire: `{"jsonrpc":"2.0","id":"req-005","result":{"task":{"id":"task-multi-001","contextId":"ctx-multi-001","status":{"state":"TASK_STATE_INPUT_REQUIRED","timestamp":"2025-05-25T20:10:00Z","message":{"messageId":"status-msg-001","role":"ROLE_AGENT","parts":[{"text":"Please provide more details"}]}}}}}`},
	{ID: "CLIENT-PARSE-006", Operation: "get_task", Level: "should",
		TaskID: "task-mixed-001", ContextID: "ctx-mixed-001", State: "TASK_STATE_COMPLETED",
		Wire: `{"jsonrpc":"2.0","id":"req-006","result":{"id":"task-mixed-001","contextId":"ctx-mixed-001","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2025-05-25T20:15:00Z"},"artifacts":[{"artifactId":"art-text","parts":[{"text":"Plain text result"}]},{"artifactId":"art-data","parts":[{"data":{"temperature":72.5,"unit":"fahrenheit"}}]},{"artifactId":"art-file","parts":[{"file":{"name":"report.pdf","mediaType":"application/pdf","bytes":"JVBERi0xLjQ="}}]},{"artifactId":"art-url","parts":[{"fileUrl":{"url":"https://example.com/report.pdf","name":"report.pdf","mediaType":"application/pdf"}}]}]}}`},
}

// ActsPayloadOf returns the payload with that ACTS ID.
func ActsPayloadOf(id string) (ActsPayload, bool) {
	for _, p := range ActsPayloads {
		if p.ID == id {
			return p, true
		}
	}
	return ActsPayload{}, false
}

// Action is the driver action that makes a client parse the payload:
// `send` for a SendMessage payload, `poll` for a GetTask one (the send is
// answered with the payload's task, still WORKING, so that the client polls
// the task the payload names).
func (p ActsPayload) Action() string {
	if p.Operation == "get_task" {
		return "poll"
	}
	return "send"
}

// Answer is the payload as a clientrun.Script.Answer: the client's
// SendMessage (and, for a get_task payload, its GetTask) gets the ACTS
// payload in place of the agent's answer; the card and anything else go to
// the agent. On JSON-RPC the payload is sent as the draft gives it, with the
// request's own id; over HTTP+JSON the same A2A objects are sent in that
// binding's shape (the result object, or the error as google.rpc.Status with
// HTTP 404): ACTS gives its payloads in JSON-RPC form only. served counts
// the payloads sent (a get_task payload's WORKING send answer is not one).
func (p ActsPayload) Answer(served *atomic.Int64) func(*Stage, Request) *clientrun.Answer {
	return func(_ *Stage, r Request) *clientrun.Answer {
		a, counts := p.reply(r)
		if a != nil && counts {
			served.Add(1)
		}
		return a
	}
}

// reply is the answer to one request, and whether it is the payload itself.
func (p ActsPayload) reply(r Request) (*clientrun.Answer, bool) {
	var wire struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	json.Unmarshal([]byte(p.Wire), &wire)
	switch {
	case r.Op == a2a.MethodSendMessage && p.Operation == "send_message":
		return p.answer(r, wire.Result, nil), true
	case r.Op == a2a.MethodSendMessage && p.Operation == "get_task":
		// The task the payload names, still working, so that the client
		// polls for exactly that id.
		ctxID := p.ContextID
		if ctxID == "" {
			ctxID = "ctx-" + p.TaskID
		}
		working, _ := json.Marshal(map[string]any{"task": map[string]any{
			"id": p.TaskID, "contextId": ctxID, "status": map[string]any{"state": "TASK_STATE_WORKING"}}})
		return p.answer(r, working, nil), false
	case r.Op == a2a.MethodGetTask && p.Operation == "send_message" && p.TaskID != "" && r.TaskID == p.TaskID:
		// A client that polls the task a SendMessage payload named gets the
		// same task again.
		var res struct {
			Task json.RawMessage `json:"task"`
		}
		json.Unmarshal(wire.Result, &res)
		return p.answer(r, res.Task, nil), false
	case r.Op == a2a.MethodGetTask && p.Operation == "get_task":
		if len(wire.Error) > 0 {
			return p.answer(r, nil, wire.Error), true
		}
		return p.answer(r, wire.Result, nil), true
	}
	return nil, false
}

func (p ActsPayload) answer(r Request, result, rpcErr []byte) *clientrun.Answer {
	if r.Binding == a2a.BindingJSONRPC {
		id := r.RPCID
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		env := map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`), "id": id}
		if rpcErr != nil {
			env["error"] = rpcErr
		} else {
			env["result"] = result
		}
		body, _ := json.Marshal(env)
		return &clientrun.Answer{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}
	}
	h := http.Header{"Content-Type": {"application/a2a+json"}}
	if rpcErr != nil {
		var e struct {
			Message string `json:"message"`
		}
		json.Unmarshal(rpcErr, &e)
		body, _ := json.Marshal(map[string]any{"error": map[string]any{
			"code": 404, "status": "NOT_FOUND", "message": e.Message,
			"details": []any{map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
				"reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}}}})
		return &clientrun.Answer{Status: http.StatusNotFound, Header: h, Body: body}
	}
	return &clientrun.Answer{Status: http.StatusOK, Header: h, Body: result}
}

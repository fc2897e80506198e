package client

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
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

// GoldenFront answers the client's SendMessage (and, for a get_task
// payload, its GetTask) with the ACTS payload, on the JSON-RPC binding; the
// card, and any other request, go to the agent behind it. Over HTTP+JSON
// the same A2A objects are served in that binding's shape (the result
// object, or the error as google.rpc.Status with HTTP 404): ACTS gives its
// payloads in JSON-RPC form only.
type GoldenFront struct {
	Agent   http.Handler
	Payload ActsPayload
	served  atomic.Int64
}

// Served counts the payloads the front answered with (the send's WORKING
// task of a get_task payload is not counted).
func (g *GoldenFront) Served() int { return int(g.served.Load()) }

func (g *GoldenFront) ServeHTTP(w http.ResponseWriter, r *http.Request) { g.serve(g.Agent, w, r) }

// Front is the front as a clientrun.Script.Front: one GoldenFront for the
// whole case, whatever agent instance serves.
func (g *GoldenFront) Front(agent http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { g.serve(agent, w, r) })
}

func (g *GoldenFront) serve(agent http.Handler, w http.ResponseWriter, r *http.Request) {
	c := peek(r)
	var wire struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	json.Unmarshal([]byte(g.Payload.Wire), &wire)
	switch {
	case c.Method == a2a.MethodSendMessage && g.Payload.Operation == "send_message":
		g.served.Add(1)
		g.answer(w, c, wire.Result, nil)
	case c.Method == a2a.MethodSendMessage && g.Payload.Operation == "get_task":
		// The task the payload names, still working, so that the client
		// polls for exactly that id.
		working, _ := json.Marshal(map[string]any{"task": map[string]any{
			"id": g.Payload.TaskID, "contextId": g.Payload.ContextID,
			"status": map[string]any{"state": "TASK_STATE_WORKING"}}})
		if g.Payload.ContextID == "" {
			working, _ = json.Marshal(map[string]any{"task": map[string]any{
				"id": g.Payload.TaskID, "contextId": "ctx-" + g.Payload.TaskID,
				"status": map[string]any{"state": "TASK_STATE_WORKING"}}})
		}
		g.answer(w, c, working, nil)
	case c.Method == a2a.MethodGetTask && g.Payload.Operation == "send_message" && g.Payload.TaskID != "" && c.TaskID == g.Payload.TaskID:
		// A client that polls the task a SendMessage payload named gets the
		// same task again.
		var res struct {
			Task json.RawMessage `json:"task"`
		}
		json.Unmarshal(wire.Result, &res)
		g.answer(w, c, res.Task, nil)
	case c.Method == a2a.MethodGetTask && g.Payload.Operation == "get_task":
		g.served.Add(1)
		if wire.Error != nil {
			g.answer(w, c, nil, []byte(g.errorObject()))
			return
		}
		g.answer(w, c, wire.Result, nil)
	default:
		agent.ServeHTTP(w, r)
	}
}

// errorObject is the payload's "error" member, unchanged.
func (g *GoldenFront) errorObject() string {
	var m map[string]json.RawMessage
	json.Unmarshal([]byte(g.Payload.Wire), &m)
	return string(m["error"])
}

func (g *GoldenFront) answer(w http.ResponseWriter, c call, result, rpcErr []byte) {
	if c.JSONRPC {
		id := c.RPCID
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
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write(body)
		return
	}
	w.Header().Set("Content-Type", "application/a2a+json")
	if rpcErr != nil {
		var e struct {
			Message string `json:"message"`
		}
		json.Unmarshal(rpcErr, &e)
		body, _ := json.Marshal(map[string]any{"error": map[string]any{
			"code": 404, "status": "NOT_FOUND", "message": e.Message,
			"details": []any{map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
				"reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}}}})
		w.WriteHeader(http.StatusNotFound)
		w.Write(body)
		return
	}
	w.WriteHeader(http.StatusOK)
	w.Write(result)
}

// isCardPath reports whether p is the well-known card path.
func isCardPath(p string) bool { return strings.HasSuffix(p, a2a.WellKnownCardPath) }

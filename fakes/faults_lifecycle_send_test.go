package fakes

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// askInput creates a task that waits for input (a blocking send returns it
// interrupted).
func askInput(e *faultEnv, n *node) *a2a.Task {
	task := sendTask(e.t, n.rpc(), scripted(directive.Directive{Outcome: directive.OutcomeInputRequired}), nil)
	if task.Status.State != a2a.TaskStateInputRequired {
		e.t.Fatalf("scripted input-required task is %s", task.Status.State)
	}
	return task
}

// The observations of the send-side faults (ids, contexts, blocking, error
// bodies, validation), added to faultCases so that TestFaults runs each with
// the fault on and off.
func init() {
	faultCases[faultV03TaskShape] = func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		if r := rawResult(e.t, n, "GetTask", map[string]any{"id": task.ID}); strings.Contains(r, `"kind":"task"`) {
			return "v0.3 kind in " + truncate(r, 80)
		}
		return ""
	}
	faultCases[faultNoContextID] = func(e *faultEnv) string {
		task := sendTask(e.t, e.node(Options{}).rest(), userMsg("x"), nil)
		if task.ContextID == "" {
			return "task " + task.ID + " without a contextId"
		}
		return ""
	}
	faultCases[faultContextIDSubstituted] = func(e *faultEnv) string {
		m := userMsg("x")
		m.ContextID = "ctx-chosen-" + newID()
		if task := sendTask(e.t, e.node(Options{}).rpc(), m, nil); task.ContextID != m.ContextID {
			return fmt.Sprintf("contextId %s answered as %s", m.ContextID, task.ContextID)
		}
		return ""
	}
	faultCases[faultReturnImmediatelyIgnored] = func(e *faultEnv) string {
		n := e.node(Options{})
		if task := sendTask(e.t, n.rpc(), scripted(directive.Directive{DelayMs: 20}), immediate()); task.Status.State.Terminal() {
			return "returnImmediately answered " + string(task.Status.State)
		}
		return ""
	}
	faultCases[faultFollowupNewContext] = func(e *faultEnv) string {
		n := e.node(Options{})
		task := askInput(e, n)
		more := userMsg("the input")
		more.TaskID = task.ID
		if got := sendTask(e.t, n.rest(), more, nil); got.ContextID != task.ContextID {
			return fmt.Sprintf("context %s became %s", task.ContextID, got.ContextID)
		}
		return ""
	}
	faultCases[faultContextMismatchAccepted] = func(e *faultEnv) string {
		n := e.node(Options{})
		task := askInput(e, n)
		more := userMsg("the input")
		more.TaskID, more.ContextID = task.ID, "ctx-other-"+newID()
		if resp, err := n.rpc().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: more}); err == nil {
			return "mismatched contextId served: task " + string(resp.Task.Status.State)
		}
		return ""
	}
	faultCases[faultBindingDivergent] = func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		rpc, rest := getTask(e.t, n.rpc(), task.ID), getTask(e.t, n.rest(), task.ID)
		if len(rpc.Artifacts) != len(rest.Artifacts) {
			return fmt.Sprintf("%d artifacts over JSON-RPC, %d over HTTP+JSON", len(rpc.Artifacts), len(rest.Artifacts))
		}
		return ""
	}
	faultCases[faultJSONRPCErrorDataObject] = func(e *faultEnv) string {
		resp := rpcCall(e.t, e.node(Options{}), "GetTask", map[string]any{"id": "nope"})
		if resp.Error == nil {
			e.t.Fatal("GetTask of an unknown task succeeded")
		}
		if d := bytes.TrimSpace(resp.Error.Data); len(d) > 0 && d[0] == '{' {
			return "error.data is an object: " + string(d)
		}
		return ""
	}
	faultCases[faultAcceptMissingMessage] = func(e *faultEnv) string {
		if resp := rpcCall(e.t, e.node(Options{}), "SendMessage", map[string]any{}); resp.Error == nil {
			return "SendMessage without a message served: " + truncate(string(resp.Result), 80)
		}
		return ""
	}
	faultCases[faultContentTypeWrongError] = func(e *faultEnv) string {
		m := userMsg("x", a2a.Part{Raw: a2a.Bytes("?"), MediaType: "application/x-unsupported"})
		_, err := e.node(Options{}).rest().SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m})
		if ce, ok := client.AsError(err); ok && ce.Kind != a2a.ErrContentTypeNotSupported {
			return "application/x-unsupported part refused with " + ce.Error()
		}
		return ""
	}
	faultCases[faultRejectUnknownFields] = func(e *faultEnv) string {
		params := map[string]any{"message": map[string]any{"messageId": newID(), "role": "ROLE_USER",
			"parts": []any{map[string]any{"text": "x"}}, "futureMember": 1}, "futureTopLevel": true}
		if resp := rpcCall(e.t, e.node(Options{}), "SendMessage", params); resp.Error != nil {
			return "unknown members refused: " + resp.Error.Message
		}
		return ""
	}
}

func init() {
	faultCases[faultAuthRequiredNoMessage] = func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), scripted(directive.Directive{Outcome: directive.OutcomeAuthRequired}), nil)
		if task.Status.State == a2a.TaskStateAuthRequired && task.Status.Message == nil {
			return "TASK_STATE_AUTH_REQUIRED without a status message"
		}
		return ""
	}
}

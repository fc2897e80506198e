package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// taskNotFoundStatus is the HTTP+JSON TaskNotFoundError the stage answers
// CLI-009's GetTask with: A2A v1.0.1 §11.6's own example, with its
// ErrorInfo.
var taskNotFoundStatus = func() []byte {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"code": 404, "status": "NOT_FOUND",
		"message": "a2a-conform scripted agent: the specified task ID does not exist or is not accessible",
		"details": []any{map[string]any{
			"@type":  "type.googleapis.com/google.rpc.ErrorInfo",
			"reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org",
		}},
	}})
	return b
}()

// CLI-009: an HTTP+JSON error is read as the A2A error its ErrorInfo names
// whatever JSON media type it comes as. v1.0.1 asks HTTP+JSON answers to be
// application/a2a+json; a client that parses error bodies only as
// application/json raises every such error untyped. The client polls a task
// whose GetTask is answered TaskNotFoundError, once as application/a2a+json
// and once as application/json; the two must be raised alike.
var _ = suites.Spec("CLI-009", func(ctx context.Context, t *suites.T) {
	type outcome struct {
		served bool
		res    *Result
	}
	run := func(name, contentType string) outcome {
		var mu sync.Mutex
		served := false
		o := RunCase(ctx, t, Case{Name: name, Action: Poll, Agent: Agent{
			Behaviour:  cutBehaviour,
			Interfaces: []Interface{{Binding: a2a.BindingHTTPJSON}, {Binding: a2a.BindingJSONRPC}},
			Answer: func(_ *clientrun.Stage, r Request) *clientrun.Answer {
				if r.Op != a2a.MethodGetTask || r.Binding != a2a.BindingHTTPJSON {
					return nil
				}
				mu.Lock()
				served = true
				mu.Unlock()
				return &clientrun.Answer{Status: http.StatusNotFound,
					Header: http.Header{"Content-Type": {contentType}}, Body: taskNotFoundStatus}
			},
		}})
		mu.Lock()
		defer mu.Unlock()
		if served {
			t.Observe(name, fmt.Sprintf("GetTask answered 404 TaskNotFoundError as %s; the client reports %s", contentType, describe(o.Result)))
		}
		return outcome{served: served, res: o.Result}
	}
	a2aJSON := run("a2a-json", "application/a2a+json")
	plain := run("json", "application/json")
	if !a2aJSON.served && !plain.served {
		t.NotApplicable("the client sent no HTTP+JSON GetTask in either case: it speaks JSON-RPC here, and the media type of HTTP+JSON errors is nothing to it.")
	}
	if !a2aJSON.served {
		t.Indeterminate("the client sent no HTTP+JSON GetTask in the application/a2a+json case (it did in the other): nothing to judge.")
	}
	r := a2aJSON.res
	switch {
	case r.Error == nil:
		t.Violated(invariants.Violation{Invariant: "client-rest-error-type", Where: "case a2a-json: GetTask answered 404 with a TaskNotFoundError body (application/a2a+json)",
			Expected: "the error raised", Actual: "no error: " + describe(r)})
	case r.Error.Class == clientrun.ClassTaskNotFound:
		t.Observe("outcome", "the application/a2a+json error was typed: task-not-found")
	case plain.served && plain.res.Error != nil && plain.res.Error.Class == clientrun.ClassTaskNotFound:
		t.Violated(invariants.Violation{Invariant: "client-rest-error-type", Where: "case a2a-json: GetTask answered 404 with a TaskNotFoundError body (application/a2a+json)",
			Expected: "task-not-found, as the same body was typed as application/json (case json)",
			Actual:   fmt.Sprintf("%s: %s", r.Error.Class, cut(r.Error.Message, 200))})
	default:
		t.Observe("outcome", fmt.Sprintf("the client raised %s for both media types: it does not type this error, and the media type made no difference", r.Error.Class))
	}
})

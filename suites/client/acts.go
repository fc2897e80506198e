package client

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// The ACTS draft's client-parsing tests (CLIENT-PARSE-001…006, see
// golden.go): the scripted agent answers the client's request with the
// draft's golden payload and the spec reads what the client reports. ACTS
// asks for the parsed object; the contract reports the task, its context,
// its state and the error raised, so the specs judge those (artifact and
// history counts are not in a driver's result and are not judged).

// actsSpec registers the spec that serves one payload. judge gets the
// driver's result and returns violations; allowed, when the client refused
// the payload, says whether that refusal is an allowed reading (and why).
func actsSpec(id, acts string, judge func(p ActsPayload, r *Result) []invariants.Violation, allowed func(r *Result) string) bool {
	return suites.Spec(id, func(ctx context.Context, t *suites.T) {
		p, ok := ActsPayloadOf(acts)
		if !ok {
			t.Indeterminate("harness error: no ACTS payload %s", acts)
		}
		var served atomic.Int64
		o := RunCase(ctx, t, Case{Name: acts, Action: p.Action(), Agent: Agent{Answer: p.Answer(&served)}})
		if served.Load() == 0 {
			t.Indeterminate("the client never made the request the payload answers (%s), so it never read it (driver result: %s).", p.Operation, o.Driver.ResultLine)
		}
		r := o.Result
		t.Observe("ACTS "+acts, fmt.Sprintf("%s payload served %d time(s); ACTS level %s", p.Operation, served.Load(), p.Level))
		if r.Error != nil && allowed != nil {
			if why := allowed(r); why != "" {
				t.Observe("reading", why)
				return
			}
		}
		if r.Error == nil {
			t.Observe("reading", "the client took the payload")
		}
		t.Violated(judge(p, r)...)
	})
}

// sameTask checks the reported task, context and state against the payload's.
func sameTask(p ActsPayload, r *Result) []invariants.Violation {
	var vs []invariants.Violation
	where := "the driver's result for " + p.ID
	if r.Error != nil {
		return []invariants.Violation{{Invariant: "client-parse", Where: where,
			Expected: fmt.Sprintf("task %s (%s) read from the payload", p.TaskID, p.State),
			Actual:   fmt.Sprintf("the client raised %s: %s", r.Error.Class, r.Error.Message)}}
	}
	check := func(what, want, got string) {
		if want != got {
			vs = append(vs, invariants.Violation{Invariant: "client-parse", Where: where,
				Expected: fmt.Sprintf("%s %q", what, want), Actual: fmt.Sprintf("%q", got)})
		}
	}
	check("taskId", p.TaskID, r.TaskID)
	check("contextId", p.ContextID, r.ContextID)
	check("state", p.State, r.State)
	return vs
}

// refusedAsInvalid accepts a refusal that names the payload's invalidity
// (a parse or protocol error), not a transport failure or a timeout.
func refusedAsInvalid(because string) func(r *Result) string {
	return func(r *Result) string {
		switch r.Error.Class {
		case clientrun.ClassParse, clientrun.ClassProtocol, clientrun.ClassInvalidParams, clientrun.ClassOther:
			return fmt.Sprintf("the client refused the payload (%s: %s), an allowed reading: %s", r.Error.Class, r.Error.Message, because)
		}
		return ""
	}
}

var _ = actsSpec("CLI-030", "CLIENT-PARSE-001", sameTask, nil)

var _ = actsSpec("CLI-031", "CLIENT-PARSE-002", func(p ActsPayload, r *Result) []invariants.Violation {
	where := "the driver's result for " + p.ID
	if r.Error != nil {
		return []invariants.Violation{{Invariant: "client-parse", Where: where,
			Expected: "a Message result read", Actual: fmt.Sprintf("the client raised %s: %s", r.Error.Class, r.Error.Message)}}
	}
	var vs []invariants.Violation
	msg := false
	for _, e := range r.Events {
		if e.Kind == "message" && e.Via == "response" {
			msg = true
		}
	}
	if !msg {
		vs = append(vs, invariants.Violation{Invariant: "client-parse", Where: where,
			Expected: "a message event from the response", Actual: "none among the events the client reports"})
	}
	if r.TaskID != "" || r.State != "" {
		vs = append(vs, invariants.Violation{Invariant: "client-parse", Where: where,
			Expected: "no task: the answer is a Message", Actual: fmt.Sprintf("task %q in state %q", r.TaskID, r.State)})
	}
	return vs
}, nil)

var _ = actsSpec("CLI-032", "CLIENT-PARSE-003", sameTask,
	refusedAsInvalid("the payload's history messages have no messageId, a REQUIRED field (§5.7: SHOULD reject)"))

var _ = actsSpec("CLI-033", "CLIENT-PARSE-004", func(p ActsPayload, r *Result) []invariants.Violation {
	if r.Error == nil {
		return []invariants.Violation{{Invariant: "client-parse", Where: "the driver's result for " + p.ID,
			Expected: "the JSON-RPC error -32001 raised (TaskNotFoundError)",
			Actual:   fmt.Sprintf("no error: the client reports task %q in state %q", r.TaskID, r.State)}}
	}
	return nil
}, func(r *Result) string {
	if r.Error.Class == clientrun.ClassTaskNotFound {
		return "the client raised task-not-found, as the payload's -32001 says"
	}
	return fmt.Sprintf("the client raised %s (%s) rather than task-not-found: an error all the same (the payload's data is an object where v1.0 has an array of typed details)", r.Error.Class, r.Error.Message)
})

var _ = actsSpec("CLI-034", "CLIENT-PARSE-005", sameTask, nil)

var _ = actsSpec("CLI-035", "CLIENT-PARSE-006", sameTask,
	refusedAsInvalid("two of its parts are v0.3 shapes (file, fileUrl): unknown members of a v1.0 part with no content"))

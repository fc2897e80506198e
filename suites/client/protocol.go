package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// CLI-001: A2A-Version on every request (§3.6: clients MUST send it).
var _ = suites.Spec("CLI-001", func(ctx context.Context, t *suites.T) {
	var vs []invariants.Violation
	for _, c := range []Case{{Name: "send", Action: Send}, {Name: "stream", Action: Stream}} {
		o := RunCase(ctx, t, c)
		ops := o.Ops()
		if len(ops) == 0 {
			t.CouldNotRun("case %s: the client fetched the card but sent no operation request, so there was nothing to judge (driver result: %s).", c.Name, o.Driver.ResultLine)
		}
		for _, r := range ops {
			if v := strings.TrimSpace(r.Header.Get("A2A-Version")); v == "" && !hasQueryVersion(r.Query) {
				vs = append(vs, invariants.Violation{Invariant: "client-a2a-version", Where: c.Name + ": " + Where(r),
					Expected: "an A2A-Version header (or ?A2A-Version=) naming 1.0", Actual: "none"})
			} else if v != "" && !strings.HasPrefix(v, "1.") {
				vs = append(vs, invariants.Violation{Invariant: "client-a2a-version", Where: c.Name + ": " + Where(r),
					Expected: "A2A-Version 1.x for a v1.0 interface", Actual: fmt.Sprintf("%q", v)})
			}
		}
		noted := 0
		for _, r := range o.CardFetches() {
			if r.Header.Get("A2A-Version") != "" {
				noted++
			}
		}
		t.Observe("case "+c.Name+": card fetches with A2A-Version", fmt.Sprintf("%d of %d (recorded, not judged: the card is a well-known document, not an operation)", noted, len(o.CardFetches())))
	}
	t.Violated(vs...)
})

func hasQueryVersion(q string) bool {
	return strings.Contains(strings.ToLower(q), "a2a-version=1")
}

// CLI-002: the interface's tenant in every request (v1.0.1 §8.3.2 item 4).
var _ = suites.Spec("CLI-002", func(ctx context.Context, t *suites.T) {
	const tenant = "tenant-a2a-conform-7"
	o := RunCase(ctx, t, Case{Name: "send", Action: Send, Agent: Agent{Interfaces: []Interface{
		{Binding: a2a.BindingJSONRPC, Tenant: tenant}, {Binding: a2a.BindingHTTPJSON, Tenant: tenant}}}})
	ops := o.Ops()
	if len(ops) == 0 {
		t.CouldNotRun("the client fetched the card but sent no operation request (driver result: %s).", o.Driver.ResultLine)
	}
	var vs []invariants.Violation
	for _, r := range ops {
		if r.Tenant != tenant {
			got := "no tenant"
			if r.Tenant != "" {
				got = fmt.Sprintf("tenant %q", r.Tenant)
			}
			vs = append(vs, invariants.Violation{Invariant: "client-tenant", Where: Where(r),
				Expected: fmt.Sprintf("tenant %q, as the interface declares it (JSON-RPC params.tenant; HTTP+JSON /{tenant} prefix or body)", tenant),
				Actual:   got})
		}
	}
	t.Violated(vs...)
})

// CLI-003: unknown fields ignored (§5.7 SHOULD).
var _ = suites.Spec("CLI-003", func(ctx context.Context, t *suites.T) {
	var vs []invariants.Violation
	for _, c := range []Case{{Name: "send", Action: Send, Agent: Agent{UnknownFields: true}},
		{Name: "stream", Action: Stream, Agent: Agent{UnknownFields: true}}} {
		o := RunCase(ctx, t, c)
		r := o.Result
		if r.State != "TASK_STATE_COMPLETED" || r.Error != nil {
			vs = append(vs, invariants.Violation{Invariant: "client-unknown-fields", Where: "case " + c.Name,
				Expected: "the task completed, every unknown member (" + UnknownFieldName + ") ignored",
				Actual:   describe(r)})
		}
	}
	t.Violated(vs...)
})

// UnknownFieldName is the member the scripted agent adds under UnknownFields.
const UnknownFieldName = "a2aConformFutureField"

func describe(r *Result) string {
	s := fmt.Sprintf("state %q", r.State)
	if r.State == "" {
		s = "no state"
	}
	if r.Error != nil {
		s += fmt.Sprintf(", error %s: %s", r.Error.Class, cut(r.Error.Message, 200))
	}
	return s
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// CLI-004: a plain error answering a streaming request is raised.
var _ = suites.Spec("CLI-004", func(ctx context.Context, t *suites.T) {
	o := RunCase(ctx, t, Case{Name: "stream", Action: Stream, Agent: Agent{StreamError: true}})
	streamed := false
	for _, r := range o.Ops() {
		if r.Op == "SendStreamingMessage" {
			streamed = true
		}
	}
	if !streamed {
		t.CouldNotRun("the client sent no SendStreamingMessage (driver result: %s), so the scripted error was never served.", o.Driver.ResultLine)
	}
	if o.Result.Error == nil {
		t.Violated(invariants.Violation{Invariant: "client-stream-error", Where: "stream case",
			Expected: "the client raises the error the agent answered the streaming request with",
			Actual:   "no error: " + describe(o.Result) + fmt.Sprintf(", %d events", len(o.Result.Events))})
	}
})

// CLI-005: the first interface of a binding the client speaks.
var _ = suites.Spec("CLI-005", func(ctx context.Context, t *suites.T) {
	const custom = "https://a2a-conform.dev/bindings/unspoken/v1"
	o := RunCase(ctx, t, Case{Name: "send", Action: Send, Agent: Agent{Interfaces: []Interface{
		{Binding: custom}, {Binding: a2a.BindingJSONRPC}, {Binding: a2a.BindingHTTPJSON}}}})
	t.Violated(bindingViolations(o)...)
	if o.Result.State != "TASK_STATE_COMPLETED" {
		t.Violated(invariants.Violation{Invariant: "client-interface-choice", Where: "send case",
			Expected: "the task completed through a declared interface the client speaks", Actual: describe(o.Result)})
	}
})

// CLI-006: HTTP+JSON listed first.
var _ = suites.Spec("CLI-006", func(ctx context.Context, t *suites.T) {
	o := RunCase(ctx, t, Case{Name: "send", Action: Send, Agent: Agent{Interfaces: []Interface{
		{Binding: a2a.BindingHTTPJSON}, {Binding: a2a.BindingJSONRPC}}}})
	t.Violated(bindingViolations(o)...)
	used := map[string]bool{}
	for _, r := range o.Ops() {
		used[r.Binding] = true
	}
	var names []string
	for b := range used {
		names = append(names, b)
	}
	t.Observe("bindings used", strings.Join(names, ", "))
	if o.Result.State != "TASK_STATE_COMPLETED" {
		t.Violated(invariants.Violation{Invariant: "client-interface-choice", Where: "send case",
			Expected: "the task completed through a declared interface the client speaks", Actual: describe(o.Result)})
	}
})

// CLI-007: fall back when the first interface refuses connections.
var _ = suites.Spec("CLI-007", func(ctx context.Context, t *suites.T) {
	o := RunCase(ctx, t, Case{Name: "send", Action: Send, Agent: Agent{Interfaces: []Interface{
		{Binding: a2a.BindingJSONRPC, Dead: true}, {Binding: a2a.BindingJSONRPC}, {Binding: a2a.BindingHTTPJSON}}}})
	if o.Result.State != "TASK_STATE_COMPLETED" {
		t.Violated(invariants.Violation{Invariant: "client-binding-fallback", Where: "send case",
			Expected: "after the first declared interface refused the connection, the task completed through another declared one",
			Actual:   describe(o.Result)})
	}
	t.Violated(bindingViolations(o)...)
})

// bindingViolations finds requests sent to an interface in a binding that is
// not the interface's: JSON-RPC bodies to an HTTP+JSON URL, HTTP+JSON routes
// to a JSON-RPC URL, anything to an interface of a binding the stage does not
// serve.
func bindingViolations(o *Outcome) []invariants.Violation {
	var vs []invariants.Violation
	for _, r := range o.Ops() {
		var env struct {
			JSONRPC string `json:"jsonrpc"`
			Method  string `json:"method"`
		}
		isRPC := json.Unmarshal(r.Body, &env) == nil && env.JSONRPC != "" && env.Method != ""
		switch {
		case r.Interface < 0:
			vs = append(vs, invariants.Violation{Invariant: "client-interface-choice", Where: Where(r),
				Expected: "requests only to the URL of a declared interface", Actual: "a URL no interface declares"})
		case r.Binding == a2a.BindingJSONRPC && !isRPC:
			vs = append(vs, invariants.Violation{Invariant: "client-interface-choice", Where: Where(r),
				Expected: "a JSON-RPC request at the JSON-RPC interface's URL", Actual: "not a JSON-RPC request"})
		case r.Binding == a2a.BindingHTTPJSON && (isRPC || r.Op == ""):
			vs = append(vs, invariants.Violation{Invariant: "client-interface-choice", Where: Where(r),
				Expected: "an HTTP+JSON route at the HTTP+JSON interface's URL", Actual: "a JSON-RPC request or an unknown route"})
		case r.Binding != a2a.BindingJSONRPC && r.Binding != a2a.BindingHTTPJSON:
			vs = append(vs, invariants.Violation{Invariant: "client-interface-choice", Where: Where(r),
				Expected: "no request to an interface whose binding the client does not speak",
				Actual:   fmt.Sprintf("a request to the %q interface", r.Binding)})
		}
	}
	return vs
}

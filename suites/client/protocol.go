package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// CLI-001: A2A-Version on every request (§3.6: clients MUST send it).
var _ = suites.Spec("CLI-001", func(ctx context.Context, t *suites.T) {
	var vs []invariants.Violation
	missing := 0
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
		missing += len(o.CardFetches()) - noted
	}
	if missing > 0 {
		t.Finding("disputed: %d card fetch(es) carried no A2A-Version. A2A v1.0.1 §3.6.1 says \"Clients MUST send the A2A-Version header with each request\", "+
			"and does not settle whether a GET of the well-known card, made before any interface or version is chosen, is such a request; "+
			"§3.6.2 says \"Agents MUST interpret empty value as 0.3 version.\", so an agent that serves a v0.3 card to such a fetch (a2a-js with legacyCompat does) "+
			"gives this client the older card. Not judged.", missing)
	}
	t.Violated(vs...)
})

func hasQueryVersion(q string) bool {
	return strings.Contains(strings.ToLower(q), "a2a-version=1")
}

// CLI-002: the interface's tenant in every request (v1.0.1 §8.3.2 item 4),
// exactly as declared: also when the application passes a tenant of its own
// (A2A_CONFORM_TENANT), which must not replace the declared one, nor be sent
// to an interface that declares none (the field is then omitted).
var _ = suites.Spec("CLI-002", func(ctx context.Context, t *suites.T) {
	const tenant = "tenant-a2a-conform-7"
	const callers = "tenant-of-the-application-3"
	both := func(tn string) []Interface {
		return []Interface{{Binding: a2a.BindingJSONRPC, Tenant: tn}, {Binding: a2a.BindingHTTPJSON, Tenant: tn}}
	}
	cases := []struct {
		c    Case
		want string
	}{
		{Case{Name: "send", Action: Send, Agent: Agent{Interfaces: both(tenant)}}, tenant},
		{Case{Name: "caller-tenant", Action: Send, Agent: Agent{Interfaces: both(tenant)}, CallerTenant: callers}, tenant},
		{Case{Name: "caller-tenant-undeclared", Action: Send, Agent: Agent{Interfaces: both("")}, CallerTenant: callers}, ""},
	}
	var vs []invariants.Violation
	for _, k := range cases {
		o := RunCase(ctx, t, k.c)
		ops := o.Ops()
		if len(ops) == 0 {
			t.CouldNotRun("case %s: the client fetched the card but sent no operation request (driver result: %s).", k.c.Name, o.Driver.ResultLine)
		}
		for _, r := range ops {
			if r.Tenant == k.want {
				continue
			}
			got := "no tenant"
			if r.Tenant != "" {
				got = fmt.Sprintf("tenant %q", r.Tenant)
			}
			expected := fmt.Sprintf("tenant %q, as the interface declares it (JSON-RPC params.tenant; HTTP+JSON /{tenant} prefix or body)", k.want)
			if k.want == "" {
				expected = "no tenant: the interface declares none, so the field is omitted"
			}
			if k.c.CallerTenant != "" {
				expected += fmt.Sprintf(", whatever the application passed (%q)", k.c.CallerTenant)
			}
			vs = append(vs, invariants.Violation{Invariant: "client-tenant", Where: k.c.Name + ": " + Where(r),
				Expected: expected, Actual: got})
		}
	}
	t.Violated(vs...)
})

// CLI-003: unknown fields ignored (§5.7 SHOULD): members added next to known
// ones in every answer and event, and, in the stream-unknown-event case, a
// whole stream event whose only member is unknown (a kind of event newer
// than v1.0), which a client ignoring unknown fields skips.
var _ = suites.Spec("CLI-003", func(ctx context.Context, t *suites.T) {
	var vs []invariants.Violation
	for _, c := range []Case{{Name: "send", Action: Send, Agent: Agent{UnknownFields: true}},
		{Name: "stream", Action: Stream, Agent: Agent{UnknownFields: true}},
		{Name: "stream-unknown-event", Action: Stream, Agent: Agent{UnknownEvent: true}}} {
		o := RunCase(ctx, t, c)
		r := o.Result
		unknown := UnknownFieldName
		if c.Agent.UnknownEvent {
			unknown = "the event whose only member is " + clientrun.UnknownEventMember
			streamed := false
			for _, q := range o.Ops() {
				streamed = streamed || q.Op == a2a.MethodSendStreamingMessage && q.Status == http.StatusOK
			}
			if !streamed {
				t.Unchecked("a stream event of an unknown kind is skipped",
					"the client opened no stream in case "+c.Name+", so none was served (driver result: "+o.Driver.ResultLine+")")
				continue
			}
		}
		if r.State != "TASK_STATE_COMPLETED" || r.Error != nil {
			vs = append(vs, invariants.Violation{Invariant: "client-unknown-fields", Where: "case " + c.Name,
				Expected: "the task completed, " + unknown + " ignored",
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

// CLI-005: the first interface of a binding the client speaks, and of
// two interfaces of that binding, the first listed.
var _ = suites.Spec("CLI-005", func(ctx context.Context, t *suites.T) {
	const custom = "https://a2a-conform.dev/bindings/unspoken/v1"
	cases := []Case{
		{Name: "send", Action: Send, Agent: Agent{Interfaces: []Interface{
			{Binding: custom}, {Binding: a2a.BindingJSONRPC}, {Binding: a2a.BindingHTTPJSON}}}},
		// Each binding twice, at different URLs: whichever binding the
		// client speaks, the first of its interfaces is the one to use.
		{Name: "same-binding-twice", Action: Send, Agent: Agent{Interfaces: []Interface{
			{Binding: a2a.BindingJSONRPC}, {Binding: a2a.BindingHTTPJSON}, {Binding: a2a.BindingJSONRPC}, {Binding: a2a.BindingHTTPJSON}}}},
	}
	var vs []invariants.Violation
	for _, c := range cases {
		o := RunCase(ctx, t, c)
		t.Observe("case "+c.Name+": interfaces used", interfacesUsed(o))
		vs = append(vs, bindingViolations(o)...)
		vs = append(vs, orderViolations(o)...)
		if o.Result.State != "TASK_STATE_COMPLETED" {
			vs = append(vs, invariants.Violation{Invariant: "client-interface-choice", Where: "case " + c.Name,
				Expected: "the task completed through a declared interface the client speaks", Actual: describe(o.Result)})
		}
	}
	versionFirst(ctx, t)
	t.Violated(vs...)
})

// versionFirst is CLI-005's third and fourth cases: the card lists a
// JSON-RPC interface of protocolVersion 0.3 first (it refuses a 1.0 request
// with VersionNotSupportedError, as §3.6.2 has an interface do), then
// JSON-RPC and HTTP+JSON at 1.0 (version-0.3-first), or HTTP+JSON at 1.0
// only (version-0.3-only-jsonrpc: a client that breaks ties within a binding
// by version has no other JSON-RPC interface to prefer). Whether §8.3.2's
// "first supported transport" may be the 0.3 one for a 1.0 client the text
// does not settle (§3.6.2 calls a binding a transport), so a client that
// picks it is reported as a disputed finding, never a verdict; one that
// takes a 1.0 interface is observed.
func versionFirst(ctx context.Context, t *suites.T) {
	for _, c := range []struct {
		name string
		ifs  []Interface
	}{
		{"version-0.3-first", []Interface{{Binding: a2a.BindingJSONRPC, Version: "0.3"}, {Binding: a2a.BindingJSONRPC}, {Binding: a2a.BindingHTTPJSON}}},
		{"version-0.3-only-jsonrpc", []Interface{{Binding: a2a.BindingJSONRPC, Version: "0.3"}, {Binding: a2a.BindingHTTPJSON}}},
	} {
		o := RunCase(ctx, t, Case{Name: c.name, Action: Send, Agent: Agent{Interfaces: c.ifs}})
		t.Observe("case "+c.name+": interfaces used", interfacesUsed(o))
		for _, r := range o.Ops() {
			if r.Interface != 0 {
				continue
			}
			t.Finding("disputed (case %s): the client chose interface 0, which declares protocolVersion 0.3, and asked it for A2A-Version %q (%s; answered VersionNotSupportedError). "+
				"A2A v1.0.1 §8.3.2 says \"Clients MUST follow these rules: … Parse supportedInterfaces if present, and select the first supported transport\" "+
				"and §3.6.2 \"Agents CAN expose multiple interfaces for the same transport with different versions under the same or different URLs.\": "+
				"whether an interface of a version the client does not speak is a supported transport the text does not settle, so this is not judged; "+
				"a 1.0 client gets no task through such an interface.", c.name, r.Header.Get("A2A-Version"), Where(r))
			break
		}
	}
}

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

// CLI-007: fall back when the interface the client picked refuses
// connections. Each case lists a binding's interfaces refusing, working,
// then (after one working interface of the other binding) refusing again,
// and the two cases swap the bindings: a client that never falls back
// fails at least one case whether it takes the first interface of its
// binding (as §8.3.2 says) or the last one, whichever binding it prefers;
// one that falls back, within its binding or to the other one (the two
// readings of A2A v1.0.1 §5.2's fallback logic for alternative protocols),
// completes both.
var _ = suites.Spec("CLI-007", func(ctx context.Context, t *suites.T) {
	layout := func(first, second string) []Interface {
		return []Interface{{Binding: first, Dead: true}, {Binding: first}, {Binding: second}, {Binding: first, Dead: true}}
	}
	cases := []Case{
		{Name: "jsonrpc-first", Action: Send, Agent: Agent{Interfaces: layout(a2a.BindingJSONRPC, a2a.BindingHTTPJSON)}},
		{Name: "http-json-first", Action: Send, Agent: Agent{Interfaces: layout(a2a.BindingHTTPJSON, a2a.BindingJSONRPC)}},
	}
	t.Observe("reading of A2A v1.0.1 §5.2", "\"Clients SHOULD implement fallback logic for alternative protocols\" is read as: fall back to another declared interface the client speaks, of the same binding at another URL or of another binding; each case declares a working interface of each binding after a refusing one, so a client of both bindings completes under either reading; a client of one binding only completes by falling back within it")
	var vs []invariants.Violation
	for _, c := range cases {
		o := RunCase(ctx, t, c)
		t.Observe("case "+c.Name+": interfaces used", interfacesUsed(o)+" (interfaces 0 and 3 refuse connections: the stage cannot see attempts on them)"+reportedInterface(o))
		if o.Result.State != "TASK_STATE_COMPLETED" {
			vs = append(vs, invariants.Violation{Invariant: "client-binding-fallback", Where: "case " + c.Name,
				Expected: "after the declared interface it picked refused the connection, the task completed through another declared one (interface 1 or 2 of " + fmt.Sprint(len(c.Agent.Interfaces)) + ")",
				Actual:   describe(o.Result)})
		}
		vs = append(vs, bindingViolations(o)...)
	}
	t.Violated(vs...)
})

// interfacesUsed says which declared interfaces got the case's operation
// requests, and how many each: "1 (JSONRPC) ×3, 2 (HTTP+JSON) ×1".
func interfacesUsed(o *Outcome) string {
	n := map[int]int{}
	var order []int
	binding := map[int]string{}
	for _, r := range o.Ops() {
		if n[r.Interface] == 0 {
			order = append(order, r.Interface)
		}
		n[r.Interface]++
		binding[r.Interface] = r.Binding
	}
	if len(order) == 0 {
		return "none"
	}
	var parts []string
	for _, i := range order {
		name := fmt.Sprintf("interface %d (%s)", i, binding[i])
		if i < 0 {
			name = "no declared interface"
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", name, n[i]))
	}
	return strings.Join(parts, ", ")
}

// reportedInterface names the declared interface the driver says its client
// ended on, when it says so: "; the driver reports its client on interface
// 3 (JSONRPC, refusing)".
func reportedInterface(o *Outcome) string {
	ch := o.Result.Interface
	if ch == nil || ch.URL == "" {
		return ""
	}
	ifaces := o.Case.Agent.Interfaces
	for i, in := range ifaces {
		if strings.Contains(ch.URL, fmt.Sprintf("/i%d/", i)) {
			how := "working"
			if in.Dead {
				how = "refusing"
			}
			return fmt.Sprintf("; the driver reports its client on interface %d (%s, %s)", i, in.Binding, how)
		}
	}
	return "; the driver reports its client on " + ch.URL + ", no declared interface"
}

// orderViolations finds operation requests sent to an interface when an
// earlier declared interface of the same binding was there to take them
// (§8.3.2: walk supportedInterfaces in order, the first one whose binding
// the client supports). Only for cases whose interfaces all work: a client
// that fell back from a refusing one may well use a later one.
func orderViolations(o *Outcome) []invariants.Violation {
	ifaces := o.Case.Agent.Interfaces
	var vs []invariants.Violation
	for _, r := range o.Ops() {
		if r.Interface < 0 || r.Interface >= len(ifaces) {
			continue
		}
		for j := 0; j < r.Interface; j++ {
			if ifaces[j].Binding == r.Binding && !ifaces[j].Dead {
				vs = append(vs, invariants.Violation{Invariant: "client-interface-order", Where: Where(r),
					Expected: fmt.Sprintf("the first declared %s interface (interface %d of %d)", r.Binding, j, len(ifaces)),
					Actual:   fmt.Sprintf("interface %d, declared after it in the same binding", r.Interface)})
				break
			}
		}
	}
	return vs
}

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

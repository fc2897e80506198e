package discovery

import (
	"context"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// authProbe is one operation DISC-019 calls with and without credentials.
type authProbe struct {
	name string
	req  func(c *client.Client) client.RawRequest
}

// authProbes read (ListTasks, GetTask) and write (SendMessage): whatever
// the operation, the check comes first (§13.1: before any lookup).
func authProbes() []authProbe {
	tenant := func(c *client.Client, m map[string]any) map[string]any {
		if tn := c.Interface().Tenant; tn != "" {
			m["tenant"] = tn
		}
		return m
	}
	return []authProbe{
		{"ListTasks", func(c *client.Client) client.RawRequest {
			if c.Binding() == a2a.BindingHTTPJSON {
				return client.RawRequest{Method: a2a.MethodListTasks}
			}
			return client.RawRequest{Method: a2a.MethodListTasks, Params: tenant(c, map[string]any{})}
		}},
		{"GetTask of an unknown id", func(c *client.Client) client.RawRequest {
			id := unknownTaskID()
			if c.Binding() == a2a.BindingHTTPJSON {
				return client.RawRequest{Method: a2a.MethodGetTask, PathID: id}
			}
			return client.RawRequest{Method: a2a.MethodGetTask, Params: tenant(c, map[string]any{"id": id})}
		}},
		{"SendMessage", func(c *client.Client) client.RawRequest {
			msg := a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser,
				Parts: []a2a.Part{a2a.TextPart("a2a-conform: a message without credentials, which must not be served")}}
			return client.RawRequest{Method: a2a.MethodSendMessage, Params: tenant(c, map[string]any{"message": msg})}
		}},
	}
}

// DISC-019 (§7.4, §13.1; a2a-v1.md §8.1, §10): when the card declares
// security requirements, every operation on every binding is refused
// without credentials and served with the run's: HTTP 401 with
// WWW-Authenticate on HTTP+JSON (403 also refuses; WWW-Authenticate is a
// SHOULD), UNAUTHENTICATED (or PERMISSION_DENIED) on gRPC, and on JSON-RPC,
// which has no assigned code (UNSURE 8), any refusal that is not the
// operation's own answer: its code is recorded. A TaskNotFoundError to the
// anonymous GetTask means the lookup ran: that is a violation.
var _ = suites.Spec("DISC-019", func(ctx context.Context, t *suites.T) {
	card := t.Card()
	if len(card.SecurityRequirements) == 0 {
		t.NotApplicable("the card declares no securityRequirements, so no operation owes a credential")
	}
	var schemes []string
	for _, req := range card.SecurityRequirements {
		for name := range req.Schemes {
			schemes = append(schemes, name)
		}
	}
	t.Observe("required-schemes", strings.Join(schemes, ", "))
	if len(t.Env.Headers) == 0 {
		t.CouldNotRun("the card requires %s, and the run has no credentials to show that a caller with them is served: pass them with --header 'Authorization: …' (or the config's header key)", strings.Join(schemes, ", "))
	}
	var vs []invariants.Violation
	for _, c := range t.Clients() {
		anon := bareClient(t, c.Interface())
		authed := bareClient(t, c.Interface(), credentials(t)...)
		for _, p := range authProbes() {
			here := where(p.name+" with the run's credentials", authed)
			rr := p.req(authed)
			resp, err := authed.RawDo(ctx, rr)
			if err == nil {
				err = authed.Classify(rr.Method, resp)
			}
			if authRefusal(err) {
				t.CouldNotRun("the agent refused the run's credentials (%s: %s), so whether a caller with credentials is served cannot be shown; pass credentials it accepts with --header", here, suites.ErrText(err))
			}
			if ce, ok := client.AsError(err); ok && ce.Class != client.A2A {
				vs = append(vs, invariants.Violation{Invariant: "auth-required", Where: here,
					Expected: "served, or the operation's own A2A answer", Actual: suites.ErrText(err)})
			}
			here = where(p.name+" without credentials", anon)
			rr = p.req(anon)
			resp, err = anon.RawDo(ctx, rr)
			if err != nil {
				vs = append(vs, invariants.Violation{Invariant: "auth-required", Where: here,
					Expected: "a refusal in the binding's error form", Actual: suites.ErrText(err)})
				continue
			}
			cerr := anon.Classify(rr.Method, resp)
			if v := judgeAnonymous(t, c.Binding(), p.name, resp, cerr); v != nil {
				v.Where = here
				vs = append(vs, *v)
			}
		}
	}
	t.Violated(vs...)
})

// judgeAnonymous checks one binding's answer to a call without credentials.
func judgeAnonymous(t *suites.T, binding, op string, resp *client.RawResponse, err error) *invariants.Violation {
	if err == nil {
		return &invariants.Violation{Invariant: "auth-required", Expected: "refused: the card requires credentials (§7.4, §13.1)",
			Actual: "served to a caller without credentials"}
	}
	ce, _ := client.AsError(err)
	switch binding {
	case a2a.BindingHTTPJSON:
		if resp.Status != 401 && resp.Status != 403 {
			return &invariants.Violation{Invariant: "auth-required", Expected: "HTTP 401 with WWW-Authenticate (or 403)", Actual: suites.ErrText(err)}
		}
		if resp.Status == 401 && resp.Header.Get("WWW-Authenticate") == "" {
			t.Should(invariants.Violation{Invariant: "auth-challenge", Where: op + " without credentials (HTTP+JSON)",
				Expected: "WWW-Authenticate naming the scheme (RFC 9110 §11.6.1; a2a-v1.md §8.1)", Actual: "no WWW-Authenticate header"})
		}
		t.Observe("anonymous-"+binding, fmt.Sprintf("HTTP %d, WWW-Authenticate %q", resp.Status, resp.Header.Get("WWW-Authenticate")))
	case a2a.BindingGRPC:
		if ce == nil || (ce.Status != "UNAUTHENTICATED" && ce.Status != "PERMISSION_DENIED") {
			return &invariants.Violation{Invariant: "auth-required", Expected: "gRPC UNAUTHENTICATED (or PERMISSION_DENIED)", Actual: suites.ErrText(err)}
		}
		t.Observe("anonymous-"+binding, "gRPC "+ce.Status)
	default:
		// JSON-RPC assigns no code (a2a-v1.md UNSURE 8): any refusal that is
		// not the operation's own A2A answer.
		if ce != nil && ce.Kind != "" {
			return &invariants.Violation{Invariant: "auth-required", Expected: "a refusal before the operation ran (§13.1: authorization before any lookup)",
				Actual: "the operation's own answer: " + suites.ErrText(err)}
		}
		if ce != nil && (ce.Class == client.A2A || ce.HTTPStatus == 401 || ce.HTTPStatus == 403) {
			t.Observe("anonymous-"+binding, fmt.Sprintf("code %d, HTTP %d", ce.Code, resp.Status))
			return nil
		}
		return &invariants.Violation{Invariant: "auth-required", Expected: "a JSON-RPC error response (or HTTP 401/403)", Actual: suites.ErrText(err)}
	}
	return nil
}

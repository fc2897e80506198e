package discovery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// authProbe is one operation DISC-019 calls with and without credentials.
// Unary operations are sent raw (req), so that the HTTP status and
// WWW-Authenticate of a refusal are seen; the two streaming operations are
// opened with the typed client (open), which reads a refusal sent before
// the stream or as its first event.
type authProbe struct {
	op   string
	name string
	req  func(c *client.Client) client.RawRequest
	open func(ctx context.Context, c *client.Client) (*client.Stream, error)
	// advertised says the card offers the operation. An operation it does
	// not offer is still probed (every request is authenticated, §13.1),
	// unless the agent has no such route at all (see DISC-019).
	advertised bool
}

// authProbes are every operation of the v1.0 method list (A2A v1.0 §9),
// GetExtendedAgentCard only when the card advertises it. Whatever names a
// task or a config names one nobody issued, and SendMessage continues such a
// task, so that an anonymous call the agent wrongly serves changes nothing
// real: served, it gets TaskNotFoundError, which is the operation's own
// answer and so proves the request was processed unauthenticated (the
// server MUST authenticate every incoming request, A2A v1.0.1 §7.4).
func authProbes(t *suites.T) []authProbe {
	card := t.Card()
	tenant := func(c *client.Client, m map[string]any) map[string]any {
		if tn := c.Interface().Tenant; tn != "" {
			m["tenant"] = tn
		}
		return m
	}
	message := func() *a2a.Message {
		return &a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser, TaskID: unknownTaskID(),
			Parts: []a2a.Part{a2a.TextPart("a2a-conform: a message without credentials, which must not be served")}}
	}
	// A config of a task nobody issued, pointing at the harness's
	// receiver (or the discard port on loopback): nothing can be pushed to
	// it, since the task does not exist.
	hookURL := "http://127.0.0.1:9/a2a-conform-never-delivered"
	if t.Env.Webhook != nil {
		hookURL = t.Env.Webhook.URL(t.WebhookToken())
	}
	byID := func(method string) func(c *client.Client) client.RawRequest {
		return func(c *client.Client) client.RawRequest {
			id := unknownTaskID()
			switch {
			case c.Binding() == a2a.BindingHTTPJSON && method == a2a.MethodGetTask:
				return client.RawRequest{Method: method, PathID: id}
			case c.Binding() == a2a.BindingHTTPJSON:
				return client.RawRequest{Method: method, PathID: id, Params: map[string]any{}}
			}
			return client.RawRequest{Method: method, Params: tenant(c, map[string]any{"id": id})}
		}
	}
	config := func(method string, body bool) func(c *client.Client) client.RawRequest {
		return func(c *client.Client) client.RawRequest {
			task, id := unknownTaskID(), suites.NewID("a2a-conform-unknown-config")
			if method == a2a.MethodListTaskPushNotificationConfigs || method == a2a.MethodCreateTaskPushNotificationConfig {
				id = ""
			}
			p := map[string]any{"taskId": task}
			if id != "" {
				p["id"] = id
			}
			if body {
				p["url"] = hookURL
			}
			if c.Binding() == a2a.BindingHTTPJSON {
				rr := client.RawRequest{Method: method, TaskID: task, PathID: id}
				if body {
					rr.Params = p
				}
				return rr
			}
			return client.RawRequest{Method: method, Params: tenant(c, p)}
		}
	}
	push := card.PushNotifications()
	probes := []authProbe{
		{op: a2a.MethodSendMessage, name: "SendMessage continuing an unknown task", advertised: true,
			req: func(c *client.Client) client.RawRequest {
				return client.RawRequest{Method: a2a.MethodSendMessage, Params: tenant(c, map[string]any{"message": message()})}
			}},
		{op: a2a.MethodSendStreamingMessage, name: "SendStreamingMessage continuing an unknown task", advertised: card.Streaming(),
			open: func(ctx context.Context, c *client.Client) (*client.Stream, error) {
				return c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: message()})
			}},
		{op: a2a.MethodGetTask, name: "GetTask of an unknown id", advertised: true, req: byID(a2a.MethodGetTask)},
		{op: a2a.MethodListTasks, name: "ListTasks", advertised: true, req: func(c *client.Client) client.RawRequest {
			if c.Binding() == a2a.BindingHTTPJSON {
				return client.RawRequest{Method: a2a.MethodListTasks}
			}
			return client.RawRequest{Method: a2a.MethodListTasks, Params: tenant(c, map[string]any{})}
		}},
		{op: a2a.MethodCancelTask, name: "CancelTask of an unknown id", advertised: true, req: byID(a2a.MethodCancelTask)},
		{op: a2a.MethodSubscribeToTask, name: "SubscribeToTask of an unknown id", advertised: card.Streaming(),
			open: func(ctx context.Context, c *client.Client) (*client.Stream, error) {
				return c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: unknownTaskID()})
			}},
		{op: a2a.MethodCreateTaskPushNotificationConfig, name: "CreateTaskPushNotificationConfig on an unknown task", advertised: push,
			req: config(a2a.MethodCreateTaskPushNotificationConfig, true)},
		{op: a2a.MethodGetTaskPushNotificationConfig, name: "GetTaskPushNotificationConfig of an unknown config", advertised: push,
			req: config(a2a.MethodGetTaskPushNotificationConfig, false)},
		{op: a2a.MethodListTaskPushNotificationConfigs, name: "ListTaskPushNotificationConfigs of an unknown task", advertised: push,
			req: config(a2a.MethodListTaskPushNotificationConfigs, false)},
		{op: a2a.MethodDeleteTaskPushNotificationConfig, name: "DeleteTaskPushNotificationConfig of an unknown config", advertised: push,
			req: config(a2a.MethodDeleteTaskPushNotificationConfig, false)},
	}
	if card.ExtendedAgentCard() {
		probes = append(probes, authProbe{op: a2a.MethodGetExtendedAgentCard, name: "GetExtendedAgentCard", advertised: true,
			req: func(c *client.Client) client.RawRequest {
				if c.Binding() == a2a.BindingHTTPJSON {
					return client.RawRequest{Method: a2a.MethodGetExtendedAgentCard}
				}
				return client.RawRequest{Method: a2a.MethodGetExtendedAgentCard, Params: tenant(c, map[string]any{})}
			}})
	}
	return probes
}

// authAnswer is one probe's reply: the HTTP status and headers when the
// binding has them (headers nil when the typed stream client read it), the
// error the operation's typed method would have returned (nil: served), and
// what was served.
type authAnswer struct {
	status int
	header http.Header
	err    error
	served string
	// late says the answer did not come within the run's patience.
	late bool
}

// call sends one probe on c. A transport failure is returned as err with
// status 0.
func (p authProbe) call(ctx context.Context, t *suites.T, c *client.Client) authAnswer {
	if p.open == nil {
		rr := p.req(c)
		resp, err := c.RawDo(ctx, rr)
		if err != nil {
			return authAnswer{err: err}
		}
		return authAnswer{status: resp.Status, header: resp.Header, err: c.Classify(rr.Method, resp),
			served: fmt.Sprintf("%s answered (%d bytes)", rr.Method, len(resp.Body))}
	}
	sctx, cancel := suites.Ctx(ctx, t.Patience())
	defer cancel()
	s, err := p.open(sctx, c)
	if err != nil {
		ce, _ := client.AsError(err)
		a := authAnswer{err: err, late: sctx.Err() != nil && ctx.Err() == nil}
		if ce != nil {
			a.status = ce.HTTPStatus
		}
		return a
	}
	defer s.Close()
	ev, silent, err := suites.FirstEvent(sctx, s)
	switch {
	case silent:
		return authAnswer{status: http.StatusOK, served: fmt.Sprintf("a stream that opened and sent nothing within %s", t.Patience())}
	case errors.Is(err, io.EOF):
		return authAnswer{status: http.StatusOK, served: "a stream that closed without an event"}
	case err != nil:
		return authAnswer{status: http.StatusOK, err: err, served: "a stream"}
	}
	return authAnswer{status: http.StatusOK, served: "a stream whose first event is " + eventKind(ev)}
}

// DISC-019 (§7.4, §13.1; A2A v1.0 §3.3.2, §13.1): when the card declares
// security requirements, every operation of the v1.0 method list on every
// binding is refused without credentials and served with the run's: HTTP
// 401 with WWW-Authenticate on HTTP+JSON (403 also refuses;
// WWW-Authenticate is a SHOULD), UNAUTHENTICATED (or PERMISSION_DENIED) on
// gRPC (another refusal code on either is a miss of §7.4's SHOULD, which
// warns), and on JSON-RPC, which has no assigned code (UNSURE 8), any refusal
// that is not the operation's own answer: its code is recorded. The server
// MUST authenticate every incoming request (§7.4): an anonymous call that gets the
// operation's own answer (TaskNotFoundError for the id nobody issued, an
// empty list, a deleted config) was processed without authentication, and
// that is a violation. An operation the card does not offer and the agent
// has no route for (its answer with credentials is no A2A answer) is left
// to DISC-013/DISC-014, and observed here.
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
	probes := authProbes(t)
	var names []string
	for _, p := range probes {
		names = append(names, p.op)
	}
	t.Observe("operations-probed", strings.Join(names, ", "))
	for _, c := range t.Clients() {
		anon := bareClient(t, c.Interface())
		authed := bareClient(t, c.Interface(), credentials(t)...)
		var noRoute []string
		for _, p := range probes {
			here := where(p.name+" with the run's credentials", authed)
			got := p.call(ctx, t, authed)
			if authRefusal(got.err) {
				t.CouldNotRun("the agent refused the run's credentials (%s: %s), so whether a caller with credentials is served cannot be shown; pass credentials it accepts with --header", here, suites.ErrText(got.err))
			}
			if ce, ok := client.AsError(got.err); ok && ce.Class != client.A2A {
				switch {
				case got.late:
					t.Unchecked(here, "no answer within "+t.Patience().String())
				case !p.advertised:
					// No such route: DISC-013/DISC-014 judge how an
					// operation the card does not offer is refused.
					noRoute = append(noRoute, p.op+" ("+suites.ErrText(got.err)+")")
					continue
				default:
					vs = append(vs, invariants.Violation{Invariant: "auth-required", Where: here,
						Expected: "served, or the operation's own A2A answer", Actual: suites.ErrText(got.err)})
				}
			}
			here = where(p.name+" without credentials", anon)
			got = p.call(ctx, t, anon)
			if got.late {
				t.Unchecked(here, fmt.Sprintf("no answer within %s (a stream the agent neither refused nor opened)", t.Patience()))
				continue
			}
			if ce, ok := client.AsError(got.err); ok && ce.Class == client.Transport {
				vs = append(vs, invariants.Violation{Invariant: "auth-required", Where: here,
					Expected: "a refusal in the binding's error form", Actual: suites.ErrText(got.err)})
				continue
			}
			if v := judgeAnonymous(t, c.Binding(), p.name, got); v != nil {
				v.Where = here
				vs = append(vs, *v)
			}
		}
		if len(noRoute) > 0 {
			t.Observe("not-offered-"+c.Binding(), strings.Join(noRoute, "; "))
		}
	}
	t.Violated(vs...)
})

// judgeAnonymous checks one binding's answer to a call without credentials.
func judgeAnonymous(t *suites.T, binding, op string, got authAnswer) *invariants.Violation {
	err := got.err
	if err == nil {
		return &invariants.Violation{Invariant: "auth-required", Expected: "refused: the card requires credentials (§7.4: the server MUST authenticate every incoming request)",
			Actual: "served to a caller without credentials: " + got.served}
	}
	ce, _ := client.AsError(err)
	// The operation's own A2A answer (TaskNotFoundError for the id nobody
	// issued) means it ran unauthenticated: the MUST of §7.4. A refusal
	// under another code than the binding's authentication one is only
	// the SHOULD of §7.4 ("appropriate binding-specific error codes").
	ownAnswer := func() *invariants.Violation {
		return &invariants.Violation{Invariant: "auth-required", Expected: "a refusal before the operation ran (§7.4: every incoming request is authenticated; §3.3.2: requests with missing credentials are rejected)",
			Actual: "the operation's own answer: " + suites.ErrText(err)}
	}
	switch binding {
	case a2a.BindingHTTPJSON:
		// 404 is the not-found answer to the ids nobody issued, with or
		// without its ErrorInfo: the lookup ran unauthenticated.
		if got.status == 404 || (got.status != 401 && got.status != 403 && ce != nil && ce.Kind != "") {
			return ownAnswer()
		}
		if got.status != 401 && got.status != 403 {
			t.Should(invariants.Violation{Invariant: "auth-code", Where: op + " without credentials (HTTP+JSON)",
				Expected: "HTTP 401 with WWW-Authenticate (or 403): §7.4 asks for the binding's own error codes (SHOULD)", Actual: suites.ErrText(err)})
			return nil
		}
		if got.header == nil {
			// The typed stream client keeps no headers: the challenge is
			// checked on the unary operations.
			return nil
		}
		if got.status == 401 && got.header.Get("WWW-Authenticate") == "" {
			t.Should(invariants.Violation{Invariant: "auth-challenge", Where: op + " without credentials (HTTP+JSON)",
				Expected: "WWW-Authenticate naming the scheme (RFC 9110 §11.6.1; A2A v1.0 §3.3.2)", Actual: "no WWW-Authenticate header"})
		}
		t.Observe("anonymous-"+binding, fmt.Sprintf("HTTP %d, WWW-Authenticate %q", got.status, got.header.Get("WWW-Authenticate")))
	case a2a.BindingGRPC:
		authCode := ce != nil && (ce.Status == "UNAUTHENTICATED" || ce.Status == "PERMISSION_DENIED")
		if !authCode && ce != nil && (ce.Kind != "" || ce.Status == "NOT_FOUND") {
			return ownAnswer()
		}
		if !authCode {
			t.Should(invariants.Violation{Invariant: "auth-code", Where: op + " without credentials (gRPC)",
				Expected: "gRPC UNAUTHENTICATED (or PERMISSION_DENIED): §7.4 asks for the binding's own error codes (SHOULD)", Actual: suites.ErrText(err)})
			return nil
		}
		t.Observe("anonymous-"+binding, "gRPC "+ce.Status)
	default:
		// JSON-RPC assigns no code (the spec leaves it open): any refusal that is
		// not the operation's own A2A answer.
		if ce != nil && ce.Kind != "" {
			return ownAnswer()
		}
		if ce != nil && (ce.Class == client.A2A || ce.HTTPStatus == 401 || ce.HTTPStatus == 403) {
			s := fmt.Sprintf("code %d, HTTP %d", ce.Code, got.status)
			if ce.InStream {
				s += ", as the stream's first event"
			}
			t.Observe("anonymous-"+binding, s)
			return nil
		}
		return &invariants.Violation{Invariant: "auth-required", Expected: "a JSON-RPC error response (or HTTP 401/403)", Actual: suites.ErrText(err)}
	}
	return nil
}

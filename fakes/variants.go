package fakes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// Variants are correct agents that read the spec another allowed way than
// the default reference agent (Options fields documented in agent.go). They
// are not faults: every spec must treat them as correct. Their behaviour
// lives here, so that the default paths stay as they are.

// RequireAuthScheme is the securitySchemes key the card declares when
// Options.RequireAuth is set.
const RequireAuthScheme = "a2a-conform-bearer"

// variantCard applies the card-shaping variants.
func (a *Agent) variantCard(card *a2a.AgentCard, base string) {
	if a.opts.EmptySkills {
		// §8.4.1's own example card has "skills": [] (the spec leaves it open).
		card.Skills = []a2a.AgentSkill{}
	}
	if a.opts.PatchVersionInterfaces {
		for i := range card.SupportedInterfaces {
			card.SupportedInterfaces[i].ProtocolVersion = a2a.ProtocolVersion + ".0"
		}
	}
	if a.opts.RequireAuth != "" {
		if card.SecuritySchemes == nil {
			card.SecuritySchemes = map[string]a2a.SecurityScheme{}
		}
		card.SecuritySchemes[RequireAuthScheme] = a2a.SecurityScheme{HTTPAuth: &a2a.HTTPAuthSecurityScheme{
			Scheme: "Bearer", Description: "Every A2A operation requires this bearer token."}}
		card.SecurityRequirements = append(card.SecurityRequirements, a2a.SecurityRequirement{
			Schemes: map[string]a2a.StringList{RequireAuthScheme: {}}})
	}
}

// authenticate refuses a binding request without a bearer token the agent
// knows (Options.RequireAuth, Options.OtherTokens): 401 with
// WWW-Authenticate on HTTP+JSON, the unauthenticated code on JSON-RPC
// (A2A v1.0 §3.3.2: the spec assigns none; -31401 as a2a-go does). It returns
// the request tagged with the caller's identity, or false when it may not go
// on.
func (a *Agent) authenticate(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	r, oe := a.authError(r)
	if oe != nil {
		a.writeError(w, r, oe)
		return r, false
	}
	return r, true
}

// authError is authenticate's verdict for any binding (gRPC:
// UNAUTHENTICATED), with r tagged with the caller's identity when it may go
// on.
func (a *Agent) authError(r *http.Request) (*http.Request, *opError) {
	p, ok := a.callerPrincipal(r)
	if ok {
		return r.WithContext(withPrincipal(r.Context(), p)), nil
	}
	switch op := methodOf(r); {
	case a.faults.has(faultAuthListUnauthenticated) && op == a2a.MethodListTasks,
		a.faults.has(faultAuthCancelUnauthenticated) && op == a2a.MethodCancelTask:
		// Served as the anonymous caller, who owns nothing.
		return r, nil
	case a.faults.has(faultExtendedCardNoAuth) && op == a2a.MethodGetExtendedAgentCard:
		// The fault serves the extended card to anyone, whatever else the
		// agent authenticates.
		return r, nil
	}
	return r, &opError{code: codeUnauthenticated, httpStatus: http.StatusUnauthorized, grpcStatus: "UNAUTHENTICATED",
		message: "this agent authenticates every request: send Authorization: Bearer <token> (scheme " + RequireAuthScheme + ")"}
}

// methodOf names the operation of a request before it is routed, for the
// faults that skip authentication on one operation: the gRPC view's path,
// GET …/tasks or …/extendedAgentCard, POST …/tasks/{id}:cancel, or a
// JSON-RPC body's method (read, then put back). "" when it is none of
// these.
func methodOf(r *http.Request) string {
	p := stripGeneration(r.URL.Path)
	switch {
	case strings.HasPrefix(p, GRPCPath+"/"):
		return strings.TrimPrefix(p, GRPCPath+"/")
	case strings.HasPrefix(p, RESTPath) && r.Method == http.MethodGet:
		switch {
		case strings.HasSuffix(strings.TrimSuffix(p, "/"), "/tasks"):
			return a2a.MethodListTasks
		case strings.HasSuffix(p, "/extendedAgentCard"):
			return a2a.MethodGetExtendedAgentCard
		}
	case strings.HasPrefix(p, RESTPath) && r.Method == http.MethodPost && strings.HasSuffix(p, ":cancel"):
		return a2a.MethodCancelTask
	case p == JSONRPCPath && r.Body != nil:
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		r.Body = io.NopCloser(bytes.NewReader(b))
		var env struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(b, &env) == nil {
			return env.Method
		}
	}
	return ""
}

// mediaTypeChecked applies Options.ServeAnyMediaType and the fault
// content-type-wrong-error to a message's validation error: a part of a
// media type the agent does not take is served, or refused with the wrong
// error. Any other validation error is returned as it is.
func (a *Agent) mediaTypeChecked(oe *opError) *opError {
	if oe == nil || oe.kind != a2a.ErrContentTypeNotSupported {
		return oe
	}
	switch {
	case a.opts.ServeAnyMediaType:
		return nil
	case a.faults.has(faultContentTypeWrongError):
		return errInvalidParams("message.parts", "%s", oe.message)
	}
	return oe
}

// servesV03REST reports whether an HTTP+JSON request goes to the v0.3
// handler (Options.V03WithoutVersion): it names no A2A-Version, which
// §3.6.2 says means 0.3.
func (a *Agent) servesV03REST(r *http.Request) bool {
	return a.opts.V03WithoutVersion && strings.TrimSpace(r.Header.Get("A2A-Version")) == "" &&
		strings.TrimSpace(r.URL.Query().Get("A2A-Version")) == ""
}

// serveV03REST answers as a v0.3 HTTP+JSON handler would (the A2A v0.3 → v1.0 changes):
// its routes live under /v1, results keep the v0.3 "kind" discriminators,
// and errors are RFC 9457 problem+json bodies, not google.rpc.Status. Only
// GetTask is routed; every other path is a route v0.3 does not have.
func (a *Agent) serveV03REST(w http.ResponseWriter, r *http.Request) {
	rel := strings.TrimPrefix(stripGeneration(r.URL.EscapedPath()), RESTPath)
	id, ok := strings.CutPrefix(rel, "/v1/tasks/")
	if ok && r.Method == http.MethodGet && id != "" && !strings.ContainsAny(id, "/:") {
		if tid, err := url.PathUnescape(id); err == nil {
			body, oe := a.getTask(r.Context(), &a2a.GetTaskRequest{ID: tid})
			if oe == nil {
				writeJSON(w, http.StatusOK, "application/json", v03Kinds(body))
				return
			}
			problem(w, oe.httpStatus, "Task not found", oe.message)
			return
		}
	}
	problem(w, http.StatusNotFound, "Not Found", fmt.Sprintf("no v0.3 route for %s %s (v0.3 routes live under /v1)", r.Method, truncate(rel, 200)))
}

// problem writes an RFC 9457 problem+json body, the v0.3 error form.
func problem(w http.ResponseWriter, status int, title, detail string) {
	b, _ := json.Marshal(map[string]any{"type": "about:blank", "title": title, "status": status, "detail": detail})
	writeJSON(w, status, "application/problem+json", b)
}

// reservedTLDs never resolve (RFC 2606, RFC 6761): a webhook under one can
// never be delivered to.
var reservedTLDs = []string{".invalid", ".test", ".example"}

// validateWebhookURL refuses a webhook that can never be delivered to
// (Options.ValidateWebhooks; spec §13.2 SHOULD validate webhook URLs): not
// an absolute http(s) URL, or a host under a reserved TLD. Hosts are not
// resolved, so that the check needs no network.
func (a *Agent) validateWebhookURL(raw string) *opError {
	if !a.opts.ValidateWebhooks {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return errInvalidParams("url", "the webhook URL must be an absolute http(s) URL")
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	for _, tld := range reservedTLDs {
		if strings.HasSuffix(host, tld) || host == tld[1:] {
			return errInvalidParams("url", "the webhook host %q can never resolve (reserved TLD %s)", truncate(host, 100), tld)
		}
	}
	return nil
}

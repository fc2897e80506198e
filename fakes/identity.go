package fakes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/a2a-conform/a2a-conform/fakes/store"
)

// Identities (spec §13.1): with Options.RequireAuth the agent knows who calls
// it, and every task belongs to the identity that created it. Another
// identity's task does not exist for a caller: Get, Cancel, Subscribe, a
// message naming it and every push-config operation answer exactly the
// TaskNotFoundError an unknown id gets, and ListTasks leaves it out (with or
// without filters). The check is made on the task row the operation loaded,
// before anything else is decided about it, so that no other answer (not
// cancelable, terminal, config not found) can tell it exists.

type principalKey struct{}

// withPrincipal tags a request's context with the caller's identity.
func withPrincipal(ctx context.Context, p string) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// principalOf is the identity of the caller whose request ctx belongs to: ""
// for an agent that authenticates nobody (everyone is the same caller).
func principalOf(ctx context.Context) string {
	p, _ := ctx.Value(principalKey{}).(string)
	return p
}

// principalFor names the identity a bearer token stands for. The token
// itself is a secret and is never stored: the store keeps this digest.
func principalFor(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "bearer:" + hex.EncodeToString(sum[:8])
}

// tokens are the bearer tokens the agent accepts, each its own identity:
// RequireAuth, then OtherTokens. Empty when the agent authenticates nobody.
func (a *Agent) tokens() []string {
	if a.opts.RequireAuth == "" {
		return nil
	}
	out := []string{a.opts.RequireAuth}
	for _, t := range a.opts.OtherTokens {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// callerPrincipal authenticates r: the identity of its bearer token, or
// false when the agent requires one and r carries none it knows.
func (a *Agent) callerPrincipal(r *http.Request) (string, bool) {
	toks := a.tokens()
	if len(toks) == 0 {
		return "", true
	}
	got := r.Header.Get("Authorization")
	for _, t := range toks {
		if got == "Bearer "+t {
			return principalFor(t), true
		}
	}
	return "", false
}

// mayAccess reports whether the caller of ctx may see rec at all: it is
// visible on this instance and belongs to the caller.
func (a *Agent) mayAccess(ctx context.Context, rec *store.Task) bool {
	if !a.visible(rec) {
		return false
	}
	return rec.Principal == principalOf(ctx)
}

// hiddenTask is the answer to an operation on a task the caller may not
// see: the unknown-id answer (spec §3.3.2: MUST NOT reveal that it exists),
// unless a fault answers otherwise.
func (a *Agent) hiddenTask(rec *store.Task, id string) *opError {
	if a.visible(rec) && a.faults.has(faultOtherIdentityTaskForbidden) {
		return errForbidden(id)
	}
	return a.taskNotFound(id)
}

// codeForbidden is the JSON-RPC code of an authorization refusal. The spec
// assigns none ("JSON-RPC custom error", §3.3.2); a2a-go uses this one.
const codeForbidden = -31403

// errForbidden is the authorization error the other-identity-task-forbidden
// fault answers with: 403, PERMISSION_DENIED, -31403.
func errForbidden(id string) *opError {
	return &opError{code: codeForbidden, httpStatus: http.StatusForbidden, grpcStatus: "PERMISSION_DENIED",
		message: "task " + truncate(id, 100) + " belongs to another caller", meta: map[string]string{"taskId": id}}
}

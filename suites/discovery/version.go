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

// The negotiation specs send the same harmless request, GetTask for an id
// nobody issued, under different A2A-Version headers and compare the answers
// with the answer under 1.0: "served" means answered as under 1.0.

// versionProbe sends the probe on one binding under a version ("" sends no
// header) and returns the error (nil when served).
func versionProbe(ctx context.Context, t *suites.T, iface a2a.AgentInterface, version string) error {
	c := t.ClientFor(iface, client.WithVersion(version))
	_, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: unknownTaskID()})
	return err
}

// baseline is the probe's outcome under 1.0; a transport failure or a
// version error there means the binding cannot be probed at all. An answer
// that is not an A2A answer (a protocol or bare HTTP error) makes any
// comparison with it meaningless: the caller must not count "the same
// garbage twice" as "served as 1.0" (see unjudgeable).
func baseline(ctx context.Context, t *suites.T, c *client.Client) (outcome, *invariants.Violation) {
	err := versionProbe(ctx, t, c.Interface(), a2a.ProtocolVersion)
	o := outcomeOf(err)
	if o.class == client.Protocol || o.class == client.HTTP {
		t.Observe("baseline-"+c.Binding(), "not an A2A answer under 1.0: "+suites.ErrText(err))
		return o, nil
	}
	if o.class == client.Transport || o.kind == a2a.ErrVersionNotSupported || (o.status >= 500) {
		return o, &invariants.Violation{Invariant: "version-negotiation", Where: where("GetTask with A2A-Version: 1.0", c),
			Expected: "served under the version the card declares (any answer but a version error, 5xx or no answer)",
			Actual:   suites.ErrText(err)}
	}
	return o, nil
}

// unjudgeable reports whether the 1.0 answer cannot anchor a comparison.
func unjudgeable(o outcome) bool { return o.class == client.Protocol || o.class == client.HTTP }

// againstBaseline sends the probe under version on every binding and lets
// judge compare the answer with the answer under 1.0. Violations (with
// earlier ones in vs) are reported; bindings whose 1.0 answer is not an A2A
// answer cannot anchor a comparison, and the spec ends indeterminate for them.
func againstBaseline(ctx context.Context, t *suites.T, version string, vs []invariants.Violation,
	judge func(c *client.Client, base outcome, err error) *invariants.Violation) {
	var unjudged []string
	for _, c := range t.Clients() {
		base, v := baseline(ctx, t, c)
		if v != nil {
			vs = append(vs, *v)
			continue
		}
		if unjudgeable(base) {
			unjudged = append(unjudged, c.Binding())
			continue
		}
		if v := judge(c, base, versionProbe(ctx, t, c.Interface(), version)); v != nil {
			vs = append(vs, *v)
		}
	}
	t.Violated(vs...)
	if len(unjudged) > 0 {
		t.Indeterminate("the answer under A2A-Version 1.0 on %s is not an A2A answer (see observations), so comparing other versions with it proves nothing", strings.Join(unjudged, ", "))
	}
}

// DISC-010 (§3.6.2): A2A-Version 9.9 is refused with VersionNotSupportedError
// (-32009; HTTP 400, reason VERSION_NOT_SUPPORTED) on every binding, and the
// same request under 1.0 is served.
var _ = suites.Spec("DISC-010", func(ctx context.Context, t *suites.T) {
	var vs []invariants.Violation
	var unjudged []string
	for _, c := range t.Clients() {
		base, v := baseline(ctx, t, c)
		if v != nil {
			vs = append(vs, *v)
		} else if unjudgeable(base) {
			unjudged = append(unjudged, c.Binding())
		}
		err := versionProbe(ctx, t, c.Interface(), "9.9")
		if !isKind(err, a2a.ErrVersionNotSupported) {
			vs = append(vs, invariants.Violation{Invariant: "version-negotiation", Where: where("GetTask with A2A-Version: 9.9", c),
				Expected: "VersionNotSupportedError (-32009; on HTTP+JSON 400 with reason VERSION_NOT_SUPPORTED)",
				Actual:   suites.ErrText(err)})
		}
	}
	t.Violated(vs...)
	if len(unjudged) > 0 {
		t.Indeterminate("the 9.9 refusal held, but the answer under A2A-Version 1.0 on %s is not an A2A answer (see observations), so whether 1.0 is served cannot be told", strings.Join(unjudged, ", "))
	}
})

// DISC-011 (§3.6.2; A2A v1.0 §3.6, which leaves it open): a request without
// A2A-Version is served (as 1.0, as most SDKs do, or dispatched as 0.3) or
// refused with VersionNotSupportedError; anything else fails. Each reading is
// accepted on both bindings and the one observed recorded.
var _ = suites.Spec("DISC-011", func(ctx context.Context, t *suites.T) {
	againstBaseline(ctx, t, "", nil, func(c *client.Client, base outcome, err error) *invariants.Violation {
		got := outcomeOf(err)
		key := "no-version-" + c.Binding()
		switch {
		case got == base:
			t.Observe(key, "served as 1.0 ("+got.String()+")")
		case isKind(err, a2a.ErrVersionNotSupported):
			t.Observe(key, "refused with VersionNotSupportedError (absent means 0.3, which the agent does not serve)")
		case c.Binding() == a2a.BindingJSONRPC && got.class == client.A2A && got.code == a2a.CodeMethodNotFound:
			t.Observe(key, "dispatched as 0.3: MethodNotFound (GetTask is not a v0.3 method)")
		case c.Binding() == a2a.BindingHTTPJSON && v03RESTAnswer(got):
			t.Observe(key, "dispatched as 0.3: "+got.String()+" without a v1.0 error (v0.3 routes live under /v1 and its errors were problem+json, the A2A v0.3 → v1.0 changes)")
		default:
			return &invariants.Violation{Invariant: "version-negotiation", Where: where("GetTask without A2A-Version", c),
				Expected: fmt.Sprintf("the answer under 1.0 (%s) or VersionNotSupportedError", base),
				Actual:   suites.ErrText(err)}
		}
		return nil
	})
})

// DISC-012 (§3.6): patch numbers play no part: A2A-Version 1.0.3 is served
// as 1.0, and every declared interface names its version as Major.Minor.
var _ = suites.Spec("DISC-012", func(ctx context.Context, t *suites.T) {
	for i, iface := range t.Card().SupportedInterfaces {
		if !majorMinor.MatchString(iface.ProtocolVersion) {
			// A SHOULD at most (docs/levels.md): it never fails the spec.
			t.Should(invariants.Violation{Invariant: "version-format",
				Where:    fmt.Sprintf("supportedInterfaces[%d] (%s) protocolVersion", i, iface.ProtocolBinding),
				Expected: `Major.Minor without a patch number, e.g. "1.0"`, Actual: quoteOrAbsent(iface.ProtocolVersion)})
		}
	}
	againstBaseline(ctx, t, "1.0.3", nil, func(c *client.Client, base outcome, err error) *invariants.Violation {
		if got := outcomeOf(err); got != base {
			return &invariants.Violation{Invariant: "version-patch", Where: where("GetTask with A2A-Version: 1.0.3", c),
				Expected: fmt.Sprintf("served as 1.0, like the same request under 1.0 (%s)", base),
				Actual:   suites.ErrText(err)}
		}
		return nil
	})
})

// v03RESTAnswer reports whether an HTTP+JSON answer to GET …/tasks/{id} is
// what a v0.3 handler gives it (the A2A v0.3 → v1.0 changes): v0.3 routes
// live under /v1, so the v1.0 path is a route it lacks (404, or 405 where
// the path matches another verb), or, mounted without the prefix, a
// TaskNotFound in v0.3's problem+json form (404, or 400 for a v0.3
// validation error) with no v1.0 ErrorInfo. A v1.0 A2A error, a 5xx or no
// answer is not.
func v03RESTAnswer(o outcome) bool {
	if o.kind != "" || (o.class != client.HTTP && o.class != client.A2A) {
		return false
	}
	return o.status == 400 || o.status == 404 || o.status == 405
}

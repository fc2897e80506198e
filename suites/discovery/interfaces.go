package discovery

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// majorMinor is the form of every protocol version (§3.6): no patch number.
var majorMinor = regexp.MustCompile(`^\d+\.\d+$`)

// DISC-009 (§5.2, §8.3, §8.3.1, §9.1, §10.1, §11.3): every
// supportedInterfaces entry of a binding the harness speaks (JSONRPC,
// HTTP+JSON, GRPC) is a URL of that binding (absolute http(s); host:port or
// https:// for gRPC) that answers a GetTask for an unknown id in that
// binding, at the version the entry declares. An entry in a binding or major
// version the harness does not speak (custom URIs, 0.3) cannot be probed: it is listed as unchecked,
// so the spec does not pass over it (STYLE.md: a pass covers the whole title).
var _ = suites.Spec("DISC-009", func(ctx context.Context, t *suites.T) {
	card := t.Card()
	var vs []invariants.Violation
	probed := 0
	for i, iface := range card.SupportedInterfaces {
		here := fmt.Sprintf("supportedInterfaces[%d] (%s %s)", i, iface.ProtocolBinding, iface.URL)
		key := fmt.Sprintf("interface-%d", i)
		if !suites.Supported(iface.ProtocolBinding) {
			// The title promises every declared interface: one the harness
			// cannot call is said to be unchecked, never passed over.
			t.Unchecked(here, "the harness does not speak the "+iface.ProtocolBinding+" binding (it speaks "+strings.Join(client.Bindings, ", ")+"), so whether this interface answers in it was not probed")
			continue
		}
		if iface.ProtocolBinding == a2a.BindingGRPC {
			// host:port (main) or an https:// URL (v1.0.x); the client
			// refuses what it cannot dial, and plaintext off loopback.
			if _, err := client.New(iface); err != nil {
				vs = append(vs, invariants.Violation{Invariant: "interface-url", Where: here + " url",
					Expected: "host:port or an https:// URL (A2A v1.0 §10)", Actual: err.Error()})
				continue
			}
		} else if u, err := url.Parse(iface.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			vs = append(vs, invariants.Violation{Invariant: "interface-url", Where: here + " url",
				Expected: "an absolute http(s) URL", Actual: quoteOrAbsent(iface.URL)})
			continue
		}
		if !majorMinor.MatchString(iface.ProtocolVersion) {
			// §3.6 names versions by Major.Minor (e.g. 1.0) and says patch
			// numbers SHOULD NOT be used in Agent Cards; no sentence
			// makes another form a MUST violation (docs/levels.md).
			t.Should(invariants.Violation{Invariant: "interface-version", Where: here + " protocolVersion",
				Expected: "Major.Minor, e.g. \"1.0\" (§3.6)", Actual: quoteOrAbsent(iface.ProtocolVersion)})
		}
		if !strings.HasPrefix(iface.ProtocolVersion, "1.") {
			t.Unchecked(here, "it declares protocolVersion "+iface.ProtocolVersion+" and the harness speaks only 1.x, so it was not probed")
			continue
		}
		probed++
		opts := append(credentials(t), client.WithVersion(iface.ProtocolVersion))
		c := bareClient(t, iface, opts...)
		id := unknownTaskID()
		_, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
		if v := judgeBinding(c, err); v != "" {
			vs = append(vs, invariants.Violation{Invariant: "interface-binding", Where: here + " GetTask " + id,
				Expected: expectedAnswer(iface.ProtocolBinding), Actual: v})
			continue
		}
		t.Observe(key, iface.ProtocolBinding+" "+iface.ProtocolVersion+": "+outcomeOf(err).String())
		if secure(iface) {
			observeTLSAt(t, key+".tls", c.Authority())
		}
	}
	t.Observe("interfaces-probed", fmt.Sprint(probed))
	t.Violated(vs...)
	if probed == 0 {
		t.CouldNotRun("no declared interface is a JSONRPC, HTTP+JSON or GRPC interface at protocol version 1.x, so none could be probed (see observations).")
	}
})

func expectedAnswer(binding string) string {
	switch binding {
	case a2a.BindingJSONRPC:
		return "a JSON-RPC 2.0 error response for GetTask (ideally TaskNotFoundError -32001)"
	case a2a.BindingGRPC:
		return "a gRPC status from lf.a2a.v1.A2AService/GetTask (ideally NOT_FOUND with ErrorInfo reason TASK_NOT_FOUND)"
	}
	return "a google.rpc.Status error body with a 4xx status for GET …/tasks/{id} (ideally TaskNotFoundError, 404 with reason TASK_NOT_FOUND)"
}

// judgeBinding says why an answer to GetTask for an unknown id is not the
// declared binding's, or "" when it is. Which error it is stays LIFE-007's
// business, as long as the binding understood the request.
func judgeBinding(c *client.Client, err error) string {
	if err == nil {
		return "" // served: the binding understood it (an id nobody issued, oddly found)
	}
	ce, ok := client.AsError(err)
	if !ok || ce.Class != client.A2A {
		return suites.ErrText(err)
	}
	if ce.Kind == a2a.ErrVersionNotSupported {
		return "VersionNotSupportedError for the version the interface declares: " + suites.ErrText(err)
	}
	if c.Binding() == a2a.BindingGRPC {
		switch {
		case ce.Status == "UNIMPLEMENTED" && ce.Kind == "":
			return "UNIMPLEMENTED: the endpoint speaks gRPC but does not serve lf.a2a.v1.A2AService/GetTask"
		case ce.Status == "INTERNAL" || ce.Status == "UNKNOWN":
			return suites.ErrText(err)
		}
		return ""
	}
	if c.Binding() == a2a.BindingJSONRPC {
		if ce.Code == a2a.CodeMethodNotFound {
			return "MethodNotFound: the endpoint speaks JSON-RPC but not A2A v1.0's GetTask"
		}
		return ""
	}
	switch {
	case ce.HTTPStatus >= 500:
		return suites.ErrText(err)
	case ce.Kind == "" && (ce.HTTPStatus == 404 || ce.HTTPStatus == 405):
		// Without an ErrorInfo (a MUST on HTTP+JSON, §11.6) this is what any
		// server says for a route it does not have.
		return "HTTP " + fmt.Sprint(ce.HTTPStatus) + " without an A2A ErrorInfo: indistinguishable from a route this endpoint does not serve"
	}
	return ""
}

// secure reports an interface the harness speaks TLS to: an https:// URL,
// or a gRPC interface that is not plaintext.
func secure(iface a2a.AgentInterface) bool {
	if iface.ProtocolBinding == a2a.BindingGRPC {
		c, err := client.New(iface)
		return err == nil && !c.Plaintext()
	}
	u, err := url.Parse(iface.URL)
	return err == nil && strings.EqualFold(u.Scheme, "https")
}

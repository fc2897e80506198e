package discovery

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/jcs"
	"github.com/a2a-conform/a2a-conform/suites"
)

// What the specs after DISC-005 share: fetching the card as a v1.0 client
// does, clients without the run's extras, and one-line descriptions of
// answers.

// fetchV1 fetches the card the way a v1.0 client does (A2A-Version: 1.0,
// A2A v1.0.1 §3.6.1), with extra headers.
func fetchV1(ctx context.Context, t *suites.T, extra http.Header) *client.CardResponse {
	h := http.Header{"A2A-Version": {a2a.ProtocolVersion}}
	for k, v := range extra {
		h[k] = v
	}
	return fetch(ctx, t, h)
}

// servedCard ends the spec as could-not-run when the fetch gave no card: a
// spec about the card's headers or body judged from an error page would
// judge something that is not the card (DISC-001 reports the fetch itself).
func servedCard(t *suites.T, resp *client.CardResponse, what string) {
	if resp.Status != http.StatusOK || resp.Card == nil {
		t.CouldNotRun("the card fetch with A2A-Version: 1.0 gave no card (%s), so %s cannot be judged; DISC-001 reports why.",
			errText(resp.DecodeErr, resp.Status), what)
	}
}

// sameJSON compares two documents as JSON values (layout and key order do
// not matter); documents that are not JSON compare as bytes.
func sameJSON(a, b []byte) bool {
	ca, errA := jcs.Canonicalize(a)
	cb, errB := jcs.Canonicalize(b)
	if errA != nil || errB != nil {
		return string(a) == string(b)
	}
	return string(ca) == string(cb)
}

// bareClient is a client for one interface with only what opts give it: no
// run credentials and no behaviour extensions. Specs that must control
// exactly what a request declares build on it.
func bareClient(t *suites.T, iface a2a.AgentInterface, opts ...client.Option) *client.Client {
	all := t.Transport()
	if t.Env.Options.SubscribeVerb != "" {
		all = append(all, client.WithSubscribeVerb(t.Env.Options.SubscribeVerb))
	}
	c, err := client.New(iface, append(all, opts...)...)
	if err != nil {
		t.CouldNotRun("cannot build a client for interface %s %s: %v.", iface.ProtocolBinding, iface.URL, err)
	}
	return c
}

// credentials are the run's headers as client options.
func credentials(t *suites.T) []client.Option {
	var out []client.Option
	for name, values := range t.Env.Headers {
		for _, v := range values {
			out = append(out, client.WithHeader(name, v))
		}
	}
	return out
}

// unknownTaskID is an id no agent has issued.
func unknownTaskID() string { return suites.NewID("a2a-conform-unknown-task") }

// outcome is how an answer looks when only its kind matters: success, or
// the error's class, A2A kind, JSON-RPC code and HTTP status.
type outcome struct {
	ok     bool
	class  client.Class
	kind   a2a.ErrorKind
	code   int
	status int
	grpc   string // gRPC status code name
}

func outcomeOf(err error) outcome {
	if err == nil {
		return outcome{ok: true}
	}
	ce, ok := client.AsError(err)
	if !ok {
		return outcome{class: client.Transport}
	}
	o := outcome{class: ce.Class, kind: ce.Kind, code: ce.Code, status: ce.HTTPStatus}
	if ce.Binding == a2a.BindingGRPC {
		o.grpc = ce.Status
	}
	return o
}

func (o outcome) String() string {
	if o.ok {
		return "success"
	}
	s := string(o.class) + " error"
	if o.kind != "" {
		s += " " + string(o.kind)
	}
	if o.code != 0 {
		s += fmt.Sprintf(" code %d", o.code)
	}
	if o.status != 0 {
		s += fmt.Sprintf(" HTTP %d", o.status)
	}
	if o.grpc != "" {
		s += " gRPC " + o.grpc
	}
	return s
}

// isKind reports whether err is the A2A error kind; on HTTP+JSON (gRPC) the
// HTTP status (gRPC status) must also be one an error table gives it.
func isKind(err error, kind a2a.ErrorKind) bool {
	ce, ok := client.AsError(err)
	if !ok || ce.Class != client.A2A || ce.Kind != kind {
		return false
	}
	return ce.Binding == a2a.BindingJSONRPC || len(ce.Tables) > 0
}

// where names a call on one binding for a violation.
func where(op string, c *client.Client) string {
	return op + " (" + c.Binding() + " " + c.Interface().URL + ")"
}

// headerTokens splits comma-separated header values into lower-cased tokens.
func headerTokens(values []string) []string {
	var out []string
	for _, v := range values {
		for _, tok := range strings.Split(v, ",") {
			if tok = strings.ToLower(strings.TrimSpace(tok)); tok != "" {
				out = append(out, tok)
			}
		}
	}
	return out
}

// observeTLS reports, as observation key, the TLS version and cipher suite
// the run negotiated with rawURL's authority, when it is https:// (spec
// §7.1: TLS 1.3+ recommended, a deployment matter the harness reports and
// never judges: AUTH-TLS-002). A URL the run spoke no TLS to says so.
func observeTLS(t *suites.T, key, rawURL string) {
	u, err := url.Parse(rawURL)
	if err != nil || !strings.EqualFold(u.Scheme, "https") {
		return
	}
	observeTLSAt(t, key, client.AuthorityOf(u))
}

// observeTLSAt reports the session negotiated with an authority (host:port).
func observeTLSAt(t *suites.T, key, authority string) {
	if t.Env.TLS == nil {
		return
	}
	if d, ok := t.Env.TLS.Seen(authority); ok {
		t.Observe(key, d+" with "+authority)
		return
	}
	t.Observe(key, "no TLS session with "+authority+" was seen")
}

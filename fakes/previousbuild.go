package fakes

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// An older build of the reference agent (Options.PreviousBuild) has two
// things its successor dropped, so that a CDN holding its card keeps
// claiming them after the rollout (scenario 3, ROLL-007):
//
//   - a second HTTP+JSON interface at PreviousBuildRESTPath, declared last
//     (after gRPC), so that a client's choice of interface (§8.3.2: the
//     first it speaks) is the same on both builds' cards;
//   - the extension PreviousBuildExtension, marked required: a request that
//     does not declare it is refused with ExtensionSupportRequiredError
//     (§3.3.4), one that does is served and the extension echoed as
//     activated in A2A-Extensions.
//
// A build without them declares neither: the path answers 404 like any
// other, and the extension, requested, is ignored (§4.6.3: an agent that
// does not support a requested extension proceeds without it).

// PreviousBuildRESTPath is the previous build's second HTTP+JSON interface.
const PreviousBuildRESTPath = "/a2a/rest-previous"

// PreviousBuildExtension is the extension only the previous build supports.
const PreviousBuildExtension = "https://a2a-conform.dev/extensions/previous-build/v1"

// previousBuildCard declares the previous build's interface and extension.
func (a *Agent) previousBuildCard(card *a2a.AgentCard, base, prefix string) {
	if !a.opts.PreviousBuild {
		return
	}
	card.SupportedInterfaces = append(card.SupportedInterfaces, a2a.AgentInterface{
		URL: base + prefix + PreviousBuildRESTPath, ProtocolBinding: a2a.BindingHTTPJSON, ProtocolVersion: a2a.ProtocolVersion})
	card.Capabilities.Extensions = append(card.Capabilities.Extensions, a2a.AgentExtension{URI: PreviousBuildExtension, Required: true,
		Description: "Required by this build only: requests must declare it in A2A-Extensions. The next build drops it."})
}

// activatesPreviousExtension says whether a request naming
// PreviousBuildExtension gets it echoed as activated: on the previous build,
// and on a later one under dropped-extension-accepted.
func (a *Agent) activatesPreviousExtension() bool {
	return a.opts.PreviousBuild || a.faults.has(faultDroppedExtensionAccepted)
}

// servePreviousBuildREST serves the previous build's second HTTP+JSON
// interface as the first one; a later build does not have it.
func (a *Agent) servePreviousBuildREST(w http.ResponseWriter, r *http.Request) {
	switch {
	case a.opts.PreviousBuild:
		a.serveRESTBinding(w, rerouted(r, RESTPath+strings.TrimPrefix(stripGeneration(r.URL.EscapedPath()), PreviousBuildRESTPath)))
	case a.faults.has(faultDroppedInterfaceServedAsJSONRPC):
		a.previousRESTAsJSONRPC(w, r)
	default:
		a.notFound(w, r)
	}
}

// rerouted is r sent to another (escaped) path of this listener.
func rerouted(r *http.Request, escaped string) *http.Request {
	u := *r.URL
	u.RawPath = escaped
	if p, err := url.PathUnescape(escaped); err == nil {
		u.Path = p
	} else {
		u.Path, u.RawPath = escaped, ""
	}
	out := r.WithContext(r.Context())
	out.URL = &u
	return out
}

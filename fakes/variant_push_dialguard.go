package fakes

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// An agent that guards its pushes at dial time (PushOptions.DialGuard), as
// a2a-go's HTTPPushSender does by default from v2.4.0 (A2A v1.0.1 §13.2
// asks for it): every webhook
// URL is accepted when registered, and a delivery to a loopback, private,
// link-local or unspecified address fails as a transport error before any
// connection is made (and is retried, then dropped). §13.2 asks agents to
// keep such addresses out; doing it at dial time is as correct as refusing
// the config. A harness whose receiver is on 127.0.0.1 sees nothing from it:
// the push specs could not run, and none may fail it.

// guardDial refuses a delivery to an internal address under DialGuard.
// Hosts are not resolved: IP literals and localhost are what a loopback
// harness gives.
func (a *Agent) guardDial(req *http.Request) error {
	if !a.opts.Push.DialGuard {
		return nil
	}
	host := strings.ToLower(strings.TrimSuffix(req.URL.Hostname(), "."))
	internal := host == "localhost" || strings.HasSuffix(host, ".localhost")
	if ip := net.ParseIP(host); ip != nil {
		internal = ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()
	}
	if internal {
		return fmt.Errorf("push to %s refused at dial time: internal address (SSRF guard)", truncate(host, 100))
	}
	return nil
}

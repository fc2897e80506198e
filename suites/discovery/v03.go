package discovery

import (
	"context"
	"net/http"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// v03Replacement says what replaced each v0.3-only card member (A2A v1.0 §4.4).
var v03Replacement = map[string]string{
	"url":                               "supportedInterfaces[0].url",
	"preferredTransport":                "the order of supportedInterfaces",
	"additionalInterfaces":              "supportedInterfaces",
	"protocolVersion":                   "supportedInterfaces[].protocolVersion",
	"supportsAuthenticatedExtendedCard": "capabilities.extendedAgentCard",
	"security":                          "securityRequirements",
	"kind":                              "nothing (v1.0 objects carry no kind)",
}

// DISC-008 (§8.3, §4.4.1): the card a v1.0 client gets carries no v0.3-only
// members; each one found is reported (a warning: the spec allows hybrids).
var _ = suites.Spec("DISC-008", func(ctx context.Context, t *suites.T) {
	resp := fetchV1(ctx, t, nil)
	servedCard(t, resp, "its members")
	var vs []invariants.Violation
	for _, k := range resp.Card.V03Leftovers() {
		vs = append(vs, invariants.Violation{Invariant: "card-v03-members", Where: "card member " + k,
			Expected: "absent from a v1.0 card (replaced by " + v03Replacement[k] + ")",
			Actual:   "present: " + quoteOrAbsent(string(resp.Card.Extra[k]))})
	}
	if len(resp.Card.SupportedInterfaces) > 0 {
		t.Observe("v1.0-interfaces", "present")
	}
	t.Violated(vs...)
})

func errText(err error, status int) string {
	if err != nil {
		return err.Error()
	}
	return http.StatusText(status)
}

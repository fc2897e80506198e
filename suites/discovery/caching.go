package discovery

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// DISC-006 (§8.6; A2A v1.0 §3.6, §8.6): when the card's body depends on
// A2A-Version, every response says Vary: A2A-Version (or Vary: *), so that
// no cache hands a v1.0 client the card meant for a v0.3 one. A card that
// does not vary owes nothing: not applicable.
var _ = suites.Spec("DISC-006", func(ctx context.Context, t *suites.T) {
	with := fetchV1(ctx, t, nil)
	// Two error pages alike would otherwise pass as "the card does not vary".
	servedCard(t, with, "whether it varies by A2A-Version")
	without := fetch(ctx, t, http.Header{})
	if sameJSON(with.Raw, without.Raw) {
		// The requirement is conditional on a body that varies; with none
		// there is nothing to judge, which is not a pass (as DISC-007 says of
		// an absent Last-Modified).
		t.Observe("body-varies", "no: the card is the same with and without A2A-Version")
		t.Observe("vary", strings.Join(with.Header.Values("Vary"), ", "))
		t.NotApplicable("the card body is the same with and without A2A-Version, so no Vary: A2A-Version is owed and there is nothing to judge")
	}
	// Before blaming the header, make sure the card is stable at all.
	if again := fetchV1(ctx, t, nil); !sameJSON(with.Raw, again.Raw) {
		t.Indeterminate("the card changed between two fetches with the same A2A-Version, so whether it varies by that header cannot be told")
	}
	t.Observe("body-varies", "yes: the card differs with and without A2A-Version")
	var vs []invariants.Violation
	for _, r := range []struct {
		name string
		hdr  http.Header
	}{{"with A2A-Version: 1.0", with.Header}, {"without A2A-Version", without.Header}} {
		if !varies(r.hdr.Values("Vary"), "a2a-version") {
			vs = append(vs, invariants.Violation{Invariant: "card-vary", Where: "card response " + r.name,
				Expected: "Vary naming A2A-Version (the body differs by that header)",
				Actual:   "Vary " + quoteOrAbsent(strings.Join(r.hdr.Values("Vary"), ", "))})
		}
	}
	t.Violated(vs...)
})

// varies reports whether a Vary field names the header (case-insensitive
// token) or is "*".
func varies(values []string, header string) bool {
	for _, tok := range headerTokens(values) {
		if tok == header || tok == "*" {
			return true
		}
	}
	return false
}

// clockSkew is how far in the future a Last-Modified may lie before it is
// judged a lie rather than a clock difference between agent and harness.
const clockSkew = 60 * time.Second

// DISC-007 (§8.6.1; RFC 9110 §8.8.2, §13.1.3): Last-Modified is optional;
// when sent it is an HTTP-date not in the future, and revalidation with it
// never keeps a client on a card older than the one served.
var _ = suites.Spec("DISC-007", func(ctx context.Context, t *suites.T) {
	first := fetchV1(ctx, t, nil)
	servedCard(t, first, "its Last-Modified")
	lm := first.Header.Get("Last-Modified")
	if lm == "" {
		// Nothing was sent, so nothing was checked: not a pass.
		t.NotApplicable("the card response carries no Last-Modified (optional, MAY), so there is no date to check")
	}
	t.Observe("last-modified", lm)
	at, err := http.ParseTime(lm)
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "card-last-modified", Where: "card response Last-Modified",
			Expected: `an HTTP-date, e.g. "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110 §5.6.7)`, Actual: quoteOrAbsent(lm)})
	}
	now := time.Now()
	if at.After(now.Add(clockSkew)) {
		t.Violated(invariants.Violation{Invariant: "card-last-modified", Where: "card response Last-Modified",
			Expected: fmt.Sprintf("a date not in the future (harness clock %s, %s skew allowed)", now.UTC().Format(http.TimeFormat), clockSkew),
			Actual:   lm})
	}
	var vs []invariants.Violation
	same := fetchV1(ctx, t, http.Header{"If-Modified-Since": {lm}})
	switch {
	case same.Status == http.StatusNotModified:
		t.Observe("if-modified-since", "304 Not Modified")
	case same.Status == http.StatusOK && sameJSON(same.Raw, first.Raw):
		t.Observe("if-modified-since", "ignored: 200 with the same card")
	case same.Status == http.StatusOK:
		// A different card is fine only if it is newer than the date we sent.
		if later, err := http.ParseTime(same.Header.Get("Last-Modified")); err != nil || !later.After(at) {
			vs = append(vs, invariants.Violation{Invariant: "card-last-modified", Where: "GET with If-Modified-Since: " + lm,
				Expected: "304, or the same card, or a card with a later Last-Modified",
				Actual:   "a different card with Last-Modified " + quoteOrAbsent(same.Header.Get("Last-Modified"))})
		}
	default:
		vs = append(vs, invariants.Violation{Invariant: "card-last-modified", Where: "GET with If-Modified-Since: " + lm,
			Expected: "304 Not Modified or 200 with the card", Actual: fmt.Sprintf("status %d", same.Status)})
	}
	// A date before the card's own must never be answered 304: the client's
	// copy would be older than what is served, and it would keep it.
	earlier := at.Add(-time.Hour).UTC().Format(http.TimeFormat)
	if stale := fetchV1(ctx, t, http.Header{"If-Modified-Since": {earlier}}); stale.Status == http.StatusNotModified {
		vs = append(vs, invariants.Violation{Invariant: "card-last-modified", Where: "GET with If-Modified-Since: " + earlier,
			Expected: "200 with the card (it was modified after that date)", Actual: "304 Not Modified"})
	}
	t.Violated(vs...)
})

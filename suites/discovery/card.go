// Package discovery holds the specs about the Agent Card: where it is served,
// its shape, its caching, version negotiation and whether what it claims holds.
package discovery

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/schemas"
	"github.com/a2a-conform/a2a-conform/suites"
)

// fetch gets the card anew (recorded in the spec's transcript) with extra
// request headers. Specs about the v1.0 card use fetchV1, which asks for it
// with A2A-Version: 1.0 the way a v1.0 client does (A2A v1.0.1 §3.6.1).
func fetch(ctx context.Context, t *suites.T, extra http.Header) *client.CardResponse {
	hdr := t.Env.Headers.Clone()
	for k, v := range extra {
		hdr[k] = v
	}
	resp, err := client.FetchCard(ctx, t.Env.HTTP, t.Env.BaseURL, hdr)
	if err != nil {
		t.Violated(invariants.Violation{
			Invariant: "card-served", Where: "GET " + t.Env.BaseURL + "/.well-known/agent-card.json",
			Expected: "an HTTP response", Actual: err.Error(),
		})
	}
	return resp
}

// DISC-001 (§8.1, §8.2): GET /.well-known/agent-card.json answers 200 with a
// JSON body that decodes as an AgentCard.
var _ = suites.Spec("DISC-001", func(ctx context.Context, t *suites.T) {
	resp := fetchV1(ctx, t, nil)
	where := "GET /.well-known/agent-card.json"
	observeTLS(t, "tls", t.Env.BaseURL)
	var vs []invariants.Violation
	if resp.Status != http.StatusOK {
		vs = append(vs, invariants.Violation{Invariant: "card-served", Where: where,
			Expected: "status 200", Actual: fmt.Sprintf("status %d", resp.Status)})
	}
	if ct := resp.Header.Get("Content-Type"); !isJSON(ct) {
		// No sentence names the card's media type: a SHOULD at most
		// (docs/levels.md). A body that is not a card still fails below.
		t.Should(invariants.Violation{Invariant: "card-served", Where: where + " Content-Type",
			Expected: "application/json (or another JSON media type)", Actual: quoteOrAbsent(ct)})
	}
	if resp.Status == http.StatusOK && resp.DecodeErr != nil {
		vs = append(vs, invariants.Violation{Invariant: "card-served", Where: where + " body",
			Expected: "a JSON object decoding as an AgentCard", Actual: resp.DecodeErr.Error()})
	}
	t.Violated(vs...)
})

// DISC-002 (§4.4.1, §5.7, §8.3): the card validates against the v1.0 schema.
var _ = suites.Spec("DISC-002", func(ctx context.Context, t *suites.T) {
	resp := fetchV1(ctx, t, nil)
	if resp.Status != http.StatusOK {
		t.Violated(invariants.Violation{Invariant: "card-served", Where: "GET /.well-known/agent-card.json",
			Expected: "status 200 with a card to validate", Actual: fmt.Sprintf("status %d", resp.Status)})
	}
	if resp.Card != nil {
		if left := resp.Card.V03Leftovers(); len(left) > 0 {
			t.Observe("v0.3-members", strings.Join(left, ","))
		}
	}
	found, err := schemas.Validate(schemas.AgentCard, resp.Raw)
	if err != nil {
		t.Indeterminate("the harness could not validate the card: %v", err)
	}
	// Where the spec contradicts itself (the spec leaves it open: §5.7 wants a
	// REQUIRED array non-empty, the §8.4.1 example card has "skills": []),
	// every reading passes and the one this card took is recorded.
	var vs []invariants.Violation
	for _, v := range found {
		if why, unsure := schemas.Unsure(schemas.AgentCard, v); unsure {
			t.Observe("reading"+strings.ReplaceAll(v.Where, "/", "."), why+"; this card takes the lenient reading ("+v.Actual+")")
			continue
		}
		vs = append(vs, v)
	}
	t.Violated(vs...)
})

// DISC-003 (§8.6.1): Cache-Control with a max-age.
var _ = suites.Spec("DISC-003", func(ctx context.Context, t *suites.T) {
	resp := fetchV1(ctx, t, nil)
	servedCard(t, resp, "its Cache-Control")
	cc := resp.Header.Values("Cache-Control")
	age, ok := maxAge(cc)
	t.Observe("cache-control", strings.Join(cc, ", "))
	if !ok {
		t.Violated(invariants.Violation{Invariant: "card-cache-control", Where: "card response Cache-Control",
			Expected: "a max-age directive with a number of seconds", Actual: quoteOrAbsent(strings.Join(cc, ", "))})
	}
	t.Observe("max-age", strconv.Itoa(age))
})

// DISC-004 (§8.6.1): an ETag, unchanged over repeated fetches of the same card.
var _ = suites.Spec("DISC-004", func(ctx context.Context, t *suites.T) {
	first := fetchV1(ctx, t, nil)
	servedCard(t, first, "its ETag")
	tag := first.Header.Get("ETag")
	if tag == "" {
		t.Violated(invariants.Violation{Invariant: "card-etag", Where: "card response ETag",
			Expected: "an ETag (derived from the card's version or content)", Actual: "absent"})
	}
	if !etagSyntax.MatchString(tag) {
		t.Violated(invariants.Violation{Invariant: "card-etag", Where: "card response ETag",
			Expected: `an entity-tag: "opaque" or W/"opaque" (RFC 9110 §8.8.3)`, Actual: strconv.Quote(tag)})
	}
	t.Observe("etag", tag)
	t.Observe("etag-strength", map[bool]string{true: "weak", false: "strong"}[strings.HasPrefix(tag, "W/")])
	var vs []invariants.Violation
	for i := 2; i <= 3; i++ {
		again := fetchV1(ctx, t, nil)
		if string(again.Raw) != string(first.Raw) {
			// The card itself changed between fetches: nothing to hold the tag to.
			t.Indeterminate("the card's content changed between fetch 1 and fetch %d; cannot judge ETag stability", i)
		}
		if got := again.Header.Get("ETag"); got != tag {
			vs = append(vs, invariants.Violation{Invariant: "card-etag-stable",
				Where:    fmt.Sprintf("card fetch %d ETag", i),
				Expected: fmt.Sprintf("%s (the card is byte-identical to fetch 1)", tag), Actual: quoteOrAbsent(got)})
		}
	}
	t.Violated(vs...)
})

// DISC-005 (§8.6.1; RFC 9110 §13.1.2): If-None-Match with the current ETag
// gets 304, a weak form of the same tag too (If-None-Match compares weakly),
// and a tag that does not match gets the full card. Only ETag revalidation
// is judged: Last-Modified is optional (MAY) and DISC-007 judges it, so a
// card without an ETag misses this SHOULD however well If-Modified-Since
// works.
var _ = suites.Spec("DISC-005", func(ctx context.Context, t *suites.T) {
	first := fetchV1(ctx, t, nil)
	servedCard(t, first, "revalidating it")
	tag := first.Header.Get("ETag")
	if lm := first.Header.Get("Last-Modified"); lm != "" {
		t.Observe("last-modified", lm+" (judged by DISC-007, not here)")
	}
	if tag == "" {
		t.Violated(invariants.Violation{Invariant: "card-revalidation", Where: "card response ETag",
			Expected: "an ETag to revalidate the card with If-None-Match (§8.6.1 SHOULD)",
			Actual:   "absent"})
	}
	t.Observe("etag", tag)
	opaque := strings.TrimPrefix(tag, "W/")
	checks := []struct {
		header string
		want   int
		why    string
	}{
		{tag, http.StatusNotModified, "the current ETag"},
		{"W/" + opaque, http.StatusNotModified, "the weak form of the current ETag (If-None-Match uses weak comparison)"},
		{`"a2a-conform-no-such-tag", ` + tag, http.StatusNotModified, "a list containing the current ETag"},
		{`"a2a-conform-no-such-tag"`, http.StatusOK, "a tag that does not match"},
	}
	for _, c := range checks {
		resp := fetchV1(ctx, t, http.Header{"If-None-Match": {c.header}})
		if c.want == http.StatusNotModified && resp.Status == http.StatusOK {
			// A full card under a new tag means the card changed since the
			// first fetch (an operator's rotation, say): the 200 is right,
			// and this agent's revalidation cannot be judged from it.
			if now := resp.Header.Get("ETag"); now != "" && strings.TrimPrefix(now, "W/") != opaque {
				t.Indeterminate("the card changed between fetches (ETag %s, then %s), so whether If-None-Match: %s gets 304 cannot be told", tag, now, c.header)
			}
		}
		if resp.Status != c.want {
			t.Record(invariants.Violation{Invariant: "card-revalidation",
				Where:    "GET with If-None-Match: " + c.header + " (" + c.why + ")",
				Expected: fmt.Sprintf("status %d", c.want), Actual: fmt.Sprintf("status %d", resp.Status)})
		}
		if c.want == http.StatusNotModified && resp.Status == http.StatusNotModified && len(resp.Raw) > 0 {
			t.Record(invariants.Violation{Invariant: "card-revalidation",
				Where: "304 response body", Expected: "no body", Actual: fmt.Sprintf("%d bytes", len(resp.Raw))})
		}
	}
})

var etagSyntax = regexp.MustCompile(`^(W/)?"[\x21\x23-\x7e\x80-\xff]*"$`)

// maxAge returns the max-age of a Cache-Control field, if it has a valid one.
func maxAge(values []string) (int, bool) {
	for _, v := range values {
		for _, d := range strings.Split(v, ",") {
			name, val, ok := strings.Cut(strings.TrimSpace(d), "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(name), "max-age") {
				continue
			}
			n, err := strconv.Atoi(strings.Trim(strings.TrimSpace(val), `"`))
			if err == nil && n >= 0 {
				return n, true
			}
		}
	}
	return 0, false
}

func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func quoteOrAbsent(s string) string {
	if s == "" {
		return "absent"
	}
	return strconv.Quote(suites.Cut(s, 200))
}

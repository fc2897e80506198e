package discovery

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// jkuTimeout bounds fetching one key set.
const jkuTimeout = 10 * time.Second

// keySource finds verification keys: key sets fetched from jku URLs (once
// each) and the run's configured JWKS.
type keySource struct {
	t          *suites.T
	configured []jwk
	configErr  error
	fetched    map[string][]jwk
}

func newKeySource(t *suites.T) *keySource {
	ks := &keySource{t: t, fetched: map[string][]jwk{}}
	if len(t.Env.Options.JWKS) > 0 {
		ks.configured, ks.configErr = parseJWKS(t.Env.Options.JWKS)
	}
	return ks
}

// fromJKU fetches a key set without the run's credentials: a jku may name
// another host, and the agent's secrets must not go there.
func (ks *keySource) fromJKU(ctx context.Context, jku string) ([]jwk, error) {
	if keys, ok := ks.fetched[jku]; ok {
		return keys, nil
	}
	ctx, cancel := context.WithTimeout(ctx, jkuTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, jku, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/jwk-set+json, application/json")
	resp, err := ks.t.Env.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching it failed: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKS+1))
	if err != nil {
		return nil, fmt.Errorf("reading it failed: %v", err)
	}
	keys, err := parseJWKS(body)
	if err != nil {
		return nil, err
	}
	ks.fetched[jku] = keys
	return keys, nil
}

// jkuProblem says why a jku must not be fetched: it must be an absolute URL,
// HTTPS unless it is on loopback (keys SHOULD be fetched over HTTPS, §8.4.3).
func jkuProblem(jku string) string {
	u, err := url.Parse(jku)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return "it is not an absolute http(s) URL"
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return "it is plain HTTP to a non-loopback host; the harness fetches signing keys over HTTPS only"
	}
	return ""
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// DISC-017 (§8.4.1–§8.4.3): each signature on the card is a JWS whose
// protected header names alg and kid, and verifies over the canonical card
// (signatures removed, proto defaults stripped, RFC 8785) with a key from its
// jku or the configured JWKS that is not expired.
var _ = suites.Spec("DISC-017", func(ctx context.Context, t *suites.T) {
	resp := fetchV1(ctx, t, nil)
	if resp.Card == nil {
		t.Violated(invariants.Violation{Invariant: "card-served", Where: "GET /.well-known/agent-card.json",
			Expected: "a card whose signatures to check (see DISC-001)", Actual: errText(resp.DecodeErr, resp.Status)})
	}
	sigs := resp.Card.Signatures
	if len(sigs) == 0 {
		t.NotApplicable("the card is not signed; signing is optional (MAY, §8.4)")
	}
	canonical, err := a2a.CanonicalCard(resp.Raw, true)
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "card-signature", Where: "card body",
			Expected: "JSON that has one RFC 8785 canonical form (no duplicate keys, integers within ±2^53)", Actual: err.Error()})
	}
	unstripped, _ := a2a.CanonicalCard(resp.Raw, false)
	ks := newKeySource(t)
	if ks.configErr != nil {
		t.CouldNotRun("the configured JWKS does not parse: %v.", ks.configErr)
	}
	var vs []invariants.Violation
	now := time.Now()
	for i, sig := range sigs {
		here := fmt.Sprintf("signatures[%d]", i)
		bad := func(expected, actual string) {
			vs = append(vs, invariants.Violation{Invariant: "card-signature", Where: here, Expected: expected, Actual: actual})
		}
		jws, hdr, err := parseSignature(sig.Protected, sig.Signature, canonical)
		if err != nil {
			bad("a JWS (RFC 7515): a base64url JSON protected header naming an alg the harness verifies ("+strings.Join(supportedAlgs, ", ")+"), and a base64url signature", err.Error())
			continue
		}
		if hdr.Alg == "" || hdr.Kid == "" {
			bad("a protected header carrying alg and kid (§8.4.2)", fmt.Sprintf("alg %q, kid %q", hdr.Alg, hdr.Kid))
			continue
		}
		if len(hdr.Crit) > 0 {
			bad("no critical header parameters the verifier must understand (RFC 7515 §4.1.11)", "crit "+strings.Join(hdr.Crit, ", "))
			continue
		}
		if hdr.Typ != "" && !strings.EqualFold(hdr.Typ, "JOSE") {
			t.Observe(here+".typ", hdr.Typ+` (SHOULD be "JOSE")`)
		}
		keys, from, ok := ks.keysFor(ctx, t, hdr, bad)
		if !ok {
			continue
		}
		verified, why := false, "no key with kid "+hdr.Kid+" in "+from
		for _, k := range keys {
			if k.Kid != hdr.Kid {
				continue
			}
			pub, err := k.publicKey()
			if err != nil {
				why = "key " + k.Kid + ": " + err.Error()
				continue
			}
			if reason := k.unusable(hdr.Alg, now); reason != "" {
				// An expired key must not verify anything (§8.4.3), even if the maths would.
				why = "key " + k.Kid + " must not be used: " + reason
				continue
			}
			if err := verifySignature(jws, canonical, pub); err != nil {
				why = err.Error()
				if verifySignature(jws, unstripped, pub) == nil {
					why = "it verifies only over the card with its default-valued members kept: the signer skipped §8.4.1's stripping"
				}
				continue
			}
			verified = true
			break
		}
		if !verified {
			bad(fmt.Sprintf("a %s signature by kid %s over the canonical card, verified with a valid key from %s", hdr.Alg, hdr.Kid, from), why)
			continue
		}
		t.Observe(here, fmt.Sprintf("%s, kid %s, verified with a key from %s", hdr.Alg, hdr.Kid, from))
	}
	t.Violated(vs...)
})

// keysFor picks the key set for one signature: its jku, else the configured
// JWKS. A jku the harness will not fetch falls back to the configured set;
// with neither, the spec could not run.
func (ks *keySource) keysFor(ctx context.Context, t *suites.T, hdr protectedHeader, bad func(string, string)) ([]jwk, string, bool) {
	if hdr.Jku != "" {
		if problem := jkuProblem(hdr.Jku); problem == "" {
			keys, err := ks.fromJKU(ctx, hdr.Jku)
			if err != nil {
				bad("a JSON Web Key Set at jku "+hdr.Jku, err.Error())
				return nil, "", false
			}
			return keys, "jku " + hdr.Jku, true
		} else if ks.configured == nil {
			t.CouldNotRun("signature jku %s cannot be used: %s.", hdr.Jku, problem)
		}
	}
	if ks.configured == nil {
		t.CouldNotRun("signature kid %s names no jku and the run has no JWKS.", hdr.Kid)
	}
	return ks.configured, "the configured JWKS", true
}

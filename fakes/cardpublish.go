package fakes

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// What the card says and how it is served beyond its fields: the
// extended-card scheme, required extensions, the signature and its key set,
// Last-Modified, and the discovery faults that bend them.

// JWKSPath is where the agent publishes the key its card signatures verify
// with; every signature's jku names it.
const JWKSPath = "/.well-known/jwks.json"

// ExtendedCardScheme is the securitySchemes entry GetExtendedAgentCard
// authenticates with (spec §13.3: a scheme the public card declares). Any
// Bearer token is accepted: the reference agent has no users, only the rule
// that the call is authenticated.
const ExtendedCardScheme = "a2a-conform-extended-card"

// codeUnauthenticated is the JSON-RPC code of a missing credential. The spec
// assigns none ("JSON-RPC custom error", §3.3.2); a2a-go uses this one, outside
// the JSON-RPC reserved range.
const codeUnauthenticated = -31401

// signingSeed derives the card-signing key. It is public on purpose: the key
// proves the harness's verification path, not the agent's identity, and every
// instance and process derives the same key, so a card signed by one instance
// verifies against the key set any other instance serves.
const signingSeed = "a2a-conform reference agent card-signing key v1"

// cardSigner signs cards with ES256 (spec §8.4.2).
type cardSigner struct {
	key *ecdsa.PrivateKey
	kid string
	jwk map[string]string
}

var signer = sync.OnceValue(func() *cardSigner {
	var key *ecdsa.PrivateKey
	for i := uint32(0); key == nil; i++ {
		// A scalar not below the curve order is refused; the next counter
		// value is tried (probability about 2^-32).
		h := sha256.New()
		h.Write([]byte(signingSeed))
		binary.Write(h, binary.BigEndian, i)
		key, _ = ecdsa.ParseRawPrivateKey(elliptic.P256(), h.Sum(nil))
	}
	pub, err := key.PublicKey.Bytes()
	if err != nil {
		panic("fakes: signing key: " + err.Error())
	}
	b64 := base64.RawURLEncoding.EncodeToString
	x, y := b64(pub[1:33]), b64(pub[33:])
	// kid is the RFC 7638 thumbprint: required members in lexicographic order.
	sum := sha256.Sum256([]byte(`{"crv":"P-256","kty":"EC","x":"` + x + `","y":"` + y + `"}`))
	kid := b64(sum[:])
	return &cardSigner{key: key, kid: kid,
		jwk: map[string]string{"kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": kid, "alg": "ES256", "use": "sig"}}
})

// sign returns one AgentCardSignature over the canonical card. Signatures
// are deterministic (RFC 6979), so the same card always gets the same bytes
// and the same ETag.
func (s *cardSigner) sign(canonical []byte, jku string) (map[string]string, error) {
	hdr, err := json.Marshal(map[string]string{"alg": "ES256", "typ": "JOSE", "kid": s.kid, "jku": jku})
	if err != nil {
		return nil, err
	}
	protected := base64.RawURLEncoding.EncodeToString(hdr)
	digest := sha256.Sum256([]byte(protected + "." + base64.RawURLEncoding.EncodeToString(canonical)))
	der, err := s.key.Sign(nil, digest[:], crypto.SHA256)
	if err != nil {
		return nil, err
	}
	var rs struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &rs); err != nil {
		return nil, err
	}
	// JWS wants R||S, each left-padded to 32 bytes (RFC 7518 §3.4), not DER.
	sig := make([]byte, 64)
	rs.R.FillBytes(sig[:32])
	rs.S.FillBytes(sig[32:])
	return map[string]string{"protected": protected, "signature": base64.RawURLEncoding.EncodeToString(sig)}, nil
}

// adjustCard adds what the options and the discovery faults change in the
// public card, before it is signed.
func (a *Agent) adjustCard(card *a2a.AgentCard) {
	caps := &card.Capabilities
	f := false
	if a.opts.ExtendedCard != ExtendedCardAbsent {
		if card.SecuritySchemes == nil {
			card.SecuritySchemes = map[string]a2a.SecurityScheme{}
		}
		card.SecuritySchemes[ExtendedCardScheme] = a2a.SecurityScheme{HTTPAuth: &a2a.HTTPAuthSecurityScheme{
			Scheme: "Bearer", Description: "GetExtendedAgentCard only; the reference agent accepts any bearer token."}}
	}
	if uri := a.opts.RequiredExtension; uri != "" {
		caps.Extensions = append(caps.Extensions, a2a.AgentExtension{URI: uri, Required: true,
			Description: "Required by this agent's configuration: requests must declare it in A2A-Extensions."})
	}
	if a.faults.has(faultRequiredExtensionNotEnforced) {
		caps.Extensions = append(caps.Extensions, a2a.AgentExtension{URI: unenforcedExtensionURI, Required: true,
			Description: "Marked required, but the agent never checks for it (fault)."})
	}
	if a.faults.has(faultStreamingServedUnadvertised) {
		caps.Streaming = &f
	}
	if a.faults.has(faultPushServedUnadvertised) {
		caps.PushNotifications = &f
	}
	if a.faults.has(faultExtendedCardServedUnadvertised) {
		caps.ExtendedAgentCard = nil
		delete(card.SecuritySchemes, ExtendedCardScheme)
		if len(card.SecuritySchemes) == 0 {
			card.SecuritySchemes = nil
		}
	}
	if a.faults.has(faultCardWrongBinding) && len(card.SupportedInterfaces) >= 2 {
		in := card.SupportedInterfaces
		in[0].URL, in[1].URL = in[1].URL, in[0].URL
	}
}

// publishCard turns the card document into the bytes served: members a
// hybrid build adds, then the signature over the canonical card (with a jku
// on the same origin), then what a rewriting proxy changes after signing.
func (a *Agent) publishCard(base string, doc []byte) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return doc
	}
	if a.faults.has(faultHybridCard) {
		var first struct {
			SupportedInterfaces []a2a.AgentInterface `json:"supportedInterfaces"`
		}
		json.Unmarshal(doc, &first)
		if len(first.SupportedInterfaces) > 0 {
			m["url"], _ = json.Marshal(first.SupportedInterfaces[0].URL)
			m["preferredTransport"], _ = json.Marshal(first.SupportedInterfaces[0].ProtocolBinding)
		}
		m["protocolVersion"] = json.RawMessage(`"0.3.0"`)
	}
	unsigned, _ := json.Marshal(m)
	canonical, err := a2a.CanonicalCard(unsigned, true)
	if err != nil {
		a.log.Error("canonicalising the card", "err", err)
		return unsigned
	}
	sig, err := signer().sign(canonical, base+JWKSPath)
	if err != nil {
		a.log.Error("signing the card", "err", err)
		return unsigned
	}
	m["signatures"], _ = json.Marshal([]map[string]string{sig})
	if a.faults.has(faultCardSignatureStale) {
		var desc string
		json.Unmarshal(m["description"], &desc)
		m["description"], _ = json.Marshal(desc + " Served by edge cache.")
	}
	out, _ := json.Marshal(m)
	return out
}

// serveJWKS publishes the card-signing key (RFC 7517 key set).
func (a *Agent) serveJWKS(w http.ResponseWriter, r *http.Request) {
	if !onlyGET(w, r, "the key set is read with GET") {
		return
	}
	body, _ := json.Marshal(map[string]any{"keys": []map[string]string{signer().jwk}})
	w.Header().Set("Cache-Control", fmt.Sprintf("max-age=%d", max(int(a.opts.CardMaxAge.Seconds()), 0)))
	writeJSON(w, http.StatusOK, "application/jwk-set+json", body)
}

// servesV03Card says whether this request gets the v0.3-shaped card.
func (a *Agent) servesV03Card(r *http.Request) bool {
	return a.faults.has(faultV03Card) ||
		(a.faults.has(faultCardVariesWithoutVary) && r.Header.Get("A2A-Version") == "")
}

// cardModified is when the card served now was last modified: when any
// instance sharing the store first published its generation, so that every
// instance serving the same card gives the same date, however long after
// the others it started (RFC 9110 §8.8.2: the date the representation was
// last modified, not when the process began). With
// last-modified-per-instance, and when the store cannot say, it is when the
// generation began on this instance.
func (a *Agent) cardModified(ctx context.Context) time.Time {
	st := a.cardSnapshot()
	if a.faults.has(faultLastModifiedPerInstance) {
		return st.modAt
	}
	if !st.pubAt.IsZero() {
		return st.pubAt
	}
	at, err := a.st.CardPublished(ctx, st.gen, time.Now())
	if err != nil {
		a.log.Warn("reading the card generation's first publication; Last-Modified is this instance's", "generation", st.gen, "err", err)
		return st.modAt
	}
	a.cardMu.Lock()
	if a.card.gen == st.gen && a.card.pubAt.IsZero() {
		a.card.pubAt = at
	}
	a.cardMu.Unlock()
	return at
}

// lastModified is the card's Last-Modified header.
func (a *Agent) lastModified(ctx context.Context) string {
	at := a.cardModified(ctx).UTC()
	if a.faults.has(faultLastModifiedInvalid) {
		return at.Format(time.RFC3339)
	}
	return at.Format(http.TimeFormat)
}

// notModifiedSince evaluates If-Modified-Since (RFC 9110 §13.1.3), which a
// recipient ignores when If-None-Match is present. A date that another
// generation's card was also first published at never gets 304: the client
// may hold that card (two generations within one second share a date).
func (a *Agent) notModifiedSince(ctx context.Context, r *http.Request) bool {
	if len(r.Header.Values("If-None-Match")) > 0 {
		return false
	}
	since, err := http.ParseTime(r.Header.Get("If-Modified-Since"))
	if err != nil {
		return false
	}
	if a.cardModified(ctx).Truncate(time.Second).After(since) {
		return false
	}
	if a.faults.has(faultLastModifiedPerInstance) {
		return true
	}
	shared, err := a.st.CardDateShared(ctx, a.Generation(), since)
	return err == nil && !shared
}

// serveNotJSON answers the card path the way a web app's catch-all route
// does (card-not-json).
func serveNotJSON(w http.ResponseWriter) {
	body := []byte("<!doctype html><html><head><title>Agent</title></head><body><div id=\"app\"></div></body></html>\n")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// extendedCardAuth requires a Bearer credential on GetExtendedAgentCard
// (spec §13.3: the operation MUST require authentication).
func (a *Agent) extendedCardAuth(r *http.Request) *opError {
	if a.faults.has(faultExtendedCardNoAuth) || a.faults.has(faultExtendedCardServedUnadvertised) {
		return nil
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(token) != "" {
		return nil
	}
	return &opError{code: codeUnauthenticated, httpStatus: http.StatusUnauthorized, grpcStatus: "UNAUTHENTICATED",
		message: "GetExtendedAgentCard requires authentication: send Authorization: Bearer <token> (scheme " + ExtendedCardScheme + ")"}
}

// challenge adds WWW-Authenticate to a 401 (spec §3.3.2 SHOULD: say which
// scheme is required).
func challenge(w http.ResponseWriter, oe *opError) {
	if oe != nil && oe.httpStatus == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="a2a-conform"`)
	}
}

// checkServiceParams applies the request's service parameters (spec §3.2.6):
// A2A-Version, then A2A-Extensions.
func (a *Agent) checkServiceParams(r *http.Request) *opError {
	v := strings.TrimSpace(r.Header.Get("A2A-Version"))
	if v == "" {
		v = strings.TrimSpace(r.URL.Query().Get("A2A-Version"))
	}
	if v == "" && a.faults.has(faultMissingVersionCrash) {
		return errInternal("runtime error: invalid memory address or nil pointer dereference (A2A-Version)")
	}
	if strings.Count(v, ".") == 2 && a.faults.has(faultVersionPatchRejected) {
		return errVersion(truncate(v, 32))
	}
	if oe := a.checkVersion(r); oe != nil {
		return oe
	}
	return a.checkExtensions(r)
}

// checkExtensions refuses a request that does not declare a required
// extension (spec §3.3.4, ExtensionSupportRequiredError): the configured one,
// and a previous build's own; extensions the agent does not know are ignored
// (§4.6 SHOULD).
func (a *Agent) checkExtensions(r *http.Request) *opError {
	declared := map[string]bool{}
	for _, v := range r.Header.Values("A2A-Extensions") {
		for _, uri := range strings.Split(v, ",") {
			if uri = strings.TrimSpace(uri); uri != "" {
				declared[uri] = true
			}
		}
	}
	if a.faults.has(faultExtensionsHeaderRejected) {
		for uri := range declared {
			if uri != directive.URI && uri != a.opts.RequiredExtension && (uri != PreviousBuildExtension || !a.opts.PreviousBuild) {
				return errInvalidRequest("A2A-Extensions names an extension this agent does not support: %q", truncate(uri, 200))
			}
		}
	}
	if req := a.opts.RequiredExtension; req != "" && !declared[req] {
		return a2aError(a2a.ErrExtensionSupportRequired,
			fmt.Sprintf("This agent requires extension %s: declare it in A2A-Extensions", req),
			map[string]string{"extensions": req})
	}
	if a.opts.PreviousBuild && !declared[PreviousBuildExtension] {
		return a2aError(a2a.ErrExtensionSupportRequired,
			fmt.Sprintf("This build requires extension %s: declare it in A2A-Extensions", PreviousBuildExtension),
			map[string]string{"extensions": PreviousBuildExtension})
	}
	return nil
}

// SignCard re-signs a card document that was changed after the agent signed
// it (internal/clientrun's stage rewrites the card's interfaces for each
// client case): its signatures member is replaced by one signature of the
// reference agent's key over the changed card, its jku naming jku. Every
// instance serves that key at JWKSPath.
func SignCard(doc []byte, jku string) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, err
	}
	delete(m, "signatures")
	unsigned, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	canonical, err := a2a.CanonicalCard(unsigned, true)
	if err != nil {
		return nil, err
	}
	sig, err := signer().sign(canonical, jku)
	if err != nil {
		return nil, err
	}
	m["signatures"], _ = json.Marshal([]map[string]string{sig})
	return json.Marshal(m)
}

package discovery

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// JSON Web Keys (RFC 7517/7518) and JWS verification for card signatures
// (spec §8.4). These parsers read what an agent supplies, so the JWS and the
// keys are parsed and verified by go-jose (github.com/go-jose/go-jose/v4);
// what is here is the harness's policy on top: which algs and keys it
// accepts, when a key must not be used (§8.4.3), and sizes bounded. Every
// malformed value is an error, never a panic.

const (
	// maxJWKS bounds a key set read from a jku or the config.
	maxJWKS = 256 << 10
	// maxKeys bounds the keys in one set.
	maxKeys = 100
	// minRSABits is the smallest RSA modulus accepted (RFC 7518 §3.3).
	minRSABits = 2048
)

// jwk is one JSON Web Key as far as verification needs it. Exp is not an RFC
// 7517 member but some publishers mark a key's end of life with it (a
// NumericDate); x5c's first certificate gives a validity window too.
type jwk struct {
	Kty    string   `json:"kty"`
	Crv    string   `json:"crv"`
	X      string   `json:"x"`
	Y      string   `json:"y"`
	N      string   `json:"n"`
	E      string   `json:"e"`
	Kid    string   `json:"kid"`
	Alg    string   `json:"alg"`
	Use    string   `json:"use"`
	KeyOps []string `json:"key_ops"`
	Exp    *float64 `json:"exp"`
	X5c    []string `json:"x5c"`
}

// parseJWKS reads {"keys":[…]} (or a single key object).
func parseJWKS(b []byte) ([]jwk, error) {
	if len(b) > maxJWKS {
		return nil, fmt.Errorf("key set larger than %d bytes", maxJWKS)
	}
	var set struct {
		Keys []jwk `json:"keys"`
	}
	if err := json.Unmarshal(b, &set); err != nil {
		return nil, fmt.Errorf("not a JSON Web Key Set: %v", err)
	}
	if set.Keys == nil {
		var one jwk
		if err := json.Unmarshal(b, &one); err != nil || one.Kty == "" {
			return nil, errors.New(`not a JSON Web Key Set: no "keys" member`)
		}
		set.Keys = []jwk{one}
	}
	if len(set.Keys) > maxKeys {
		return nil, fmt.Errorf("%d keys, more than the %d the harness reads", len(set.Keys), maxKeys)
	}
	return set.Keys, nil
}

func b64url(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// publicKey builds the key a JWK describes. go-jose parses the members
// (RFC 7517/7518: base64url, a point on its curve, an x5c chain matching
// the key); the harness then refuses what it does not verify with: a key
// type other than EC, RSA or Ed25519, an RSA modulus under 2048 bits, a
// private key's public half is used.
func (k jwk) publicKey() (crypto.PublicKey, error) {
	raw, err := json.Marshal(k)
	if err != nil {
		return nil, err
	}
	var jk jose.JSONWebKey
	if err := jk.UnmarshalJSON(raw); err != nil {
		return nil, fmt.Errorf("%s key: %v", orUnknown(k.Kty), strings.TrimPrefix(err.Error(), "go-jose/go-jose: "))
	}
	if !jk.IsPublic() {
		jk = jk.Public()
	}
	switch pub := jk.Key.(type) {
	case *ecdsa.PublicKey:
		if curve, _ := curveOf(k.Crv); curve == nil {
			return nil, fmt.Errorf("EC curve %q is not P-256, P-384 or P-521", k.Crv)
		}
		return pub, nil
	case *rsa.PublicKey:
		if pub.N.BitLen() < minRSABits {
			return nil, fmt.Errorf("RSA key of %d bits: at least %d required (RFC 7518 §3.3)", pub.N.BitLen(), minRSABits)
		}
		if pub.E < 3 || pub.E%2 == 0 {
			return nil, fmt.Errorf("RSA exponent %d is not valid", pub.E)
		}
		return pub, nil
	case ed25519.PublicKey:
		return pub, nil
	}
	return nil, fmt.Errorf("key type %q is not EC, RSA or OKP (Ed25519)", k.Kty)
}

func orUnknown(s string) string {
	if s == "" {
		return "untyped"
	}
	return s
}

func curveOf(crv string) (elliptic.Curve, int) {
	switch crv {
	case "P-256":
		return elliptic.P256(), 32
	case "P-384":
		return elliptic.P384(), 48
	case "P-521":
		return elliptic.P521(), 66
	}
	return nil, 0
}

// unusable says why a key must not verify anything now: expired, not yet
// valid, or marked for another use or algorithm. "" when it may be used.
func (k jwk) unusable(alg string, now time.Time) string {
	if k.Exp != nil && !now.Before(time.Unix(int64(*k.Exp), 0)) {
		return "the key expired at " + time.Unix(int64(*k.Exp), 0).UTC().Format(time.RFC3339) + " (its exp member)"
	}
	if len(k.X5c) > 0 {
		der, err := base64.StdEncoding.DecodeString(k.X5c[0])
		if err != nil {
			return "its x5c certificate is not base64"
		}
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			return "its x5c certificate does not parse: " + err.Error()
		}
		if now.After(cert.NotAfter) {
			return "its certificate expired at " + cert.NotAfter.UTC().Format(time.RFC3339)
		}
		if now.Before(cert.NotBefore) {
			return "its certificate is not valid before " + cert.NotBefore.UTC().Format(time.RFC3339)
		}
	}
	if k.Use != "" && k.Use != "sig" {
		return fmt.Sprintf("the key's use is %q, not \"sig\"", k.Use)
	}
	if len(k.KeyOps) > 0 && !contains(k.KeyOps, "verify") {
		return "the key's key_ops do not include verify"
	}
	if k.Alg != "" && k.Alg != alg {
		return fmt.Sprintf("the key is for alg %s, the signature says %s", k.Alg, alg)
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// supportedAlgs are the JWS algorithms the harness verifies ("Ed25519" is
// RFC 9864's fully-specified name for EdDSA over Ed25519).
var supportedAlgs = []string{"ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA", "Ed25519"}

// parseAlgs are the algs go-jose lets through parsing: the supported ones,
// and none at all, so that a header without alg gets the harness's own
// words (§8.4.2 wants alg and kid) rather than a parse error.
var parseAlgs = func() []jose.SignatureAlgorithm {
	out := []jose.SignatureAlgorithm{""}
	for _, a := range supportedAlgs {
		out = append(out, jose.SignatureAlgorithm(a))
	}
	return out
}()

// protectedHeader is what DISC-017 reads of a card signature's JWS
// protected header.
type protectedHeader struct {
	Alg, Kid, Typ, Jku string
	Crit               []string
}

// parseSignature reads one AgentCardSignature (the flattened JWS JSON
// serialization without its payload, which is the canonical card: a
// detached payload, RFC 7515 Appendix F) with go-jose.
func parseSignature(protected, signature string, payload []byte) (*jose.JSONWebSignature, protectedHeader, error) {
	var h protectedHeader
	jws, err := jose.ParseDetached(protected+".."+signature, payload, parseAlgs)
	if err != nil {
		return nil, h, errors.New(strings.TrimPrefix(err.Error(), "go-jose/go-jose: "))
	}
	if len(jws.Signatures) != 1 {
		return nil, h, fmt.Errorf("%d signatures in one JWS", len(jws.Signatures))
	}
	ph := jws.Signatures[0].Protected
	h.Alg, h.Kid = ph.Algorithm, ph.KeyID
	var ok bool
	if v, set := ph.ExtraHeaders["typ"]; set {
		if h.Typ, ok = v.(string); !ok {
			return nil, h, errors.New("typ is not a string")
		}
	}
	if v, set := ph.ExtraHeaders["jku"]; set {
		if h.Jku, ok = v.(string); !ok {
			return nil, h, errors.New("jku is not a string")
		}
	}
	if v, set := ph.ExtraHeaders["crit"]; set {
		list, _ := v.([]any)
		for _, c := range list {
			name, _ := c.(string)
			h.Crit = append(h.Crit, name)
		}
		if len(h.Crit) == 0 {
			h.Crit = []string{fmt.Sprint(v)}
		}
	}
	return jws, h, nil
}

// verifySignature checks jws over payload with key, saying in the
// harness's words why not: an alg it does not verify, an alg the key cannot
// make, or a signature that does not verify.
func verifySignature(jws *jose.JSONWebSignature, payload []byte, key crypto.PublicKey) error {
	alg := jws.Signatures[0].Protected.Algorithm
	if !contains(supportedAlgs, alg) {
		return fmt.Errorf("alg %q is not one the harness verifies (%s)", alg, strings.Join(supportedAlgs, ", "))
	}
	var verifier any = key
	switch pub := key.(type) {
	case ed25519.PublicKey:
		if alg != "EdDSA" && alg != "Ed25519" {
			return fmt.Errorf("alg %s needs another key than the key set's Ed25519 key", alg)
		}
		verifier = ed25519Verifier(pub)
	case *ecdsa.PublicKey:
		if alg[:2] != "ES" {
			return fmt.Errorf("alg %s needs another key than the key set's EC key", alg)
		}
		if want := map[string]string{"ES256": "P-256", "ES384": "P-384", "ES512": "P-521"}[alg]; pub.Curve.Params().Name != want {
			return fmt.Errorf("alg %s needs curve %s, the key's curve is %s", alg, want, pub.Curve.Params().Name)
		}
	case *rsa.PublicKey:
		if alg[:2] != "RS" && alg[:2] != "PS" {
			return fmt.Errorf("alg %s needs an EC or Ed25519 key, the key set has an RSA key", alg)
		}
	}
	if alg[:2] == "ES" {
		if _, ok := key.(*ecdsa.PublicKey); !ok {
			return fmt.Errorf("alg %s needs an EC key, the key set has %T", alg, key)
		}
	}
	if err := jws.DetachedVerify(payload, verifier); err != nil {
		if errors.Is(err, jose.ErrCryptoFailure) {
			return errors.New("the signature does not verify")
		}
		return fmt.Errorf("the signature does not verify: %s", strings.TrimPrefix(err.Error(), "go-jose/go-jose: "))
	}
	return nil
}

// ed25519Verifier lets go-jose verify an Ed25519 signature under either of
// its JWS names: go-jose knows "EdDSA" only, RFC 9864 adds "Ed25519".
type ed25519Verifier ed25519.PublicKey

func (v ed25519Verifier) VerifyPayload(payload, signature []byte, alg jose.SignatureAlgorithm) error {
	if alg != jose.EdDSA && alg != "Ed25519" {
		return jose.ErrUnsupportedAlgorithm
	}
	if !ed25519.Verify(ed25519.PublicKey(v), payload, signature) {
		return jose.ErrCryptoFailure
	}
	return nil
}

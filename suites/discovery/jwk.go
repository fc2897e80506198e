package discovery

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"math/big"
	"strings"
	"time"
)

// JSON Web Keys (RFC 7517/7518) and JWS verification for card signatures
// (spec §8.4), standard library only. Everything here is agent-supplied:
// sizes are bounded and every malformed value is an error, never a panic.

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

// publicKey builds the key a JWK describes, checking that it is a valid
// point or a large enough modulus.
func (k jwk) publicKey() (crypto.PublicKey, error) {
	switch k.Kty {
	case "EC":
		curve, size := curveOf(k.Crv)
		if curve == nil {
			return nil, fmt.Errorf("EC curve %q is not P-256, P-384 or P-521", k.Crv)
		}
		x, errX := b64url(k.X)
		y, errY := b64url(k.Y)
		if errX != nil || errY != nil || len(x) != size || len(y) != size {
			return nil, fmt.Errorf("EC key: x and y must be %d-byte base64url values", size)
		}
		return ecdsa.ParseUncompressedPublicKey(curve, append(append([]byte{4}, x...), y...))
	case "RSA":
		n, errN := b64url(k.N)
		e, errE := b64url(k.E)
		if errN != nil || errE != nil || len(e) == 0 || len(e) > 4 {
			return nil, errors.New("RSA key: n and e must be base64url values (e at most 4 bytes)")
		}
		pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		if pub.N.BitLen() < minRSABits {
			return nil, fmt.Errorf("RSA key of %d bits: at least %d required (RFC 7518 §3.3)", pub.N.BitLen(), minRSABits)
		}
		if pub.E < 3 || pub.E%2 == 0 {
			return nil, fmt.Errorf("RSA exponent %d is not valid", pub.E)
		}
		return pub, nil
	case "OKP":
		x, err := b64url(k.X)
		if k.Crv != "Ed25519" || err != nil || len(x) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("OKP key: only Ed25519 with a %d-byte x is supported", ed25519.PublicKeySize)
		}
		return ed25519.PublicKey(x), nil
	}
	return nil, fmt.Errorf("key type %q is not EC, RSA or OKP", k.Kty)
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

// supportedAlgs are the JWS algorithms the harness verifies.
var supportedAlgs = []string{"ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA", "Ed25519"}

func hashFor(alg string) (crypto.Hash, func() hash.Hash) {
	switch alg[len(alg)-3:] {
	case "256":
		return crypto.SHA256, sha256.New
	case "384":
		return crypto.SHA384, sha512.New384
	case "512":
		return crypto.SHA512, sha512.New
	}
	return 0, nil
}

// verifyJWS checks a JWS signature over input with the key.
func verifyJWS(alg string, key crypto.PublicKey, input, sig []byte) error {
	if !contains(supportedAlgs, alg) {
		return fmt.Errorf("alg %q is not one the harness verifies (%s)", alg, strings.Join(supportedAlgs, ", "))
	}
	if alg == "EdDSA" || alg == "Ed25519" {
		pub, ok := key.(ed25519.PublicKey)
		if !ok {
			return fmt.Errorf("alg %s needs an Ed25519 key, the key set has %T", alg, key)
		}
		if !ed25519.Verify(pub, input, sig) {
			return errors.New("the signature does not verify")
		}
		return nil
	}
	h, newHash := hashFor(alg)
	hh := newHash()
	hh.Write(input)
	digest := hh.Sum(nil)
	switch alg[:2] {
	case "ES":
		pub, ok := key.(*ecdsa.PublicKey)
		if !ok {
			return fmt.Errorf("alg %s needs an EC key, the key set has %T", alg, key)
		}
		size := (pub.Curve.Params().BitSize + 7) / 8
		if want := map[string]int{"ES256": 32, "ES384": 48, "ES512": 66}[alg]; size != want {
			return fmt.Errorf("alg %s needs curve size %d bytes, the key's curve is %s", alg, want, pub.Curve.Params().Name)
		}
		if len(sig) != 2*size {
			return fmt.Errorf("an %s signature is %d bytes (R||S), got %d", alg, 2*size, len(sig))
		}
		r, s := new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:])
		if !ecdsa.Verify(pub, digest, r, s) {
			return errors.New("the signature does not verify")
		}
		return nil
	case "RS", "PS":
		pub, ok := key.(*rsa.PublicKey)
		if !ok {
			return fmt.Errorf("alg %s needs an RSA key, the key set has %T", alg, key)
		}
		var err error
		if alg[:2] == "RS" {
			err = rsa.VerifyPKCS1v15(pub, h, digest, sig)
		} else {
			err = rsa.VerifyPSS(pub, h, digest, sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
		}
		if err != nil {
			return errors.New("the signature does not verify")
		}
		return nil
	}
	return fmt.Errorf("alg %q is not supported", alg)
}

// protectedHeader is the decoded JWS protected header of a card signature.
type protectedHeader struct {
	Alg  string   `json:"alg"`
	Kid  string   `json:"kid"`
	Typ  string   `json:"typ"`
	Jku  string   `json:"jku"`
	Crit []string `json:"crit"`
}

func decodeProtected(s string) (protectedHeader, error) {
	var h protectedHeader
	raw, err := b64url(s)
	if err != nil {
		return h, fmt.Errorf("protected is not base64url: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&h); err != nil {
		return h, fmt.Errorf("protected header is not a JSON object: %v", err)
	}
	return h, nil
}

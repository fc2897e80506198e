package discovery

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

var enc = base64.RawURLEncoding.EncodeToString

// jwkOf describes a public key as a JWK, the way a publisher would.
func jwkOf(t *testing.T, pub crypto.PublicKey, kid string) jwk {
	t.Helper()
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		b, err := k.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		size := (len(b) - 1) / 2
		return jwk{Kty: "EC", Crv: k.Curve.Params().Name, X: enc(b[1 : 1+size]), Y: enc(b[1+size:]), Kid: kid}
	case *rsa.PublicKey:
		return jwk{Kty: "RSA", N: enc(k.N.Bytes()), E: enc(big.NewInt(int64(k.E)).Bytes()), Kid: kid}
	case ed25519.PublicKey:
		return jwk{Kty: "OKP", Crv: "Ed25519", X: enc(k), Kid: kid}
	}
	t.Fatalf("key type %T", pub)
	return jwk{}
}

// signJWS produces a JWS signature the way an independent signer would.
func signJWS(t *testing.T, alg string, key crypto.Signer, input []byte) []byte {
	t.Helper()
	if alg == "EdDSA" || alg == "Ed25519" {
		return ed25519.Sign(key.(ed25519.PrivateKey), input)
	}
	h := map[string]crypto.Hash{"256": crypto.SHA256, "384": crypto.SHA384, "512": crypto.SHA512}[alg[len(alg)-3:]]
	hh := h.New()
	hh.Write(input)
	digest := hh.Sum(nil)
	switch alg[:2] {
	case "ES":
		k := key.(*ecdsa.PrivateKey)
		r, s, err := ecdsa.Sign(rand.Reader, k, digest)
		if err != nil {
			t.Fatal(err)
		}
		size := (k.Curve.Params().BitSize + 7) / 8
		out := make([]byte, 2*size)
		r.FillBytes(out[:size])
		s.FillBytes(out[size:])
		return out
	case "PS":
		sig, err := rsa.SignPSS(rand.Reader, key.(*rsa.PrivateKey), h, digest, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	sig, err := rsa.SignPKCS1v15(rand.Reader, key.(*rsa.PrivateKey), h, digest)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

func TestVerifyJWSPerAlgorithm(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	p521, _ := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	payload := []byte(`{"name":"card"}`)
	// signed signs payload under alg the way an independent signer would,
	// and parses the result as DISC-017 does.
	signed := func(t *testing.T, alg string, key crypto.Signer) *jose.JSONWebSignature {
		t.Helper()
		protected := enc([]byte(`{"alg":"` + alg + `","kid":"k"}`))
		sig := signJWS(t, alg, key, []byte(protected+"."+enc(payload)))
		jws, h, err := parseSignature(protected, enc(sig), payload)
		if err != nil || h.Alg != alg || h.Kid != "k" {
			t.Fatalf("parse: %+v %v", h, err)
		}
		return jws
	}
	for _, tc := range []struct {
		alg string
		key crypto.Signer
	}{{"ES256", p256}, {"ES384", p384}, {"ES512", p521}, {"RS256", rsaKey}, {"RS512", rsaKey}, {"PS256", rsaKey}, {"EdDSA", edKey}, {"Ed25519", edKey}} {
		t.Run(tc.alg, func(t *testing.T) {
			jws := signed(t, tc.alg, tc.key)
			pub, err := jwkOf(t, tc.key.Public(), "k").publicKey()
			if err != nil {
				t.Fatal(err)
			}
			if err := verifySignature(jws, payload, pub); err != nil {
				t.Fatalf("a valid signature: %v", err)
			}
			altered := append([]byte{}, payload...)
			altered[len(altered)-2] ^= 1
			if err := verifySignature(jws, altered, pub); err == nil {
				t.Fatal("a signature over other bytes verified")
			}
		})
	}
	es := signed(t, "ES256", p256)
	if err := verifySignature(es, payload, mustPub(t, rsaKey)); err == nil || !strings.Contains(err.Error(), "RSA key") {
		t.Fatalf("alg/key mismatch: %v", err)
	}
	if err := verifySignature(es, payload, mustPub(t, p384)); err == nil {
		t.Fatal("ES256 over a P-384 key accepted")
	}
	if _, _, err := parseSignature(enc([]byte(`{"alg":"none","kid":"k"}`)), "", payload); err == nil {
		t.Fatal(`alg "none" accepted`)
	}
	if _, _, err := parseSignature(enc([]byte(`{"alg":"HS256","kid":"k"}`)), enc([]byte("mac")), payload); err == nil {
		t.Fatal(`alg "HS256" accepted`)
	}
}

func mustPub(t *testing.T, k crypto.Signer) crypto.PublicKey {
	pub, err := jwkOf(t, k.Public(), "k").publicKey()
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

func TestJWKRefusesBadKeys(t *testing.T) {
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	offCurve := jwkOf(t, &p256.PublicKey, "k")
	offCurve.Y = offCurve.X
	for name, k := range map[string]jwk{
		"small RSA":     jwkOf(t, &small.PublicKey, "k"),
		"off the curve": offCurve,
		"unknown kty":   {Kty: "oct"},
		"bad base64":    {Kty: "EC", Crv: "P-256", X: "!!", Y: "!!"},
		"unknown curve": {Kty: "EC", Crv: "secp256k1"},
		"X25519":        {Kty: "OKP", Crv: "X25519", X: enc(make([]byte, 32))},
	} {
		if _, err := k.publicKey(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestJWKUnusable(t *testing.T) {
	now := time.Now()
	past := float64(now.Add(-time.Hour).Unix())
	future := float64(now.Add(time.Hour).Unix())
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	certDER := func(notBefore, notAfter time.Time) string {
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "card signer"},
			NotBefore: notBefore, NotAfter: notAfter}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			t.Fatal(err)
		}
		return base64.StdEncoding.EncodeToString(der)
	}
	for _, tc := range []struct {
		name string
		k    jwk
		want string
	}{
		{"fine", jwk{Use: "sig", Alg: "ES256", KeyOps: []string{"verify"}, Exp: &future}, ""},
		{"expired", jwk{Exp: &past}, "expired"},
		{"certificate expired", jwk{X5c: []string{certDER(now.Add(-2*time.Hour), now.Add(-time.Hour))}}, "certificate expired"},
		{"certificate valid", jwk{X5c: []string{certDER(now.Add(-time.Hour), now.Add(time.Hour))}}, ""},
		{"certificate not yet valid", jwk{X5c: []string{certDER(now.Add(time.Hour), now.Add(2*time.Hour))}}, "not valid before"},
		{"encryption key", jwk{Use: "enc"}, `"enc"`},
		{"other alg", jwk{Alg: "RS256"}, "RS256"},
		{"no verify op", jwk{KeyOps: []string{"sign"}}, "key_ops"},
	} {
		got := tc.k.unusable("ES256", now)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: unusable = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestParseJWKSAndHeaders(t *testing.T) {
	one := `{"kty":"EC","crv":"P-256","x":"a","y":"b","kid":"k1"}`
	if keys, err := parseJWKS([]byte(one)); err != nil || len(keys) != 1 || keys[0].Kid != "k1" {
		t.Fatalf("single key: %v %v", keys, err)
	}
	if keys, err := parseJWKS([]byte(`{"keys":[` + one + `,` + one + `]}`)); err != nil || len(keys) != 2 {
		t.Fatalf("set: %v %v", keys, err)
	}
	many, _ := json.Marshal(map[string]any{"keys": make([]jwk, maxKeys+1)})
	for name, in := range map[string]string{"not JSON": "<html>", "no keys": `{"a":1}`, "too many": string(many),
		"too large": `{"keys":[` + strings.Repeat(" ", maxJWKS) + `]}`} {
		if _, err := parseJWKS([]byte(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	_, h, err := parseSignature(enc([]byte(`{"alg":"ES256","kid":"k","typ":"JOSE","jku":"https://a/jwks","crit":["exp"]}`)), enc([]byte("sig")), []byte("{}"))
	if err != nil || h.Alg != "ES256" || h.Kid != "k" || h.Jku != "https://a/jwks" || h.Typ != "JOSE" || len(h.Crit) != 1 || h.Crit[0] != "exp" {
		t.Fatalf("header: %+v %v", h, err)
	}
	if _, h, err := parseSignature(enc([]byte(`{"kid":"k"}`)), enc([]byte("sig")), []byte("{}")); err != nil || h.Alg != "" {
		t.Fatalf("a header without alg is parsed, for DISC-017 to say alg is missing: %+v %v", h, err)
	}
	for name, protected := range map[string]string{"non-base64 header": "%%%", "numeric alg": enc([]byte(`{"alg":5}`)),
		"not JSON": enc([]byte(`alg`)), "numeric jku": enc([]byte(`{"alg":"ES256","kid":"k","jku":5}`))} {
		if _, _, err := parseSignature(protected, enc([]byte("sig")), []byte("{}")); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if _, _, err := parseSignature(enc([]byte(`{"alg":"ES256","kid":"k"}`)), "%%%", []byte("{}")); err == nil {
		t.Error("a non-base64 signature accepted")
	}
	for jku, ok := range map[string]bool{
		"https://keys.example/jwks.json": true, "http://127.0.0.1:9/jwks.json": true, "http://[::1]:9/j": true,
		"http://localhost:9/j": true, "http://keys.example/jwks.json": false, "/jwks.json": false, "ftp://a/b": false,
	} {
		if got := jkuProblem(jku) == ""; got != ok {
			t.Errorf("jkuProblem(%s) = %q", jku, jkuProblem(jku))
		}
	}
}

func TestVariesAndSameJSON(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   bool
	}{
		{[]string{"Accept-Encoding, a2a-version"}, true},
		{[]string{"Accept", "A2A-Version"}, true},
		{[]string{"*"}, true},
		{[]string{"A2A-Versions"}, false},
		{nil, false},
	} {
		if got := varies(tc.values, "a2a-version"); got != tc.want {
			t.Errorf("varies(%q) = %v", tc.values, got)
		}
	}
	if !sameJSON([]byte(`{"a":1,"b":[true]}`), []byte("{\n \"b\": [true], \"a\": 1.0}")) {
		t.Error("the same JSON laid out differently compares unequal")
	}
	if sameJSON([]byte(`{"a":1}`), []byte(`{"a":2}`)) || !sameJSON([]byte("<x>"), []byte("<x>")) {
		t.Error("sameJSON")
	}
}

package fakes

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// A card changed after signing and re-signed with SignCard verifies with the
// agent's key over its canonical form, names the jku it was given, and
// stops verifying once changed again.
func TestSignCardResignsAChangedCard(t *testing.T) {
	doc := []byte(`{"name":"n","description":"d","version":"1","supportedInterfaces":[{"url":"http://127.0.0.1:1/i0/a2a/jsonrpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"s","name":"s","description":"s","tags":["t"]}],"signatures":[{"protected":"x","signature":"y"}]}`)
	out, err := SignCard(doc, "http://127.0.0.1:1"+JWKSPath)
	if err != nil {
		t.Fatal(err)
	}
	verify := func(card []byte) bool {
		var c struct {
			Signatures []struct{ Protected, Signature string }
		}
		if err := json.Unmarshal(card, &c); err != nil || len(c.Signatures) != 1 {
			t.Fatalf("want one signature: %s", card)
		}
		hb, _ := base64.RawURLEncoding.DecodeString(c.Signatures[0].Protected)
		var hdr struct{ Alg, Kid, Jku string }
		json.Unmarshal(hb, &hdr)
		if hdr.Alg != "ES256" || hdr.Kid != signer().kid || hdr.Jku != "http://127.0.0.1:1"+JWKSPath {
			t.Fatalf("protected header %s", hb)
		}
		canonical, err := a2a.CanonicalCard(card, true)
		if err != nil {
			t.Fatal(err)
		}
		sig, _ := base64.RawURLEncoding.DecodeString(c.Signatures[0].Signature)
		digest := sha256.Sum256([]byte(c.Signatures[0].Protected + "." + base64.RawURLEncoding.EncodeToString(canonical)))
		return len(sig) == 64 && ecdsa.Verify(&signer().key.PublicKey, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:]))
	}
	if !verify(out) {
		t.Fatalf("the re-signed card does not verify: %s", out)
	}
	var m map[string]any
	json.Unmarshal(out, &m)
	m["description"] = "changed after signing"
	changed, _ := json.Marshal(m)
	if verify(changed) {
		t.Fatal("a card changed after signing still verifies")
	}
}

package a2a

import "testing"

func TestCanonicalCard(t *testing.T) {
	// The spec's worked example (§8.4.1) plus members the proto would not
	// serialise: a plain scalar at "", false and empty lists and maps go;
	// REQUIRED and optional fields stay at their defaults; signatures go.
	in := `{
	  "name": "Example Agent", "description": "", "skills": [],
	  "capabilities": {"streaming": false, "pushNotifications": false, "extensions": []},
	  "securitySchemes": {},
	  "supportedInterfaces": [{"url": "https://a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": ""}],
	  "securityRequirements": [{"schemes": {"b": {"list": []}}}],
	  "provider": null,
	  "x-vendor": "", "x-kept": 0.5,
	  "signatures": [{"protected": "e30", "signature": "AA"}]
	}`
	want := `{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent",` +
		`"securityRequirements":[{"schemes":{"b":{}}}],` +
		`"skills":[],"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0","url":"https://a"}],"x-kept":0.5}`
	got, err := CanonicalCard([]byte(in), true)
	if err != nil || string(got) != want {
		t.Fatalf("CanonicalCard =\n%s (%v)\nwant\n%s", got, err, want)
	}
	raw, err := CanonicalCard([]byte(in), false)
	if err != nil || string(raw) == want || len(raw) <= len(want) {
		t.Fatalf("without stripping: %s (%v)", raw, err)
	}
	if _, err := CanonicalCard([]byte(`[1]`), true); err == nil {
		t.Fatal("a non-object card was canonicalised")
	}
}

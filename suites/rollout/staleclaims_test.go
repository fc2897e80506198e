package rollout

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// framing tells another binding's success (the stale request was acted on:
// ROLL-007 fails) from its refusal (passes) and from a body of no binding
// (unchecked).
func TestFramingTellsServedFromRefused(t *testing.T) {
	for _, c := range []struct {
		body, binding string
		other, served bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t"}}}`, a2a.BindingHTTPJSON, true, true},
		{`{"jsonrpc":"2.0","id":1,"result":{"message":{}}}`, a2a.BindingHTTPJSON, true, true},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"bad"}}`, a2a.BindingHTTPJSON, true, false},
		{`{"task":{"id":"t"}}`, a2a.BindingJSONRPC, true, true},
		{`{"task":{"id":"t"}}`, a2a.BindingHTTPJSON, false, false},
		{`<!doctype html><html></html>`, a2a.BindingHTTPJSON, false, false},
		{``, a2a.BindingJSONRPC, false, false},
	} {
		other, served := framing([]byte(c.body), c.binding)
		if (other != "") != c.other || served != c.served {
			t.Errorf("%s on %s: other %q, served %v; want other %v, served %v", c.body, c.binding, other, served, c.other, c.served)
		}
	}
}

package clientdriver

import "github.com/a2a-conform/a2a-conform/internal/a2a"

// variantJSONRPCOnly and variantHTTPJSONOnly: a client that speaks one
// binding only. A2A v1.0 §8.3.2: "Pick the first binding the client
// supports"; nothing makes a client support both. CLI-006 lists HTTP+JSON
// first (a JSON-RPC-only client takes the second entry), CLI-007 declares a
// working interface of each binding after a refusing one (a client of one
// binding falls back within it).
var (
	variantJSONRPCOnly = registerVariant(Variant{
		Name:        "jsonrpc-only",
		Description: "Speaks JSON-RPC only: HTTP+JSON interfaces are skipped like any binding it does not speak.",
		Specs:       []string{"CLI-005", "CLI-006", "CLI-007"},
	})
	variantHTTPJSONOnly = registerVariant(Variant{
		Name:        "http-json-only",
		Description: "Speaks HTTP+JSON only: JSON-RPC interfaces are skipped like any binding it does not speak.",
		Specs:       []string{"CLI-005", "CLI-006", "CLI-007"},
	})
)

// speaks says whether the client speaks a binding.
func (d *Driver) speaks(binding string) bool {
	switch {
	case d.variants.has(variantJSONRPCOnly):
		return binding == a2a.BindingJSONRPC
	case d.variants.has(variantHTTPJSONOnly):
		return binding == a2a.BindingHTTPJSON
	}
	return binding == a2a.BindingJSONRPC || binding == a2a.BindingHTTPJSON
}

package clientdriver

import (
	"crypto/rand"
	"encoding/hex"
)

// variantOwnPushTokens: the client makes up a token of its own for each
// push config instead of the one the harness offers
// (A2A_CONFORM_PUSH_TOKEN, which the contract lets a driver ignore). Spec
// §13.2 (v1.0.1): "Clients SHOULD use unique, single-purpose tokens for
// each push notification configuration": where the token comes from is the
// client's business.
var variantOwnPushTokens = registerVariant(Variant{
	Name:        "own-push-tokens",
	Description: "Registers a random token of its own for each push config instead of A2A_CONFORM_PUSH_TOKEN, and checks pushes against it.",
	Specs:       []string{"CLI-022", "CLI-024", "CLI-025", "CLI-026", "CLI-037", "CLI-038"},
})

func ownPushToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "own-" + hex.EncodeToString(b)
}

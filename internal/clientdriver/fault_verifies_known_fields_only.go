package clientdriver

import (
	"encoding/json"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultVerifiesKnownFieldsOnly: the card's signature is checked over the
// members the client knows, rebuilt from its parsed card, not over what it
// received: a member injected after signing is not covered, and the card
// is used (a verifier bug class: canonicalizing the decoded struct).
var faultVerifiesKnownFieldsOnly = registerFault(Fault{
	Name:        "verifies-known-fields-only",
	Description: "Verifies the card's signature over only the members it knows (rebuilt from its parsed card), so a member added after signing passes and the card is used.",
	Specs:       []string{"CLI-027"},
})

// knownMembersOnly drops the top-level members of raw that card did not
// recognise (card.Extra).
func knownMembersOnly(raw []byte, card *a2a.AgentCard) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	for _, k := range card.Extra.Keys() {
		delete(m, k)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

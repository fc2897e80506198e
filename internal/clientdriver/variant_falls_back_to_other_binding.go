package clientdriver

import "github.com/a2a-conform/a2a-conform/internal/a2a"

// variantFallsBackToOtherBinding: when the interface in use refuses the
// connection, the client falls back to the first declared interface of
// another binding, not to the next URL of its own. A2A v1.0 §5.2: "clients
// SHOULD fall back to another declared binding" — the literal reading;
// docs/levels.md (CLI-007) accepts both.
var variantFallsBackToOtherBinding = registerVariant(Variant{
	Name:        "falls-back-to-other-binding",
	Description: "When its interface refuses the connection, falls back to the first declared interface of the other binding rather than another URL of the same binding.",
	Specs:       []string{"CLI-007"},
})

// preferOtherBinding moves the first candidate whose binding is not
// binding to the front of the candidates left.
func (d *Driver) preferOtherBinding(binding string) {
	for i, c := range d.candidates {
		if c.ProtocolBinding != binding {
			rest := append(d.candidates[:i:i], d.candidates[i+1:]...)
			d.candidates = append([]a2a.AgentInterface{c}, rest...)
			return
		}
	}
}

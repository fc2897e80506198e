package clientdriver

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// variantRejectsInvalidPayloads: a strict client that refuses a task or
// message with a message that has no messageId, or a part that has not
// exactly one content key. A2A v1.0 §5.7: "Implementations SHOULD reject
// messages missing them" (REQUIRED fields); §4.1, Part: "Exactly one of the
// following content keys is present". docs/levels.md (CLI-032, CLI-035):
// refusing those ACTS payloads is an allowed reading.
var variantRejectsInvalidPayloads = registerVariant(Variant{
	Name:        "rejects-invalid-payloads",
	Description: "Refuses (parse error) a task or message carrying a message without messageId or a part without exactly one content key.",
	Specs:       []string{"CLI-032", "CLI-035"},
})

// strict checks what the agent answered under rejects-invalid-payloads.
func (d *Driver) strict(t *a2a.Task, m *a2a.Message) error {
	if !d.variants.has(variantRejectsInvalidPayloads) {
		return nil
	}
	var msgs []*a2a.Message
	var parts []a2a.Part
	if m != nil {
		msgs = append(msgs, m)
	}
	if t != nil {
		if t.Status.Message != nil {
			msgs = append(msgs, t.Status.Message)
		}
		for i := range t.History {
			msgs = append(msgs, &t.History[i])
		}
		for _, a := range t.Artifacts {
			parts = append(parts, a.Parts...)
		}
	}
	for _, msg := range msgs {
		if msg.MessageID == "" {
			return &parseError{msg: "a message without messageId (REQUIRED, §4.1): refused"}
		}
		parts = append(parts, msg.Parts...)
	}
	for _, p := range parts {
		if k := p.ContentKeys(); len(k) != 1 {
			return &parseError{msg: fmt.Sprintf("a part with %d content keys %v, not exactly one (§4.1): refused", len(k), k)}
		}
	}
	return nil
}

package clientdriver

// variantStreamingRefusedSends: when the agent refuses a streaming request
// with UnsupportedOperationError although the card claimed streaming, the
// client gives up streaming and sends the message with SendMessage,
// polling until the task settles. Scenario 3: "downgrade the delegation to
// the intersection of advertised capabilities and a conservative baseline …
// and record the downgrade"; docs/levels.md (CLI-029): raising or falling
// back to SendMessage and finishing both pass.
var variantStreamingRefusedSends = registerVariant(Variant{
	Name:        "streaming-refused-sends",
	Description: "When a streaming request is refused with UnsupportedOperationError, sends the message with SendMessage and polls instead of raising the refusal.",
	Specs:       []string{"CLI-029"},
})

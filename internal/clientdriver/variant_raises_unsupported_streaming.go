package clientdriver

// variantRaisesUnsupportedStreaming: when the card declines streaming, the
// stream and subscribe actions raise unsupported-operation to the
// application rather than sending (or polling) without streaming. Spec
// §3.3.4 (v1.0.1): "Clients SHOULD validate capability support by examining
// the Agent Card before attempting operations that require optional
// capabilities"; docs/levels.md (CLI-039): sending and polling, or raising
// without sending, both pass.
var variantRaisesUnsupportedStreaming = registerVariant(Variant{
	Name:        "raises-unsupported-streaming",
	Description: "When the card declines streaming, raises unsupported-operation for a stream or a subscription instead of sending and polling.",
	Specs:       []string{"CLI-039"},
})

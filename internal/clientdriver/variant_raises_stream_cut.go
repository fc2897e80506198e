package clientdriver

// variantRaisesStreamCut: a stream that ends before its task settled is
// raised to the application (an error) rather than resynced. docs/levels.md
// (CLI-036): a client that neither raises the break nor resyncs warns, so
// raising it passes.
var variantRaisesStreamCut = registerVariant(Variant{
	Name:        "raises-stream-cut",
	Description: "Raises a stream that ended before its task settled as an error instead of polling GetTask.",
	Specs:       []string{"CLI-036"},
})

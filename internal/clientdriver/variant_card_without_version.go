package clientdriver

// variantCardWithoutVersion: the card is fetched without A2A-Version (a
// plain GET of a well-known document); every operation still carries it.
// A2A v1.0 §3.6 asks it "on every request" of the protocol; docs/levels.md
// (CLI-001): card fetches are recorded, not judged.
var variantCardWithoutVersion = registerVariant(Variant{
	Name:        "card-without-version",
	Description: "Fetches the card (and revalidates it) without A2A-Version, as a plain GET of a well-known document; operations still carry it.",
	Specs:       []string{"CLI-001", "CLI-020"},
})

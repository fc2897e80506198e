package clientdriver

// variantRaisesOnUnverifiedExtendedCard: the client stops with an error
// when the extended card's signature fails, instead of going on with the
// public card.
var variantRaisesOnUnverifiedExtendedCard = registerVariant(Variant{
	Name:        "raises-on-unverified-extended-card",
	Description: "Raises an error and stops when the extended card's signature does not verify, rather than going on with the public card.",
	Specs:       []string{"CLI-013"},
})

package clientdriver

// faultCachesUnverifiedExtendedCard: the client raises the extended card's
// failed signature but keeps the card as its own, so its later capability
// checks run on content it refused (the shape of a2a-js #705, fixed in
// a2a-js PR #711).
var faultCachesUnverifiedExtendedCard = registerFault(Fault{
	Name:        "caches-unverified-extended-card",
	Description: "Keeps an extended card whose signature failed as the client's card (its capabilities decide what the client does next), as a2a-js #705 did.",
	Specs:       []string{"CLI-013"},
})

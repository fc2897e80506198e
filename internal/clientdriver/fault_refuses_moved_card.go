package clientdriver

import "github.com/a2a-conform/a2a-conform/internal/a2a"

// faultRefusesMovedCard: a revalidated card that no longer declares the
// interface URL the client is using is refused as invalid, instead of
// being taken and an interface chosen from it again (a resolver bug class:
// a card pinned to the endpoint first seen).
var faultRefusesMovedCard = registerFault(Fault{
	Name:        "refuses-moved-card",
	Description: "Raises an error when a revalidated card no longer declares the interface URL in use (the agent moved its endpoint), instead of taking the new card.",
	Specs:       []string{"CLI-010"},
})

// declares reports whether the card lists an interface at url.
func declares(card *a2a.AgentCard, url string) bool {
	for _, in := range card.SupportedInterfaces {
		if in.URL == url {
			return true
		}
	}
	return false
}

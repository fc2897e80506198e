package fakes

import "net/http"

// faultOriginStaleWithoutValidators: an instance of a later generation
// serves the previous generation's card (its version, and so its bytes and
// ETag) to every card request without validators, as an origin behind a
// stale in-process or edge cache keyed without them does, while a
// revalidation (If-None-Match or If-Modified-Since) gets the current card.
var faultOriginStaleWithoutValidators = register(FaultInfo{
	Name:        "origin-stale-without-validators",
	Scenario:    scenarioRotation,
	Description: "After a rotation each instance serves the previous generation's card (version, bytes, ETag) to card requests without validators, and the current one only to a revalidation: a client with no cached card gets a generation the agent no longer serves.",
	Specs:       []string{"ROLL-001"},
})

// staleForFreshRead is the card state the fault serves to r instead of the
// current one: the previous generation, for a request without validators
// on an instance past the first generation with no card version of its own.
func (a *Agent) staleForFreshRead(r *http.Request) (cardState, bool) {
	if !a.faults.has(faultOriginStaleWithoutValidators) || r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
		return cardState{}, false
	}
	st := a.cardSnapshot()
	if st.gen < 2 || st.version != "" {
		return cardState{}, false
	}
	st.gen--
	return st, true
}

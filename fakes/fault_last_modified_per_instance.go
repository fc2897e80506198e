package fakes

// faultLastModifiedPerInstance: the card's Last-Modified is when the
// instance started (or last rotated), not when the card it serves was
// first published, as in a server that stamps the card with its own start
// time. Every instance serving the same card gives it another date, and a
// restart moves it, though the card did not change. A client that
// revalidates with If-Modified-Since downloads an unchanged card again
// when a later-started instance answers; mid-rollout, an instance of the
// old build restarted after one of the new build answers the old card
// with the later date, and the new build then confirms that old card
// (304) to a client holding it. The reference agent otherwise takes the
// date from the store every instance shares (store.CardPublished).
var faultLastModifiedPerInstance = register(FaultInfo{
	Name:        "last-modified-per-instance",
	Scenario:    scenarioRotation,
	Description: "The card's Last-Modified is when the instance started, not when the card was first published: instances serving the same card give it different dates, and a restart moves the date of an unchanged card, so If-Modified-Since revalidation depends on which instance answers.",
	Specs:       []string{"ROLL-011"},
})

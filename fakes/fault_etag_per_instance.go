package fakes

// faultETagPerInstance: the card's ETag hashes the card's bytes together
// with a seed drawn when the instance starts, as a server that salts its
// entity tags per process (or builds them from a file's inode) does. The
// ETag still changes with the card, so no instance confirms a card it no
// longer serves; but two instances serving the same card give it two
// ETags, so a client behind a balancer that revalidates with
// If-None-Match gets the whole card again whenever another instance
// answers, and an instance's ETag changes when it restarts. On a single
// instance that never restarts the fault is invisible.
var faultETagPerInstance = register(FaultInfo{
	Name:        "etag-per-instance",
	Scenario:    scenarioRotation,
	Description: "The card's ETag hashes the card's bytes with a seed drawn when the instance starts: every instance, and every restart, gives the same card another ETag, so a revalidation answered by another instance never gets 304. On a single instance that never restarts it is invisible.",
	Specs:       []string{"ROLL-011"},
	// Only ROLL-011's SHOULD part breaks: the ETag still changes with the
	// card, so no revalidation keeps a stale one.
	Soft: true,
})

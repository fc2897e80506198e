package fakes

// faultAnyETagNotModified: the card's conditional-request check tests only
// that If-None-Match is present, not which ETag it names, so any held ETag
// revalidates. The ETag itself changes with the card, so a client fetching
// afresh sees the new card; one revalidating the previous generation's copy
// is told it is still current (scenario 1: a client kept a stale card).
var faultAnyETagNotModified = register(FaultInfo{
	Name:        "any-etag-not-modified",
	Scenario:    scenarioRotation,
	Description: "The card answers 304 Not Modified to any If-None-Match, whatever ETag it names (the check tests only that the header is present): the ETag changes with the card, but a client revalidating the previous generation's copy is told it is current and keeps the stale card.",
	Specs:       []string{"ROLL-001", "ROLL-008"},
})

package fakes

// faultETagNeverChanges: The card's ETag is derived from the instance name only, so it stays the same across rotations: a
// client revalidating with If-None-Match gets 304 and keeps a stale card (new version, interfaces
// or auth never seen).
var faultETagNeverChanges = register(FaultInfo{
	Name:        "etag-never-changes",
	Scenario:    scenarioRotation,
	Description: "The card's ETag is derived from the instance name only, so it stays the same across rotations: a client revalidating with If-None-Match gets 304 and keeps a stale card (new version, interfaces or auth never seen).",
	Specs:       []string{"ROLL-001", "ROLL-008"},
})

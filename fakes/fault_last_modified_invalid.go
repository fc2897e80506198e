package fakes

// faultLastModifiedInvalid: Last-Modified carries an ISO 8601 timestamp (2006-01-02T15:04:05Z) instead of an HTTP-date, which caches cannot parse.
var faultLastModifiedInvalid = register(FaultInfo{
	Name:        "last-modified-invalid",
	Scenario:    scenarioStaleCDN,
	Description: "Last-Modified carries an ISO 8601 timestamp (2006-01-02T15:04:05Z) instead of an HTTP-date, which caches cannot parse.",
	Specs:       []string{"DISC-007"},
})

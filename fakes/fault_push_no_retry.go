package fakes

// faultPushNoRetry: a webhook attempt that fails with 5xx, 408, 429 or a
// transport error is dropped at once instead of retried with backoff
// (§13.2 SHOULD): one bad second at the receiver loses the event.
var faultPushNoRetry = register(FaultInfo{
	Name:        "push-no-retry",
	Scenario:    scenarioRollout,
	Description: "A webhook attempt answered 5xx (or timed out) is dropped instead of retried with backoff: one failed attempt loses the event.",
	Specs:       []string{"PUSH-007"},
})

package fakes

// faultPushDeleteGoneFails: deleting a push config that is already gone
// fails with an internal error, so a client that retries a delete after a
// lost answer sees the server fail, not the config gone: the repeated
// delete does not have the first one's effect (A2A v1.0.1 §3.1.10). An
// answer that the config is not there would (Options.DeleteGoneNotFound).
var faultPushDeleteGoneFails = register(FaultInfo{
	Name:        "push-delete-gone-fails",
	Description: "Deleting a push config that is already deleted fails with an internal error (-32603, HTTP 500) instead of succeeding or answering that it is not there: a retried delete after a lost answer looks like a server failure.",
	Specs:       []string{"PUSH-001"},
})

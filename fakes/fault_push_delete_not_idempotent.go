package fakes

// faultPushDeleteNotIdempotent: deleting a push config that is already gone
// fails with TaskNotFoundError instead of succeeding (§3.1.10: delete MUST be
// idempotent), so a client that retries a delete after a lost answer sees an
// error for a delete that worked.
var faultPushDeleteNotIdempotent = register(FaultInfo{
	Name:        "push-delete-not-idempotent",
	Description: "Deleting a push config that is already deleted fails with TaskNotFoundError instead of succeeding: a retried delete after a lost answer looks like a failure.",
	Specs:       []string{"PUSH-001"},
})

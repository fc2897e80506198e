package fakes

// faultOtherIdentityCancelApplied: CancelTask checks the caller's access
// only to choose its answer: another identity's cancel is answered with the
// unknown-id TaskNotFoundError, as it should be, and yet the task is
// canceled (spec §13.1: the operation MUST NOT act for a caller without
// access).
var faultOtherIdentityCancelApplied = register(FaultInfo{
	Name:        "other-identity-cancel-applied",
	Description: "With several identities, CancelTask by another identity is answered with the unknown-id TaskNotFoundError, yet the task is canceled all the same: the access check chose the answer, not whether to act (spec §13.1).",
	Specs:       []string{"LIFE-031"},
})

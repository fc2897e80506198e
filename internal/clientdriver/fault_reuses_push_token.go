package clientdriver

// faultReusesPushToken: Registers every push config with one fixed token of
// its own instead of the per-config token it was given (§13.2: a SHOULD).
var faultReusesPushToken = registerFault(Fault{
	Name:        "reuses-push-token",
	Description: "Registers every push config with the same fixed token, not the per-config token it was given.",
	Specs:       []string{"CLI-026"},
})

// sharedPushToken is the one token reuses-push-token puts in every config.
const sharedPushToken = "a2a-conform-shared-push-token"

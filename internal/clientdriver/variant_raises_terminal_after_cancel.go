package clientdriver

// variantRaisesTerminalAfterCancel: after an acknowledged cancel, a later
// state from a push, a poll or a stream is raised as an error (the task
// kept CANCELED) rather than reported as a warning. Scenario 3: "must raise
// and route to reconciliation, not be merged"; docs/levels.md (CLI-023,
// CLI-038): raising is a warning or an error.
var variantRaisesTerminalAfterCancel = registerVariant(Variant{
	Name:        "raises-terminal-after-cancel",
	Description: "After an acknowledged cancel, raises a later terminal state as an error (keeping CANCELED) instead of a warning.",
	Specs:       []string{"CLI-023", "CLI-038"},
})

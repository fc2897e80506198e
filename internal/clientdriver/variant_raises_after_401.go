package clientdriver

// variantRaisesAfter401: once its push receiver refused a push (401), the
// client stops trusting the task and raises the refusal to the application
// (error class auth) instead of re-fetching it. Scenario 1: "Do not retry a
// webhook 401 against a task you have not re-fetched": raising retries
// nothing; docs/levels.md (CLI-037) names raising as a passing branch.
var variantRaisesAfter401 = registerVariant(Variant{
	Name:        "raises-after-401",
	Description: "After its push receiver refused a push (401), raises the refusal to the application (auth) instead of re-fetching the task.",
	Specs:       []string{"CLI-037"},
})

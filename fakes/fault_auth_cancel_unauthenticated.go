package fakes

// faultAuthCancelUnauthenticated: CancelTask skips authentication on every
// binding, the way a route mounted outside the auth middleware would: a
// caller without credentials reaches the task lookup and gets the
// operation's own answer (spec §13.1: servers MUST authenticate every
// request). A second shape of auth-list-unauthenticated, on a write.
var faultAuthCancelUnauthenticated = register(FaultInfo{
	Name:        "auth-cancel-unauthenticated",
	Description: "With Options.RequireAuth (the embedded run's mode), CancelTask is served without credentials on every binding: an anonymous caller gets TaskNotFoundError for an id nobody issued, so the request was processed unauthenticated (A2A v1.0.1 §7.4: servers MUST authenticate every incoming request).",
	Specs:       []string{"DISC-019"},
})

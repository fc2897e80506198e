package fakes

import "context"

// faultOtherIdentityPushConfigCreated: CreateTaskPushNotificationConfig
// skips the ownership check that every read of the task makes, so any
// identity that learns a task id can attach its own webhook to it and
// receive the owner's task updates (spec §13.1: every task operation MUST
// verify the caller's access).
var faultOtherIdentityPushConfigCreated = register(FaultInfo{
	Name:        "other-identity-push-config-created",
	Description: "With several identities, CreateTaskPushNotificationConfig accepts a config on another identity's task (the reads of the task still refuse it): a caller that learns a task id attaches its own webhook and receives the owner's updates (spec §13.1).",
	Specs:       []string{"LIFE-031", "LIFE-032"},
})

// othersConfigAllowed reports whether the fault lets the caller of ctx
// register a config on the task id, which exists and is another identity's.
func (a *Agent) othersConfigAllowed(ctx context.Context, id string) bool {
	if !a.faults.has(faultOtherIdentityPushConfigCreated) {
		return false
	}
	rec, err := a.st.GetTask(ctx, id)
	return err == nil && a.visible(rec) && !a.mayAccess(ctx, rec)
}

package clientdriver

// faultRebindsWebhookAfter401: After its push receiver refused a push (401),
// the client registers the task's push config again instead of re-fetching
// the task: the webhook retried against a task it has not re-fetched
// (scenario 1), the other shape of no-refetch-after-401.
var faultRebindsWebhookAfter401 = registerFault(Fault{
	Name:        "rebinds-webhook-after-401",
	Description: "After its push receiver refused a push (401), registers the task's push config again (CreateTaskPushNotificationConfig) without re-fetching the task.",
	Specs:       []string{"CLI-037"},
})

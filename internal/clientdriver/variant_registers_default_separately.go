package clientdriver

// variantRegistersDefaultSeparately: the client gives each task it creates
// its default push config with CreateTaskPushNotificationConfig once the
// task's id is known, instead of inline with the creating message (A2A
// v1.0.1 docs/topics/streaming-and-async.md names both ways).
var variantRegistersDefaultSeparately = registerVariant(Variant{
	Name:        "registers-default-separately",
	Description: "Registers its default push config for each task it creates with CreateTaskPushNotificationConfig once the task's id is known, not inline.",
	Specs:       []string{"CLI-012"},
})

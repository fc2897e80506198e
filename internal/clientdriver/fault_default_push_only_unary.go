package clientdriver

// faultDefaultPushOnlyUnary: the client attaches its default push config to
// SendMessage but not to SendStreamingMessage, so a task it creates by
// streaming gets no config.
var faultDefaultPushOnlyUnary = registerFault(Fault{
	Name:        "default-push-only-unary",
	Description: "Attaches the client's default push config to SendMessage only, never to SendStreamingMessage.",
	Specs:       []string{"CLI-012"},
})

package fakes

// faultAuthRequiredStreamDropped: SendStreamingMessage keeps its stream open
// in TASK_STATE_AUTH_REQUIRED, as §7.6.1 asks, but when the task moves on
// (the credential arrived, a follow-up came) it ends the stream without
// sending the new state: a client that waited on the kept stream misses the
// very continuation it was kept for. (Closing at AUTH_REQUIRED itself is
// §11.7's reading and no fault: Options.CloseStreamAtAuthRequired.)
var faultAuthRequiredStreamDropped = register(FaultInfo{
	Name:        "auth-required-stream-dropped",
	Description: "SendStreamingMessage keeps its stream open in TASK_STATE_AUTH_REQUIRED, then closes it without the task's next state when the task moves on after the follow-up (spec §7.6.1 SHOULD maintain the stream so the client sees the task go on).",
	Specs:       []string{"LIFE-033"},
})

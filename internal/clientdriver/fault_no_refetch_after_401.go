package clientdriver

// faultNoRefetchAfter401: The push receiver still refuses a push without the
// config's token (401), but the client goes on trusting what it knows of
// the task: no card revalidation, no GetTask, it waits for the next push
// (scenario 1: "do not retry a webhook 401 against a task you have not
// re-fetched").
var faultNoRefetchAfter401 = registerFault(Fault{
	Name:        "no-refetch-after-401",
	Description: "After its push receiver refused a push (401), does not re-fetch the task: it waits for the next push and reports the state that push carries.",
	Specs:       []string{"CLI-037"},
})

package clientdriver

// faultResubmitsSilently: After TaskNotFound on a follow-up, re-sends the message as a new task and reports it as the old one.
var faultResubmitsSilently = registerFault(Fault{
	Name:        "resubmits-silently",
	Description: "After TaskNotFound on a follow-up, re-sends the message as a new task and reports it as the old one.",
	Specs:       []string{"CLI-021"},
})

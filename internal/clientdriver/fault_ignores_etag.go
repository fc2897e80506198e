package clientdriver

// faultIgnoresETag: Re-fetches the card without If-None-Match, ignoring the ETag it was given.
var faultIgnoresETag = registerFault(Fault{
	Name:        "ignores-etag",
	Description: "Re-fetches the card without If-None-Match, ignoring the ETag it was given.",
	Specs:       []string{"CLI-020"},
})

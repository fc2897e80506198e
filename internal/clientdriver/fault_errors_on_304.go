package clientdriver

// faultErrorsOn304: the card resolver revalidates with If-None-Match but
// treats the 304 Not Modified it gets as a failed fetch (any status but
// 200 is an error), so revalidating ends the flow instead of confirming the
// cached card (an SDK bug class: a resolver that checks response.ok).
var faultErrorsOn304 = registerFault(Fault{
	Name:        "errors-on-304",
	Description: "Revalidates the card with If-None-Match and raises the 304 Not Modified answer as an error: the follow-up is never sent.",
	Specs:       []string{"CLI-020"},
})

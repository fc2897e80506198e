package clientdriver

// faultNeverRevalidates: Keeps the card it resolved first for the whole run,
// whatever its max-age: no conditional GET, no re-fetch (the second shape of
// a client that does not re-resolve before its transitions, beside
// ignores-etag).
var faultNeverRevalidates = registerFault(Fault{
	Name:        "never-revalidates",
	Description: "Keeps the card it resolved first for the whole run, whatever its max-age: no re-fetch, conditional or not.",
	Specs:       []string{"CLI-020"},
})

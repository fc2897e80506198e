package clientdriver

// faultSkipsSignatureCheck: Never verifies card signatures (§8.4.3: a
// SHOULD).
var faultSkipsSignatureCheck = registerFault(Fault{
	Name:        "skips-signature-check",
	Description: "Uses a signed card without verifying its signature.",
	Specs:       []string{"CLI-028"},
})

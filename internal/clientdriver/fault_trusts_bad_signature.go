package clientdriver

// faultTrustsBadSignature: Verifies the card's signature (it fetches the key
// set) and uses the card even when the signature fails, with a warning.
var faultTrustsBadSignature = registerFault(Fault{
	Name:        "trusts-bad-signature",
	Description: "Verifies the card's signature, then uses the card even though it does not verify.",
	Specs:       []string{"CLI-027"},
})

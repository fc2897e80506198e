package clientdriver

// variantPushAuthentication: the push config carries its secret as
// `authentication` (scheme Bearer) instead of `token`, and the receiver
// checks the Authorization header. A2A v1.0 §4.3.3: "The agent MUST put
// credentials in the request headers as `authentication` specifies, i.e.
// `Authorization: <scheme> <credentials>`"; spec §13.2 (v1.0.1): "Clients
// MUST validate webhook authenticity using the provided authentication
// credentials".
var variantPushAuthentication = registerVariant(Variant{
	Name:        "push-authentication",
	Description: "Registers its push secret as authentication (Bearer credentials) instead of a token, and checks the Authorization header of each push.",
	Specs:       []string{"CLI-022", "CLI-024", "CLI-025", "CLI-026", "CLI-037", "CLI-038"},
})

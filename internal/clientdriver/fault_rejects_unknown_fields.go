package clientdriver

// faultRejectsUnknownFields: Refuses a card with members it does not know, as a strict ProtoJSON parser does (the SDK bug class).
var faultRejectsUnknownFields = registerFault(Fault{
	Name:        "rejects-unknown-fields",
	Description: "Refuses a card with members it does not know, as a strict ProtoJSON parser does (the SDK bug class).",
	Specs:       []string{"CLI-003"},
})

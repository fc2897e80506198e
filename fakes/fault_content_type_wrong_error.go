package fakes

// faultContentTypeWrongError: a part of a media type the card's input modes
// do not cover is refused, but with InvalidParams (-32602, HTTP 400,
// INVALID_ARGUMENT) instead of ContentTypeNotSupportedError (-32005), so a
// client cannot tell "send another type" from "your request is malformed".
// Refusing is a MAY (docs/levels.md: LIFE-028); the error of a refusal is the
// one the text names, so LIFE-028 warns.
//
// It replaces accept-any-content-type, whose behaviour (serving the part)
// the A2A text allows: Options.ServeAnyMediaType is now that correct variant.
var faultContentTypeWrongError = register(FaultInfo{
	Name:        "content-type-wrong-error",
	Description: "A part whose media type the card's input modes do not cover is refused with InvalidParams (-32602 / HTTP 400) instead of ContentTypeNotSupportedError (-32005): the refusal names the wrong error (spec §3.1.1).",
	Specs:       []string{"LIFE-028"},
})

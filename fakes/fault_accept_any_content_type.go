package fakes

import "github.com/a2a-conform/a2a-conform/internal/a2a"

// faultAcceptAnyContentType: parts of media types outside the card's
// defaultInputModes are accepted (and ignored) instead of refused.
var faultAcceptAnyContentType = register(FaultInfo{
	Name:        "accept-any-content-type",
	Scenario:    "",
	Description: "Parts whose media type the card's input modes do not cover are accepted and silently ignored instead of refused with ContentTypeNotSupportedError (-32005).",
	Specs:       []string{"LIFE-028"},
})

// ignoresContentType reports whether a validation failure is a refused
// media type that the fault lets through.
func (a *Agent) ignoresContentType(oe *opError) bool {
	return oe.kind == a2a.ErrContentTypeNotSupported && a.faults.has(faultAcceptAnyContentType)
}

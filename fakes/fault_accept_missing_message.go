package fakes

import "github.com/a2a-conform/a2a-conform/internal/a2a"

// faultAcceptMissingMessage: a SendMessage without its REQUIRED message is
// served as if an empty text message had been sent.
var faultAcceptMissingMessage = register(FaultInfo{
	Name:        "accept-missing-message",
	Scenario:    "",
	Description: "SendMessage without its REQUIRED message member is served (a task is created from an empty text message) instead of refused with InvalidParams (-32602 / HTTP 400).",
	Specs:       []string{"LIFE-027"},
	// "Implementations SHOULD reject messages missing them" (spec §5.7,
	// A2A v1.0 §5.7): LIFE-027 judges this part with T.Should (docs/levels.md).
	Soft: true,
})

// stubMessage stands in for the missing message.
func stubMessage() *a2a.Message {
	return &a2a.Message{MessageID: newID(), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart("")}}
}

package fakes

import (
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// faultStreamMessageThenMore: a streamed Message reply is sent as several
// Message events (the way an agent that forwards model tokens as they come
// would), where the message-only pattern allows exactly one (spec §3.1.2).
var faultStreamMessageThenMore = register(FaultInfo{
	Name:        "stream-message-then-more",
	Scenario:    "",
	Description: "A streamed Message reply is split over two Message events instead of being the stream's only event.",
	Specs:       []string{"LIFE-016"},
})

// splitReply cuts a reply into two messages carrying the halves of its text.
func splitReply(reply *a2a.Message) []a2a.StreamResponse {
	text := directive.InputText(reply.Parts)
	first, second := *reply, *reply
	first.Parts = []a2a.Part{a2a.TextPart(directive.ChunkText(text, 1, 2))}
	second.MessageID = newID()
	second.Parts = []a2a.Part{a2a.TextPart(directive.ChunkText(text, 2, 2))}
	return []a2a.StreamResponse{{Message: &first}, {Message: &second}}
}

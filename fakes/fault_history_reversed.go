package fakes

import "github.com/a2a-conform/a2a-conform/internal/a2a"

// faultHistoryReversed: task history is returned newest first (after the
// historyLength cut, so the right messages are there in the wrong order);
// spec §3.2.4 wants it chronological.
var faultHistoryReversed = register(FaultInfo{
	Name:        "history-reversed",
	Scenario:    "",
	Description: "Task history is returned newest first instead of oldest first (the historyLength cut still keeps the most recent messages).",
	Specs:       []string{"LIFE-024"},
})

func reversedHistory(h []a2a.Message) []a2a.Message {
	out := make([]a2a.Message, len(h))
	for i, m := range h {
		out[len(h)-1-i] = m
	}
	return out
}

package fakes

import (
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultRejectUnknownFields: requests with members the agent does not know are
// refused, as a strict decoder does, where spec §5.7 says to ignore them.
var faultRejectUnknownFields = register(FaultInfo{
	Name:        "reject-unknown-fields",
	Scenario:    "",
	Description: "SendMessage and GetTask requests carrying unknown members (top level or inside the message) are refused with InvalidParams instead of served (spec §5.7: SHOULD ignore).",
	Specs:       []string{"LIFE-029"},
})

// rejectUnknown refuses a request whose decoded parts kept unknown members.
func (a *Agent) rejectUnknown(extras ...a2a.Extras) *opError {
	if !a.faults.has(faultRejectUnknownFields) {
		return nil
	}
	var names []string
	for _, e := range extras {
		names = append(names, e.Keys()...)
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	return errInvalidParams("params", "unknown members: %s", truncate(strings.Join(names, ", "), 200))
}

package fakes

import "regexp"

// faultTimestampWithOffset: Timestamps are written with a "+00:00" offset instead of the "Z" suffix spec §5.6.1 requires.
var faultTimestampWithOffset = register(FaultInfo{
	Name:        "timestamp-with-offset",
	Scenario:    "",
	Description: "Timestamps are written with a \"+00:00\" offset instead of the \"Z\" suffix spec §5.6.1 requires.",
	Specs:       []string{"LIFE-001"},
})

// rfc3339Z matches the timestamps the agent writes (…T…Z inside quotes).
var rfc3339Z = regexp.MustCompile(`("\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z"`)

// offsetTimestamps rewrites every "…Z" timestamp to the same instant with a
// "+00:00" offset.
func offsetTimestamps(b []byte) []byte {
	return rfc3339Z.ReplaceAll(b, []byte(`$1+00:00"`))
}

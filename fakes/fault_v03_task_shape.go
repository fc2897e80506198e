package fakes

import (
	"bytes"
	"encoding/json"
)

// faultV03TaskShape: results keep the v0.3 "kind" discriminators that v1.0
// removed (the A2A v0.3 → v1.0 changes), as agents half-migrated from v0.3 do.
var faultV03TaskShape = register(FaultInfo{
	Name:        "v03-task-shape",
	Scenario:    "",
	Description: "Results keep v0.3 \"kind\" discriminators: tasks carry \"kind\":\"task\", messages \"kind\":\"message\", parts \"kind\":\"text\"/\"data\"/\"file\", artifacts none (v1.0 discriminates oneofs by member key only).",
	Specs:       []string{"LIFE-001"},
})

// v03Kinds adds "kind" to every task, message and part of a JSON document,
// recognised by their members. A document that does not parse is returned
// unchanged.
func v03Kinds(b []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return b
	}
	out, err := json.Marshal(addKinds(v))
	if err != nil {
		return b
	}
	return out
}

func addKinds(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if k != "metadata" && k != "data" {
				t[k] = addKinds(e)
			}
		}
		has := func(k string) bool { _, ok := t[k]; return ok }
		switch {
		case has("id") && has("status"):
			t["kind"] = "task"
		case has("messageId") && has("role"):
			t["kind"] = "message"
		case has("text"):
			t["kind"] = "text"
		case has("data"):
			t["kind"] = "data"
		case has("raw") || has("url"):
			t["kind"] = "file"
		}
		return t
	case []any:
		for i := range t {
			t[i] = addKinds(t[i])
		}
		return t
	}
	return v
}

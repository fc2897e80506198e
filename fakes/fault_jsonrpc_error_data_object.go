package fakes

import "encoding/json"

// faultJSONRPCErrorDataObject: JSON-RPC errors carry v0.3's free-form data
// object instead of v1.0's array of @type detail objects (spec §9.5).
var faultJSONRPCErrorDataObject = register(FaultInfo{
	Name:        "jsonrpc-error-data-object",
	Scenario:    "",
	Description: "JSON-RPC error.data is a v0.3-style free-form object ({\"taskId\":…}) instead of an array of ProtoJSON Any objects each with \"@type\" (spec §9.5).",
	Specs:       []string{"LIFE-026"},
})

// v03ErrorData is the error's metadata as one plain object.
func v03ErrorData(e *opError) json.RawMessage {
	m := map[string]string{}
	for k, v := range e.meta {
		m[k] = v
	}
	if e.field != "" {
		m["field"] = e.field
	}
	b, _ := json.Marshal(m)
	return b
}

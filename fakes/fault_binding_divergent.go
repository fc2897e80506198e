package fakes

import "encoding/json"

// faultBindingDivergent: GetTask on the HTTP+JSON binding drops the task's
// artifacts, so the two bindings disagree about one task (spec §5.1).
var faultBindingDivergent = register(FaultInfo{
	Name:        "binding-divergent",
	Scenario:    "",
	Description: "GetTask over HTTP+JSON leaves out the task's artifacts while JSON-RPC returns them: the bindings give different answers about one task (spec §5.1).",
	Specs:       []string{"LIFE-025"},
})

// restTaskView is what the HTTP+JSON binding returns for a GetTask result b.
func (a *Agent) restTaskView(b []byte) []byte {
	if !a.faults.has(faultBindingDivergent) || b == nil {
		return b
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return b
	}
	delete(m, "artifacts")
	out, err := json.Marshal(m)
	if err != nil {
		return b
	}
	return out
}

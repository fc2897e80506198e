package suites

// ScenarioNames names the three field scenarios a spec's Info.Scenario
// refers to, as docs/scenarios.md summarises them.
var ScenarioNames = map[string]string{
	"1": "card rotation mid-task",
	"2": "card published mid-rollout",
	"3": "stale CDN: cancel, then complete",
}

// ScenarioDoc is where a vendor reads the scenarios: a page of the repository.
const ScenarioDoc = "docs/scenarios.md"

// ScenarioRef renders a scenario number for a person: its number, its name
// and the page that describes it, e.g. `3, "stale CDN: cancel, then
// complete" (docs/scenarios.md)`. Empty for "".
func ScenarioRef(n string) string {
	if n == "" {
		return ""
	}
	if name, ok := ScenarioNames[n]; ok {
		return n + `, "` + name + `" (` + ScenarioDoc + `)`
	}
	return n + " (" + ScenarioDoc + ")"
}

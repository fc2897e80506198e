package suites

import (
	"github.com/a2a-conform/a2a-conform/internal/spectext"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Basis is what the spec's level rests on: its Grounds with the spec's
// disagreements (disagrees.go) added; nil for a spec whose Grounds is empty,
// which TestEverySpecHasABasis forbids.
func (i Info) Basis() *reports.Basis {
	if groundless(i.Grounds) {
		return nil
	}
	b := i.Grounds
	b.Disagrees = append(b.Disagrees, disagreements[i.ID]...)
	return &b
}

// groundless reports whether b states nothing: no quote, no reading, no
// scenario sentence, no disagreement.
func groundless(b reports.Basis) bool {
	return len(b.Quotes) == 0 && b.Reading == "" && b.Scenario == nil && len(b.Disagrees) == 0
}

// Result is a result for the spec with everything the registry says of it
// filled in (ID, title, suite, level, sections, scenario, TCK, basis), and
// no verdict yet.
func (i Info) Result() reports.Result {
	return reports.Result{
		ID: i.ID, Title: i.Title, Suite: i.Suite, Level: string(i.Level),
		Sections: i.Sections, Scenario: i.Scenario, TCK: i.TCK, TCKLevel: string(TCKLevel(i)),
		Basis: i.Basis(), Judges: i.judges(),
	}
}

// judges is what a client spec's verdict rests on; nil for an agent spec.
func (i Info) judges() *reports.Judged {
	if i.Suite != Client {
		return nil
	}
	if len(i.Supplied) == 0 {
		return &reports.Judged{What: reports.JudgesSDK}
	}
	return &reports.Judged{What: reports.JudgesSupplied, Pieces: append([]string(nil), i.Supplied...)}
}

// The constructors of a basis's parts, for the Grounds of an Info entry
// (sentences several entries share are package variables: the scenario
// sentences below, quotes_deployment.go). Each quote is the text's own
// words: copy them from the pinned text (internal/spectext/spec-v1.0.1),
// never retype them from memory.

// spec quotes docs/specification.md at a section ("3.1.5").
func spec(section, text string) reports.Quote {
	return reports.Quote{Text: text, Version: spectext.Version, File: "docs/specification.md", Section: section}
}

// proto quotes a comment of specification/a2a.proto.
func proto(text string) reports.Quote {
	return reports.Quote{Text: text, Version: spectext.Version, File: "specification/a2a.proto"}
}

// topic quotes a page of docs/topics ("life-of-a-task").
func topic(page, text string) reports.Quote {
	return reports.Quote{Text: text, Version: spectext.Version, File: "docs/topics/" + page + ".md"}
}

// quotes is a basis of quotes alone: the level is the keyword they carry.
func quotes(q ...reports.Quote) reports.Basis { return reports.Basis{Quotes: q} }

// scenario quotes the invariant sentence of a field scenario, as
// docs/scenarios.md quotes it.
func scenario(n, text string) *reports.ScenarioQuote {
	return &reports.ScenarioQuote{Number: n, Text: text}
}

// The scenario sentences the INVARIANT specs are derived from.
var (
	scenario1 = scenario("1", "a task's webhook binding is a property of the task, and a task is a property of a card generation — never bind across generations.")
	scenario2 = scenario("2", "a Card is a promise that the instance can serve the full lifecycle and webhook contract it declares, for every task it accepts, for the entire duration of that task.")
	scenario3 = scenario("3", "once a cancel is acknowledged, any later terminal transition for the same task ID is a protocol invariant violation")
)

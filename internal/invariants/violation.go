// Package invariants holds the pure checks the harness applies to what it
// observed: each takes recorded evidence (or one decoded document) and returns
// typed violations. No I/O and no Ginkgo in here, so every checker is unit-tested
// with tables.
package invariants

import (
	"fmt"
	"strings"
)

// Violation is one broken rule, stated so that a report reader can act on it
// without re-running anything.
type Violation struct {
	// Invariant names the rule, e.g. "schema", "terminal-immutable", "cancel-wins".
	Invariant string `json:"invariant"`
	// Where locates the offence: a JSON pointer into a document ("/status/state"),
	// or an observation reference ("task 7f3…, event 4 of stream 2").
	Where string `json:"where"`
	// Expected and Actual state the requirement and what was seen instead.
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
}

func (v Violation) String() string {
	return fmt.Sprintf("%s at %s: expected %s, got %s", v.Invariant, v.Where, v.Expected, v.Actual)
}

// Summarize renders violations one per line, capped at max lines, saying how
// many were left out.
func Summarize(vs []Violation, max int) string {
	var b strings.Builder
	for i, v := range vs {
		if max > 0 && i == max {
			fmt.Fprintf(&b, "… and %d more\n", len(vs)-max)
			break
		}
		b.WriteString(v.String())
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

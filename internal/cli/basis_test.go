package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/suites"
)

// explain shows a spec's basis word for word, with where each sentence
// stands, the reading of an INVARIANT, its scenario sentence and where it
// differs from the official TCK; list shows the quotes under each row.
func TestExplainAndListShowTheBasis(t *testing.T) {
	t.Parallel()
	i, ok := suites.Lookup("LIFE-012")
	if !ok {
		t.Fatal("no LIFE-012")
	}
	out := Explain(i)
	for _, want := range []string{
		"Basis (the A2A text, word for word):",
		"A2A v1.0.1 §3.1.5: \u201cThe server will attempt to cancel the task, but success is not guaranteed",
		"A2A v1.0.1 docs/topics/life-of-a-task.md: \u201cOnce a task reaches a terminal state",
		"Reading: No single MUST sentence states this invariant.",
		"Scenario 3 (docs/scenarios.md): \u201conce a cancel is acknowledged",
		"Differs from TCK CORE-CANCEL-001 (a2a-tck #140, #190)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain LIFE-012 lacks %q:\n%s", want, out)
		}
	}
	var b bytes.Buffer
	listTable(&b, []suites.Info{i})
	if !strings.Contains(b.String(), "A2A v1.0.1 §3.1.5: \u201cThe server will attempt to cancel the task") {
		t.Errorf("list shows no basis:\n%s", b.String())
	}
	// CLI-005 is MUST since §8.3.2 says so; explain says which words.
	c, _ := suites.Lookup("CLI-005")
	if c.Level != suites.MUST || !strings.Contains(Explain(c), "\u201cClients MUST follow these rules:") {
		t.Errorf("CLI-005: level %s, explain:\n%s", c.Level, Explain(c))
	}
}

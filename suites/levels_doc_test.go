package suites

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

const (
	levelsDoc      = "../docs/levels.md"
	levelsBegin    = "<!-- begin: generated from the registry by TestLevelsDocIsTheRegistry -->"
	levelsEnd      = "<!-- end: generated -->"
	levelsDocIntro = "Each spec, its level, the official TCK's level, and the sentences of the A2A v1.0.1 text it rests on, word for word (`a2a-conform explain ID` shows the same)."
)

// levelsTable renders every registered spec with its basis, as
// docs/levels.md shows it: the docs, explain and the report say one thing.
func levelsTable() string {
	var b strings.Builder
	b.WriteString(levelsDocIntro + "\n")
	suite := ""
	for _, i := range All() {
		if i.Suite != suite {
			suite = i.Suite
			fmt.Fprintf(&b, "\n### %s\n", suite)
		}
		tl := string(TCKLevel(i))
		if tl == "" {
			tl = "none"
		}
		fmt.Fprintf(&b, "\n**%s** (%s; TCK level %s): %s\n\n", i.ID, i.Level, tl, i.Title)
		basis := *i.Basis()
		// The scenario's sentence is the field report's, not the A2A
		// text's: set in italics, apart from the text's quotes.
		sc := basis.Scenario
		basis.Scenario = nil
		for _, l := range basis.Lines() {
			fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(l, "|", "\\|"))
		}
		if sc != nil {
			fmt.Fprintf(&b, "- Scenario %s, in its report's words: *%s*\n", sc.Number, sc.Text)
		}
	}
	return b.String()
}

// TestLevelsDocIsTheRegistry: docs/levels.md's table of every spec is the
// registry's, levels and bases alike (UPDATE_GOLDEN=1 rewrites it).
func TestLevelsDocIsTheRegistry(t *testing.T) {
	raw, err := os.ReadFile(levelsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	a, b := strings.Index(doc, levelsBegin), strings.Index(doc, levelsEnd)
	if a < 0 || b < a {
		t.Fatalf("%s has no section between %q and %q", levelsDoc, levelsBegin, levelsEnd)
	}
	want := levelsTable()
	got := strings.TrimSpace(doc[a+len(levelsBegin) : b])
	if got == strings.TrimSpace(want) {
		return
	}
	if os.Getenv("UPDATE_GOLDEN") != "" {
		doc = doc[:a+len(levelsBegin)] + "\n" + want + "\n" + doc[b:]
		if err := os.WriteFile(levelsDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/levels.md's table of specs is not the registry's: run UPDATE_GOLDEN=1 go test ./suites -run TestLevelsDocIsTheRegistry")
}

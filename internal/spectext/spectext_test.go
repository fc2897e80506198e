package spectext

import (
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	cases := []struct {
		quote, file, section string
		ok                   bool
	}{
		// Emphasis and line breaks fold away.
		{"A2A Servers MUST make an Agent Card available", "docs/specification.md", "", true},
		// A close paraphrase is not a quote.
		{"Agents MUST make a card available", "docs/specification.md", "", false},
		// A topic page.
		{"Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart.", "docs/topics/life-of-a-task.md", "", true},
		// Pieces joined by an ellipsis, in order.
		{"Clients MUST follow these rules: … Parse", "docs/specification.md", "8.3.2", true},
		// The right words in the wrong section.
		{"A2A Servers MUST make an Agent Card available", "docs/specification.md", "3.1.5", false},
		// No such file.
		{"anything at all", "docs/nothing.md", "", false},
	}
	for _, c := range cases {
		err := Find(c.quote, c.file, c.section)
		if (err == nil) != c.ok {
			t.Errorf("Find(%q, %s, %s) = %v, want found=%v", c.quote, c.file, c.section, err, c.ok)
		}
	}
}

func TestSectionsIncludeSubsections(t *testing.T) {
	// §3.1 holds §3.1.5's words; §3.1.5 does not hold §3.1.6's.
	if err := Find("Cancel Task", "docs/specification.md", "3.1"); err != nil {
		t.Error(err)
	}
	if err := Find("Subscribe to Task", "docs/specification.md", "3.1.5"); err == nil {
		t.Error("§3.1.5 should end where §3.1.6 begins")
	}
	for _, want := range []string{"3.1.5", "3.6.1", "8.3.2", "13.2", "A.2.1"} {
		found := false
		for _, s := range Sections("docs/specification.md") {
			found = found || s == want
		}
		if !found {
			t.Errorf("no section %s among %s", want, strings.Join(Sections("docs/specification.md"), " "))
		}
	}
}

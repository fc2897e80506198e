package reports

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func readJUnit(t *testing.T, r *Report) (junitSuites, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnit(p, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("junit.xml is not well-formed: %v", err)
	}
	return doc, string(b)
}

func TestJUnitStructure(t *testing.T) {
	r := sampleReport("Acme", "1")
	doc, _ := readJUnit(t, r)
	if doc.Tests != len(r.Results) || doc.Failures != 2 || doc.Errors != 2 || doc.Skipped != 1 {
		t.Fatalf("totals tests=%d failures=%d errors=%d skipped=%d", doc.Tests, doc.Failures, doc.Errors, doc.Skipped)
	}
	names := []string{}
	for _, s := range doc.Suites {
		names = append(names, s.Name)
		for _, c := range s.Cases {
			if c.Classname != s.Name {
				t.Errorf("%s: classname %q, want the suite %q", c.Name, c.Classname, s.Name)
			}
		}
	}
	if strings.Join(names, ",") != "discovery,lifecycle,webhook,rollout" {
		t.Fatalf("suites = %v", names)
	}
	byID := map[string]junitCase{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			id, _, _ := strings.Cut(c.Name, ": ")
			byID[id] = c
		}
	}
	check := func(id string, ok bool, what string) {
		t.Helper()
		if !ok {
			t.Errorf("%s: %s; got %+v", id, what, byID[id])
		}
	}
	c := byID["LIFE-012"]
	check("LIFE-012", c.Name == "LIFE-012: A terminal task never changes state again", "name is ID: title")
	check("LIFE-012", c.Failure != nil && c.Failure.Type == "fail" && strings.Contains(c.Failure.Text, "terminal-immutable at task t-9"), "failure with violations")
	check("LIFE-012", c.Time == "2.480", "time in seconds")
	check("LIFE-012", strings.Contains(c.SystemOut, "#7 +1.520 s POST http://127.0.0.1:41833/a2a → 200") && strings.Contains(c.SystemOut, "3 SSE events"), "transcript summary in system-out")
	c = byID["PUSH-003"]
	check("PUSH-003", c.Error != nil && c.Error.Type == "could-not-run" && strings.Contains(c.Error.Message, "--webhook-url"), "error typed could-not-run")
	c = byID["LIFE-020"]
	check("LIFE-020", c.Error != nil && c.Error.Type == "indeterminate", "error typed indeterminate")
	c = byID["DISC-007"]
	check("DISC-007", c.Skipped != nil && c.Failure == nil && c.Error == nil, "skipped")
	c = byID["DISC-004"]
	check("DISC-004", c.Failure == nil && c.Error == nil && c.Skipped == nil && strings.Contains(c.SystemOut, "warn DISC-004"), "warn passes with a note")
	c = byID["LIFE-001"]
	check("LIFE-001", c.Properties != nil && slices.Contains(c.Properties.Property, junitProperty{"tckLevel", LevelMust}), "tckLevel property")
	c = byID["DISC-001"]
	check("DISC-001", c.Failure == nil && c.Error == nil && c.Skipped == nil, "pass")
}

func TestJUnitEscapesAndCaps(t *testing.T) {
	r := sampleReport("Acme </testsuites> & \"co\"", "1")
	r.Results[5].Reason = "]]></failure><script>\x00\x1b" + strings.Repeat("r", 20<<10)
	for i := 0; i < 200; i++ {
		r.Results[5].Transcript = append(r.Results[5].Transcript, Exchange{Seq: i, Method: "GET", URL: "http://127.0.0.1/" + strings.Repeat("u", 1000), Status: 200})
	}
	doc, raw := readJUnit(t, r)
	if !strings.HasPrefix(doc.Name, "a2a-conform: Acme </testsuites> & \"co\"") {
		t.Errorf("name did not round-trip: %q", doc.Name)
	}
	var c junitCase
	for _, s := range doc.Suites {
		for _, x := range s.Cases {
			if strings.HasPrefix(x.Name, "LIFE-012") {
				c = x
			}
		}
	}
	if c.Failure == nil || !strings.HasPrefix(c.Failure.Message, "]]></failure><script>") {
		t.Fatalf("failure message did not round-trip: %+v", c.Failure)
	}
	if len(c.Failure.Message) > junitMaxMessage+8 || len(c.Failure.Text) > 2*junitMaxText+200 {
		t.Errorf("failure not capped: message %d bytes, text %d bytes", len(c.Failure.Message), len(c.Failure.Text))
	}
	if len(c.SystemOut) > junitMaxOut+100 || !strings.Contains(c.SystemOut, "more") {
		t.Errorf("system-out not capped: %d bytes", len(c.SystemOut))
	}
	if len(raw) > 200<<10 {
		t.Errorf("junit.xml is %d bytes for 11 specs", len(raw))
	}
}

func TestJUnitUnreachable(t *testing.T) {
	r := sampleReport("Dead", "1")
	r.Run.Unreachable = true
	doc, _ := readJUnit(t, r)
	var unreachable bool
	for _, p := range doc.Properties.Property {
		if p.Name == "unreachable" && p.Value == "true" {
			unreachable = true
		}
		if p.Name == "score" && !strings.HasPrefix(p.Value, "0/") {
			t.Errorf("unreachable run scored %s", p.Value)
		}
	}
	if !unreachable {
		t.Error("no unreachable property")
	}
	if doc.Errors < 5 {
		t.Errorf("passes recorded in an unreachable run are not errors: %d errors", doc.Errors)
	}
}

// Every testcase carries its spec's basis as a property, and a failure's
// text ends with it: a CI log shows the words a fail rests on.
func TestJUnitCarriesTheBasis(t *testing.T) {
	r := sampleReport("Acme", "1")
	b := &Basis{Quotes: []Quote{{Text: "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart.", Version: "1.0.1", File: "docs/topics/life-of-a-task.md"}},
		Reading: "No single MUST sentence states this invariant."}
	for i := range r.Results {
		r.Results[i].Basis = b
	}
	doc, _ := readJUnit(t, r)
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			var prop string
			for _, p := range c.Properties.Property {
				if p.Name == "basis" {
					prop = p.Value
				}
			}
			if !strings.Contains(prop, "A2A v1.0.1 docs/topics/life-of-a-task.md: \u201cOnce a task reaches") {
				t.Errorf("%s: basis property %q", c.Name, prop)
			}
			if c.Failure != nil && !strings.Contains(c.Failure.Text, "Basis (the A2A text, word for word):\nA2A v1.0.1 docs/topics/life-of-a-task.md") {
				t.Errorf("%s: the failure's text does not end with its basis: %q", c.Name, c.Failure.Text)
			}
		}
	}
}

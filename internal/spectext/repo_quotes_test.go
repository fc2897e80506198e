package spectext

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The project's own check of what ../shared/tools/check-quotes checks, over
// everything a vendor reads: a passage in quotation marks that follows a
// citation of the A2A specification is the specification's words (or, after
// a scenario's citation, the scenario's, as docs/scenarios.md quotes it).

var (
	citation = regexp.MustCompile(`(A2A v1\.0(\.1)? §|§\s?\d|a2a\.proto|life-of-a-task|specification\.md|streaming-and-async|agent-discovery)`)
	rfc      = regexp.MustCompile(`RFC \d+[^\n]{0,12}$`)
	// A quote: straight or curly double quotes, 25 characters or more.
	quoted = regexp.MustCompile(`"([^"\n]{25,}?)"|\x{201c}([^\x{201d}\n]{25,}?)\x{201d}`)
	// In Go source, a quote stands escaped inside a string literal, or plain
	// in a comment.
	goEscaped = regexp.MustCompile(`\\"([^"\\\n]{25,}?)\\"|\x{201c}([^\x{201d}\n]{25,}?)\x{201d}`)
	goComment = regexp.MustCompile(`(?m)^\s*//.*$`)
)

// quotesIn yields each quotation (that is not a path, having no space) of path's text that follows a citation.
func quotesIn(path, text string) (out []struct {
	line int
	q    string
}) {
	add := func(re *regexp.Regexp, s string, base int) {
		for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
			q := ""
			if m[2] >= 0 {
				q = s[m[2]:m[3]]
			} else {
				q = s[m[4]:m[5]]
			}
			start := base + m[0]
			before := text[max(0, start-200):start]
			loc := citation.FindAllStringIndex(before, -1)
			if loc == nil {
				continue
			}
			// The nearest citation is an RFC's section, not the A2A text's.
			if rfc.MatchString(before[:loc[len(loc)-1][0]+1]) || strings.Contains(before[max(0, loc[len(loc)-1][0]-14):loc[len(loc)-1][0]], "RFC") {
				continue
			}
			if !strings.Contains(q, " ") || strings.ContainsAny(q, "%{") || strings.ContainsAny(q[:1], " .,;:)") || strings.HasSuffix(q, " ") {
				continue // a format string, or the text between two quotes
			}
			out = append(out, struct {
				line int
				q    string
			}{strings.Count(text[:start], "\n") + 1, q})
		}
	}
	if strings.HasSuffix(path, ".json") {
		// A JSON string is in quotation marks itself: a quote stands
		// escaped inside it.
		add(goEscaped, text, 0)
		return out
	}
	if strings.HasSuffix(path, ".go") {
		add(goEscaped, text, 0)
		for _, m := range goComment.FindAllStringIndex(text, -1) {
			add(quoted, text[m[0]:m[1]], m[0])
		}
		return out
	}
	add(quoted, text, 0)
	return out
}

func TestEveryQuoteIsTheSpecificationsOwnWords(t *testing.T) {
	root := filepath.Join("..", "..")
	scen, err := os.ReadFile(filepath.Join(root, "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	scenarios := Fold(string(scen))
	load()
	var all strings.Builder
	for _, f := range Files() {
		all.WriteString(texts[f])
		all.WriteString(" \n ")
	}
	corpus := all.String()
	checked := 0
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			switch rel {
			case ".git", "node_modules", filepath.Join("internal", "spectext", "spec-v1.0.1"):
				return filepath.SkipDir
			}
			if d.Name() == "node_modules" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, "_test.go") || !(strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".tmpl")) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, q := range quotesIn(p, string(b)) {
			checked++
			ok := true
			for _, piece := range pieces.Split(q.q, -1) {
				f := Fold(piece)
				if len(f) < 8 {
					continue
				}
				if !strings.Contains(corpus, f) && !strings.Contains(scenarios, f) {
					ok = false
				}
			}
			if !ok {
				t.Errorf("%s:%d: in quotation marks after a citation of the A2A text, but not its words: %q", rel, q.line, q.q)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no quotation checked: the scan found nothing")
	}
	t.Logf("%d quotations checked", checked)
}

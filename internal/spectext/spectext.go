// Package spectext holds the pinned text of the A2A specification (v1.0.1,
// with its licence) and finds quotations in it: a spec's basis is the
// specification's own words or it is not a quote.
//
// A quotation is compared with the text after folding what Markdown and
// line wrapping change without changing the words: emphasis (*, _),
// backticks, backslash escapes, curly quotes and runs of white space, and
// letter case. A quotation may join pieces with "…" (or "..."); each piece
// must then stand in the same place, in order.
package spectext

import (
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Version is the specification version the pinned text is.
const Version = "1.0.1"

//go:embed spec-v1.0.1
var pinned embed.FS

const root = "spec-v1.0.1"

// Files lists the paths of the pinned text, as they stand in the
// specification's repository ("docs/specification.md", …).
func Files() []string {
	load()
	var out []string
	for f := range texts {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

var (
	once     sync.Once
	texts    map[string]string            // file → folded text
	sections map[string]map[string]string // file → section number → folded text of it and its subsections
)

// heading matches a numbered Markdown heading: "#### 3.1.5. Cancel Task",
// "### 3.6 Versioning", "## Appendix A. Migration…", "### A.1 Legacy…".
var heading = regexp.MustCompile(`^#{1,6}\s+(?:Appendix\s+)?((?:\d+|[A-Z])(?:\.\d+)*)\.?\s`)

func load() {
	once.Do(func() {
		texts = map[string]string{}
		sections = map[string]map[string]string{}
		err := fs.WalkDir(pinned, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			name := strings.TrimPrefix(p, root+"/")
			if !strings.HasSuffix(name, ".md") && !strings.HasSuffix(name, ".proto") || name == "README.md" {
				return nil
			}
			b, err := pinned.ReadFile(p)
			if err != nil {
				return err
			}
			raw := string(b)
			if strings.HasSuffix(name, ".proto") {
				raw = regexp.MustCompile(`(?m)^\s*//\s?`).ReplaceAllString(raw, "")
			}
			texts[name] = Fold(raw)
			if strings.HasSuffix(name, ".md") {
				sections[name] = split(raw)
			}
			return nil
		})
		if err != nil {
			panic("spectext: the embedded specification cannot be read: " + err.Error())
		}
	})
}

// split gives the folded text of each numbered section of a Markdown file,
// each including its subsections (and any unnumbered headings inside it).
func split(raw string) map[string]string {
	own := map[string]*strings.Builder{}
	var order []string
	cur := ""
	for _, line := range strings.Split(raw, "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			cur = m[1]
			if own[cur] == nil {
				own[cur] = &strings.Builder{}
				order = append(order, cur)
			}
		}
		if cur != "" {
			own[cur].WriteString(line)
			own[cur].WriteByte('\n')
		}
	}
	out := map[string]string{}
	for _, s := range order {
		var b strings.Builder
		for _, t := range order {
			if t == s || strings.HasPrefix(t, s+".") {
				b.WriteString(own[t].String())
			}
		}
		out[s] = Fold(b.String())
	}
	return out
}

var (
	markup = regexp.MustCompile("[`*_\\\\]")
	space  = regexp.MustCompile(`\s+`)
	pieces = regexp.MustCompile(`\s*(?:\.\.\.|…)\s*`)
)

// Fold is the form in which quotation and text are compared.
func Fold(s string) string {
	s = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u201c", `"`, "\u201d", `"`, "\u00a0", " ").Replace(s)
	s = markup.ReplaceAllString(s, "")
	s = space.ReplaceAllString(s, " ")
	return strings.ToLower(strings.TrimSpace(s))
}

// Find reports whether quote stands word for word in file (a path in the
// specification's repository), within section when one is given (a
// section of docs/specification.md, subsections included). It returns nil
// when it does, or an error that says what was not found.
func Find(quote, file, section string) error {
	load()
	whole, ok := texts[file]
	if !ok {
		return fmt.Errorf("no file %q in the pinned A2A v%s text (have %s)", file, Version, strings.Join(Files(), ", "))
	}
	in := whole
	where := file
	if section != "" {
		s, ok := sections[file][section]
		if !ok {
			return fmt.Errorf("no section %s in %s", section, file)
		}
		in, where = s, file+" §"+section
	}
	at := 0
	n := 0
	for _, p := range pieces.Split(quote, -1) {
		f := Fold(p)
		if f == "" {
			continue
		}
		i := strings.Index(in[at:], f)
		if i < 0 {
			if section != "" && strings.Contains(whole, f) {
				return fmt.Errorf("%q is in %s, but not in §%s", p, file, section)
			}
			return fmt.Errorf("%q is not in %s", p, where)
		}
		at += i + len(f)
		n++
	}
	if n == 0 {
		return fmt.Errorf("the quotation is empty")
	}
	return nil
}

// Sections lists the numbered sections of a Markdown file of the text.
func Sections(file string) []string {
	load()
	var out []string
	for s := range sections[file] {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

package cli

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkColumns says whether every row (a line not indented) has each header
// column starting at the header's offset, with a space before it.
func checkColumns(t *testing.T, what, out string, columns ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	header := lines[0]
	var at []int
	for _, c := range columns {
		i := strings.Index(header, c)
		if i < 0 {
			t.Fatalf("%s: header %q lacks %q", what, header, c)
		}
		at = append(at, utf8.RuneCountInString(header[:i]))
	}
	rows := 0
	for _, l := range lines[1:] {
		if l == "" || strings.HasPrefix(l, " ") || strings.HasPrefix(l, "Each fault") {
			continue
		}
		rows++
		r := []rune(l)
		for k, i := range at {
			if i >= len(r) || r[i-1] != ' ' || r[i] == ' ' {
				t.Errorf("%s: column %s does not start at %d in %q", what, columns[k], i, l)
				break
			}
		}
	}
	if rows < 10 {
		t.Fatalf("%s: only %d rows:\n%s", what, rows, out)
	}
}

// `list` and `fake --list-faults` print aligned columns (issue 20), however
// long a spec's sections or a fault's list of specs.
func TestListColumnsAlign(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := listCmd(nil, &out, &errb); code != 0 {
		t.Fatalf("list: %d %s", code, errb.String())
	}
	checkColumns(t, "list", out.String(), "LEVEL", "SUITE", "SECTIONS", "SCEN", "TITLE")
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "TCK:") && !strings.HasPrefix(l, "          TCK:") {
			t.Errorf("a TCK line is not under the LEVEL column: %q", l)
		}
	}
}

func TestListFaultsColumnsAlign(t *testing.T) {
	t.Parallel()
	var out, all bytes.Buffer
	if code := Main([]string{"fake", "--list-faults"}, &all, &out); code != 0 {
		t.Fatalf("fake --list-faults: %d", code)
	}
	checkColumns(t, "fake --list-faults", all.String(), "SCEN", "CAUGHT BY", "WHAT IT BREAKS")
	for _, l := range strings.Split(all.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > 200 {
			t.Errorf("a %d-rune line: %q", n, l)
		}
	}
}

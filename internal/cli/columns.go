package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/suites"
)

// table prints rows in aligned columns: every column but the last is padded
// to its widest cell (counted in runes), so no long cell pushes the rest of
// its row out of line. A row's extra lines (under) follow it, indented to
// the second column.
type table struct {
	rows  [][]string
	under [][]string
}

func (t *table) add(cells []string, under ...string) {
	t.rows = append(t.rows, cells)
	t.under = append(t.under, under)
}

func (t *table) write(w io.Writer) {
	var width []int
	for _, r := range t.rows {
		for i, c := range r[:len(r)-1] {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	indent := ""
	if len(width) > 0 {
		indent = strings.Repeat(" ", width[0]+2)
	}
	for n, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		for _, u := range t.under[n] {
			fmt.Fprintln(w, indent+u)
		}
	}
}

// listTable is `a2a-conform list`: one row per spec, its TCK requirements
// on a line below.
func listTable(w io.Writer, infos []suites.Info) {
	var t table
	t.add([]string{"ID", "LEVEL", "SUITE", "SECTIONS", "SCEN", "TITLE"})
	for _, i := range infos {
		var under []string
		if len(i.TCK) > 0 {
			under = append(under, fmt.Sprintf("TCK: %s (TCK level %s)", strings.Join(i.TCK, ", "), suites.TCKLevel(i)))
		}
		if b := i.Basis(); b != nil {
			for _, q := range b.Quotes {
				under = append(under, q.Cite()+": \u201c"+q.Text+"\u201d")
			}
		}
		t.add([]string{i.ID, string(i.Level), i.Suite, suites.Cut(strings.Join(i.Sections, ","), sectionsWidth), dash(i.Scenario), i.Title}, under...)
	}
	t.write(w)
}

// faultsTable is `a2a-conform fake --list-faults`: one row per fault, the
// scenario by its number (docs/scenarios.md), the specs that catch it.
func faultsTable(w io.Writer, faults []fakes.FaultInfo) {
	var t table
	t.add([]string{"FAULT", "SCEN", "CAUGHT BY", "WHAT IT BREAKS"})
	for _, f := range faults {
		t.add([]string{f.Name, scenarioNumber(f.Scenario), suites.Cut(dash(strings.Join(f.Specs, ",")), caughtWidth), suites.Cut(f.Description, descriptionWidth)})
	}
	t.write(w)
	fmt.Fprintln(w, "\nEach fault in full, with the specs it breaks: docs/fault-matrix.md.")
}

// Long cells are cut so that a row stays readable; `explain ID` gives a
// spec's every section, docs/fault-matrix.md a fault's whole description.
const (
	sectionsWidth    = 20
	caughtWidth      = 30
	descriptionWidth = 110
)

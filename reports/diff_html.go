package reports

import (
	"fmt"
	"slices"
	"strings"
)

// htmlDiffMaxRows bounds the rows of report.html's "Changes since the
// previous report"; `a2a-conform diff` lists every change.
const htmlDiffMaxRows = 500

// HTMLOptions add views to report.html that are not in the report itself.
type HTMLOptions struct {
	// Diff, when set, is the comparison of an earlier report with this one
	// (DiffReports(previous, this, …)): the page shows it as "Changes since
	// the previous report", under the headline.
	Diff *ReportDiff
}

type diffView struct {
	Tally       string
	Regressions int
	Previous    string
	Problems    []string
	Differences []string
	Sections    []diffSection
	Cut         int
}

type diffSection struct {
	Title string
	Rows  []diffRow
}

type diffRow struct {
	ID, Level, Why       string
	Kind                 string
	Was, WasClass        string
	Now, NowClass        string
	Reason, ReasonBefore string
	// Anchor: the spec is in this report, and its row has the anchor #ID.
	Anchor bool
}

// buildDiffView turns a comparison into what the template shows; every
// string in it is bounded by DiffReports and escaped by html/template.
func buildDiffView(d *ReportDiff) *diffView {
	if d == nil {
		return nil
	}
	f := func(s string) string { return cutUTF8(s, htmlMaxField) }
	p := d.Old
	prev := strings.TrimSpace(f(p.Implementation.Name) + " " + f(p.Implementation.Version))
	if !p.Start.IsZero() {
		prev += ", run started " + p.Start.UTC().Format("2006-01-02 15:04 UTC")
	}
	prev += fmt.Sprintf(", %d/%d passed", p.Score.Passed, p.Score.Denominator)
	if where := strings.Join(slices.DeleteFunc([]string{f(p.File), shortDigest(p.Digest)}, func(s string) bool { return s == "" }), ", "); where != "" {
		prev += " (" + where + ")"
	}
	v := &diffView{Tally: d.Tally(), Regressions: d.Regressions(), Previous: prev, Problems: p.Problems, Differences: d.Differences}
	shown := 0
	for _, kind := range changeOrder {
		var sec *diffSection
		for _, c := range d.Changes {
			if c.Change != kind {
				continue
			}
			if shown == htmlDiffMaxRows {
				v.Cut++
				continue
			}
			if sec == nil {
				v.Sections = append(v.Sections, diffSection{Title: changeHeadings[kind]})
				sec = &v.Sections[len(v.Sections)-1]
			}
			shown++
			row := diffRow{ID: c.ID, Level: c.Level, Why: c.Why, Kind: string(kind), Anchor: c.New != "",
				Was: verdictLabel(c.Old), WasClass: verdictClass(c.Old), Now: verdictLabel(c.New), NowClass: verdictClass(c.New)}
			switch {
			case kind == Reworded:
				row.ReasonBefore, row.Reason = c.OldReason, c.NewReason
			case c.New == "":
				row.Reason = c.OldReason
			default:
				row.Reason = c.NewReason
			}
			sec.Rows = append(sec.Rows, row)
		}
	}
	return v
}

package reports

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The comparison of two reports: what changed since an earlier run, spec by
// spec (`a2a-conform diff OLD NEW`, and the "Changes since the previous
// report" section of report.html with run --previous). The rule that sorts a
// change into regression, improvement or neither is ClassifyChange;
// docs/report-format.md "Comparing two reports" is its documentation.

// DiffKind is the kind of document `diff --format json` writes.
const DiffKind = "ReportDiff"

// Change is how one spec's outcome moved from the old report to the new.
type Change string

const (
	// Regressed: the new report vouches for less (a pass lost, whatever
	// replaced it, even absence) or finds worse (a fail, or a warn, where the
	// old found nothing as bad). `diff` exits 1 on any.
	Regressed Change = "regression"
	// Improved: a pass gained, or a fail that is now only a warn.
	Improved Change = "improvement"
	// Shifted: the verdict changed and neither report is better: a fail or
	// warn no longer judged (could-not-run, indeterminate, not-applicable),
	// which is not shown fixed, or one unjudged verdict for another.
	Shifted Change = "changed"
	// Reworded: the same verdict for another reason (ids and numbers
	// masked, see sameReason).
	Reworded Change = "reason"
	// Added: only in the new report.
	Added Change = "added"
	// Removed: only in the old report, where it did not pass (a pass that
	// disappears is Regressed).
	Removed Change = "removed"
	// Same: the same verdict for the same reason.
	Same Change = ""
)

// changeOrder is the order of DiffReport.Changes and of every view.
var changeOrder = []Change{Regressed, Improved, Shifted, Reworded, Added, Removed}

// Bounds on the vendor's text a ReportDiff carries; the views cut further.
const (
	diffMaxReason = 2 << 10
	diffMaxTitle  = 300
	diffMaxField  = 200
)

// severity is what a verdict finds wrong: a fail more than a warn, a warn
// more than nothing. Every other verdict, unknown ones included, finds
// nothing (and, but for pass, vouches for nothing either).
func severity(v Verdict) int {
	switch v {
	case Fail:
		return 2
	case Warn:
		return 1
	}
	return 0
}

// ClassifyChange sorts the move of one spec from verdict old to verdict new
// ("" for a report that lacks the spec) and says why in a few words. The
// rule, in order:
//
//   - same verdict: Same (the caller compares reasons);
//   - absent before: Added; absent now: Regressed if it passed, else Removed;
//   - a pass lost, whatever replaced it: Regressed. could-not-run,
//     indeterminate and not-applicable are never passes: a spec that passed
//     and is now one of them is no longer vouched for;
//   - a worse finding (fail > warn > none): Regressed, so a could-not-run
//     that became a fail is a new fail;
//   - a pass gained: Improved; a fail that is now a warn: Improved;
//   - anything else: Shifted. A fail or warn that is now not judged is not
//     shown fixed, so it is not an improvement; nothing that both reports
//     judged got worse, so it is not a regression either.
func ClassifyChange(old, new Verdict) (Change, string) {
	switch {
	case old == new:
		return Same, ""
	case old == "":
		return Added, "only in the new report"
	case new == "" && old == Pass:
		return Regressed, "passed, no longer run"
	case new == "":
		return Removed, "only in the old report"
	case old == Pass:
		switch new {
		case Fail:
			return Regressed, "passed, now fails"
		case Warn:
			return Regressed, "passed, now a SHOULD is not met"
		}
		return Regressed, "passed, no longer judged (" + unjudged(new) + ")"
	case severity(new) > severity(old):
		if new == Fail {
			return Regressed, "a new fail"
		}
		return Regressed, "a new warn (a SHOULD not met)"
	case new == Pass:
		return Improved, "now passes"
	case old == Fail && new == Warn:
		return Improved, "no longer fails; a SHOULD is still not met"
	case severity(old) > 0:
		return Shifted, "no longer judged (" + unjudged(new) + "): the " + string(old) + " is not shown fixed"
	}
	return Shifted, "still not judged"
}

// unjudged names a verdict that judges nothing, for ClassifyChange's words.
func unjudged(v Verdict) string {
	if v.Known() {
		return string(v)
	}
	return "unknown verdict " + strconv.Quote(cutUTF8(string(v), 40))
}

// ReportDiff is what changed between two reports, spec by spec.
type ReportDiff struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Old        DiffSide `json:"old"`
	New        DiffSide `json:"new"`
	// Differences says how the two runs differ in what they were (their
	// requirement sets, targets, harness versions, seeds, selections):
	// the comparison is still made, and a reader weighs it by these.
	Differences []string `json:"differences,omitempty"`
	// Counts has one entry per kind of change, zeros included, and
	// "unchanged".
	Counts  map[string]int `json:"counts"`
	Changes []SpecChange   `json:"changes"`
}

// DiffSide is one of the two reports, as the comparison shows it.
type DiffSide struct {
	// File is the path the report was read from, when it was read from one.
	File           string         `json:"file,omitempty"`
	Implementation Implementation `json:"implementation"`
	Harness        string         `json:"harness"`
	Requirements   string         `json:"requirements,omitempty"`
	Target         string         `json:"target,omitempty"`
	Seed           int64          `json:"seed"`
	Start          time.Time      `json:"start"`
	Digest         string         `json:"digest,omitempty"`
	// Score is recomputed from the results, not taken from the file.
	Score Score `json:"score"`
	// Problems says why the report does not verify, when it does not: its
	// figures may have been edited.
	Problems []string `json:"problems,omitempty"`
}

// SpecChange is one spec whose outcome changed.
type SpecChange struct {
	ID     string `json:"id"`
	Title  string `json:"title,omitempty"`
	Level  string `json:"level,omitempty"`
	Change Change `json:"change"`
	Why    string `json:"why"`
	// Old and New are the verdicts, empty where that report lacks the spec.
	Old       Verdict `json:"old,omitempty"`
	New       Verdict `json:"new,omitempty"`
	OldReason string  `json:"oldReason,omitempty"`
	NewReason string  `json:"newReason,omitempty"`
}

// Regressions counts the changes that make `diff` exit 1.
func (d *ReportDiff) Regressions() int { return d.Counts[string(Regressed)] }

// DiffReports compares old with new spec by spec, by spec ID. Within one
// report the first result of an ID counts (a report that lists an ID twice
// does not verify, and its problems say so). oldFile and newFile only name
// the reports in the views; problems, when given, are why each does not
// verify. Nothing in it is trusted: every string is bounded here, and every
// view escapes it.
func DiffReports(old, new *Report, oldFile, newFile string, oldProblems, newProblems []Problem) *ReportDiff {
	d := &ReportDiff{APIVersion: APIVersion, Kind: DiffKind, Counts: map[string]int{}}
	d.Old, d.New = diffSide(old, oldFile, oldProblems), diffSide(new, newFile, newProblems)
	d.Differences = runDifferences(old, new)

	first := func(r *Report) (map[string]*Result, []string) {
		m := map[string]*Result{}
		var ids []string
		for i := range r.Results {
			res := &r.Results[i]
			if _, dup := m[res.ID]; !dup {
				m[res.ID] = res
				ids = append(ids, res.ID)
			}
		}
		return m, ids
	}
	olds, oldIDs := first(old)
	news, newIDs := first(new)
	ids := append(newIDs, oldIDs...)
	for _, k := range changeOrder {
		d.Counts[string(k)] = 0
	}
	d.Counts["unchanged"] = 0
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		o, n := olds[id], news[id]
		var ov, nv Verdict
		var or, nr string
		if o != nil {
			ov, or = present(o.Verdict), o.Reason
		}
		if n != nil {
			nv, nr = present(n.Verdict), n.Reason
		}
		kind, why := ClassifyChange(ov, nv)
		if kind == Same {
			if sameReason(or, nr) {
				d.Counts["unchanged"]++
				continue
			}
			kind, why = Reworded, "same verdict, another reason"
		}
		c := SpecChange{ID: cutUTF8(id, diffMaxField), Change: kind, Why: why, Old: cutVerdict(ov), New: cutVerdict(nv),
			OldReason: cutReason(or), NewReason: cutReason(nr)}
		meta := n
		if meta == nil {
			meta = o
		}
		c.Title, c.Level = cutUTF8(meta.Title, diffMaxTitle), cutUTF8(meta.Level, 40)
		d.Counts[string(kind)]++
		d.Changes = append(d.Changes, c)
	}
	slices.SortStableFunc(d.Changes, func(a, b SpecChange) int {
		if x, y := slices.Index(changeOrder, a.Change), slices.Index(changeOrder, b.Change); x != y {
			return x - y
		}
		return compareSpecIDs(a.ID, b.ID)
	})
	return d
}

// noVerdict stands for a result that has no verdict at all (a report that
// does not verify), which ClassifyChange must not read as an absent spec.
const noVerdict Verdict = "(no verdict)"

func present(v Verdict) Verdict {
	if v == "" {
		return noVerdict
	}
	return v
}

func cutVerdict(v Verdict) Verdict { return Verdict(cutUTF8(string(v), 40)) }

func cutReason(s string) string {
	if len(s) <= diffMaxReason {
		return s
	}
	return cutUTF8(s, diffMaxReason) + " …"
}

func diffSide(r *Report, file string, problems []Problem) DiffSide {
	f := func(s string) string { return cutUTF8(s, diffMaxField) }
	s := DiffSide{
		File:           f(file),
		Implementation: Implementation{Name: f(r.Implementation.Name), Version: f(r.Implementation.Version), Role: f(r.Implementation.Role)},
		Harness:        f(strings.TrimSpace(r.Harness.Name + " " + r.Harness.Version)),
		Requirements:   f(r.Run.Requirements),
		Target:         f(r.Run.Target),
		Seed:           r.Run.Seed,
		Start:          r.Run.Start,
		Digest:         f(r.Digest),
		Score:          SummarizeReport(r).Score,
	}
	for i, p := range problems {
		if i == 5 {
			s.Problems = append(s.Problems, fmt.Sprintf("and %d more", len(problems)-i))
			break
		}
		s.Problems = append(s.Problems, cutUTF8(p.String(), diffMaxField))
	}
	return s
}

// runDifferences names what differs between the two runs beyond their
// results, each as "what: old → new". A release's version is expected to
// change and is not listed.
func runDifferences(old, new *Report) []string {
	var out []string
	f := func(s string) string {
		if s = cutUTF8(strings.TrimSpace(s), diffMaxField); s == "" {
			return "(none)"
		}
		return s
	}
	add := func(what, a, b, note string) {
		if a != b {
			line := what + ": " + f(a) + " → " + f(b)
			if note != "" {
				line += " (" + note + ")"
			}
			out = append(out, line)
		}
	}
	list := func(l []string) string { return strings.Join(l, ",") }
	add("implementation", old.Implementation.Name, new.Implementation.Name, "another implementation")
	add("role", old.Implementation.Role, new.Implementation.Role, "an agent and a client share no spec")
	add("requirement set", old.Run.Requirements, new.Run.Requirements, "the spec list or levels differ: added and removed specs may come from that alone")
	add("harness", old.Harness.Version, new.Harness.Version, "checks may differ between versions")
	add("protocol", old.ProtocolVersion, new.ProtocolVersion, "")
	if old.Run.Topology != "embedded" || new.Run.Topology != "embedded" {
		// An embedded run's target is the harness's own agent on a port of
		// the moment: not worth a line.
		add("target", old.Run.Target, new.Run.Target, "")
	}
	add("topology", old.Run.Topology, new.Run.Topology, "specs that need a topology the other lacked could not run there")
	add("seed", strconv.FormatInt(old.Run.Seed, 10), strconv.FormatInt(new.Run.Seed, 10), "race and order-dependent verdicts may differ with the seed")
	add("suites", list(old.Run.Suites), list(new.Run.Suites), "another selection")
	add("label filter", old.Run.LabelFilter, new.Run.LabelFilter, "another selection")
	add("focus", list(old.Run.Focus), list(new.Run.Focus), "another selection")
	add("faults injected", list(old.Run.Faults), list(new.Run.Faults), "")
	for _, side := range []struct {
		name string
		r    *Report
	}{{"old", old}, {"new", new}} {
		if side.r.Run.Unreachable {
			out = append(out, "the "+side.name+" run could not reach its target: none of its specs was judged")
		}
		if side.r.Run.Interrupted != "" {
			out = append(out, "the "+side.name+" run was interrupted ("+f(side.r.Run.Interrupted)+"): it is partial")
		}
	}
	return out
}

// Reasons name the run's own task ids, sequence numbers and timings, which
// change from run to run; masked, a reason that says the same thing of
// another task compares equal.
var (
	reasonUUID   = regexp.MustCompile(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	reasonHex    = regexp.MustCompile(`(?i)\b[0-9a-f]*[0-9][0-9a-f]*[a-f][0-9a-f]*\b|\b[0-9a-f]*[a-f][0-9a-f]*[0-9][0-9a-f]*\b`)
	reasonNumber = regexp.MustCompile(`[0-9]+`)
)

// sameReason compares two reasons with whitespace collapsed and every id
// (UUID, or a hex token mixing letters and digits) and number masked.
func sameReason(a, b string) bool {
	if a == b {
		return true
	}
	return maskReason(a) == maskReason(b)
}

func maskReason(s string) string {
	s = reasonUUID.ReplaceAllString(s, "<id>")
	s = reasonHex.ReplaceAllString(s, "<id>")
	s = reasonNumber.ReplaceAllString(s, "0")
	return strings.Join(strings.Fields(s), " ")
}

// Bounds of the Markdown view: a CI job summary (GitHub caps one at 1 MiB)
// must stay whole, so rows stop at mdDiffBudget bytes, with a line saying
// how many were left out.
const (
	mdDiffMaxRows   = 200 // per section
	mdDiffMaxReason = 240
	mdDiffBudget    = 768 << 10
)

// changeHeadings title each section of the views.
var changeHeadings = map[Change]string{
	Regressed: "Regressions",
	Improved:  "Improvements",
	Shifted:   "Changed, neither better nor worse",
	Reworded:  "Reason changed, same verdict",
	Added:     "Added: only in the new report",
	Removed:   "Removed: only in the old report (and not passed there)",
}

// Tally is the one-line count: "2 regressions · 1 improvement · …".
func (d *ReportDiff) Tally() string { return strings.Join(d.tallyParts(), " · ") }

func (d *ReportDiff) tallyParts() []string {
	plural := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + many
	}
	c := d.Counts
	return []string{
		plural(c[string(Regressed)], "regression", "regressions"),
		plural(c[string(Improved)], "improvement", "improvements"),
		strconv.Itoa(c[string(Shifted)]) + " changed",
		plural(c[string(Reworded)], "reason changed", "reasons changed"),
		strconv.Itoa(c[string(Added)]) + " added",
		strconv.Itoa(c[string(Removed)]) + " removed",
		strconv.Itoa(c["unchanged"]) + " unchanged",
	}
}

// Markdown is the comparison for a CI job summary or a merge-request note:
// the tally, what differs between the runs, both reports side by side, then
// one table per kind of change, regressions first. Every vendor string is
// flattened, bounded and escaped (mdCell).
func (d *ReportDiff) Markdown() string {
	var b strings.Builder
	line := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	name := func(s DiffSide) string {
		return strings.TrimSpace(mdCell(s.Implementation.Name, 80) + " " + mdCell(s.Implementation.Version, 40))
	}
	line("## a2a-conform diff: %s → %s", name(d.Old), name(d.New))
	line("")
	parts := d.tallyParts()
	if d.Regressions() > 0 {
		parts[0] = "**" + parts[0] + "**"
	}
	line("%s", strings.Join(parts, " · "))
	for _, s := range []struct {
		which string
		side  DiffSide
	}{{"old", d.Old}, {"new", d.New}} {
		if len(s.side.Problems) > 0 {
			line("")
			line("**The %s report does not verify** (%s): its figures may have been edited.", s.which, mdCell(strings.Join(s.side.Problems, "; "), 400))
		}
	}
	if len(d.Differences) > 0 {
		line("")
		line("**The two runs differ**; the comparison is still made, spec by spec:")
		line("")
		for _, x := range d.Differences {
			line("- %s", mdCell(x, 400))
		}
	}
	line("")
	line("| | old | new |")
	line("| --- | --- | --- |")
	row := func(k string, f func(DiffSide) string) { line("| %s | %s | %s |", k, f(d.Old), f(d.New)) }
	row("report", func(s DiffSide) string { return mdCell(dashIfEmpty(s.File), 120) })
	row("implementation", name)
	row("score", func(s DiffSide) string {
		return fmt.Sprintf("%d/%d (%s%%), %d MUST/invariant failed", s.Score.Passed, s.Score.Denominator,
			strconv.FormatFloat(s.Score.Percent, 'f', -1, 64), s.Score.MustFailed)
	})
	row("harness", func(s DiffSide) string { return mdCell(s.Harness, 60) })
	row("requirement set", func(s DiffSide) string { return mdCell(dashIfEmpty(s.Requirements), 40) })
	row("seed", func(s DiffSide) string { return strconv.FormatInt(s.Seed, 10) })
	row("started", func(s DiffSide) string { return s.Start.UTC().Format("2006-01-02 15:04 UTC") })
	row("digest", func(s DiffSide) string { return mdCell(shortDigest(s.Digest), 40) })

	left := 0
	for _, kind := range changeOrder {
		var rows []SpecChange
		for _, c := range d.Changes {
			if c.Change == kind {
				rows = append(rows, c)
			}
		}
		if len(rows) == 0 {
			continue
		}
		if b.Len() > mdDiffBudget {
			left += len(rows)
			continue
		}
		line("")
		line("### %s (%d)", changeHeadings[kind], len(rows))
		line("")
		switch kind {
		case Reworded:
			line("| spec | level | verdict | reason before | reason now |")
			line("| --- | --- | --- | --- | --- |")
		case Added, Removed:
			line("| spec | level | verdict | title | reason |")
			line("| --- | --- | --- | --- | --- |")
		default:
			line("| spec | level | was | now | why | reason now |")
			line("| --- | --- | --- | --- | --- | --- |")
		}
		for i, c := range rows {
			if i == mdDiffMaxRows || b.Len() > mdDiffBudget {
				left += len(rows) - i
				break
			}
			id, level := mdCell(c.ID, 40), mdCell(c.Level, 12)
			switch kind {
			case Reworded:
				line("| %s | %s | %s | %s | %s |", id, level, mdCell(string(c.New), 40), mdCell(c.OldReason, mdDiffMaxReason), mdCell(c.NewReason, mdDiffMaxReason))
			case Added:
				line("| %s | %s | %s | %s | %s |", id, level, mdCell(string(c.New), 40), mdCell(c.Title, 160), mdCell(c.NewReason, mdDiffMaxReason))
			case Removed:
				line("| %s | %s | %s | %s | %s |", id, level, mdCell(string(c.Old), 40), mdCell(c.Title, 160), mdCell(c.OldReason, mdDiffMaxReason))
			default:
				now := c.NewReason
				if c.New == "" {
					now = "(not in the new report)"
				}
				line("| %s | %s | %s | %s | %s | %s |", id, level, mdCell(dashIfEmpty(string(c.Old)), 40), mdCell(dashIfEmpty(string(c.New)), 40),
					mdCell(c.Why, 200), mdCell(now, mdDiffMaxReason))
			}
		}
	}
	if left > 0 {
		line("")
		line("%d more changed specs are left out here to keep the summary small: `a2a-conform diff --format json` lists them all.", left)
	}
	line("")
	line("Regression: a pass lost (to any other verdict, or to absence) or a worse finding (fail > warn > none). Could-not-run, indeterminate and not-applicable are never passes.")
	return b.String()
}

package reports

import (
	"fmt"
	"html"
	"sort"
	"strconv"
	"strings"
)

// The Markdown summary of a report, for $GITHUB_STEP_SUMMARY and
// merge-request notes (`a2a-conform summary`, and DIR/summary.md of every
// run), and GitHub's workflow-command annotations (`summary --annotations`).
//
// Everything the agent controls (reasons quote it; its name is its card's)
// is escaped and bounded before it is printed: it must not break a table,
// inject HTML, or start a workflow command.

const (
	mdMaxRows        = 200 // GitHub caps a step summary at 1 MiB
	mdMaxReason      = 300
	mdMaxAnnotations = 10 // GitHub shows 10 annotations of each kind per step
)

// mdOrder puts failures first.
var mdOrder = []Verdict{Fail, Indeterminate, CouldNotRun, Warn, NotApplicable, Pass}

// MarkdownOptions tune the summary.
type MarkdownOptions struct {
	// Problems, when the report does not verify, are shown at the top.
	Problems []string
}

// mdCell flattens, bounds and escapes s for a Markdown table cell.
func mdCell(s string, n int) string {
	s = cutText(strings.Join(strings.Fields(s), " "), n)
	s = html.EscapeString(s)
	return strings.NewReplacer("|", "&#124;", "`", "&#96;", "[", "&#91;", "]", "&#93;").Replace(s)
}

func mdRank(v Verdict) int {
	for i, x := range mdOrder {
		if x == v {
			return i
		}
	}
	return 0
}

// nonPass are the results other than pass, failures first, then by ID.
func nonPass(r *Report) []Result {
	var out []Result
	for _, x := range r.Results {
		if x.Verdict != Pass || x.Flipped() {
			out = append(out, x)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := mdRank(out[i].Verdict), mdRank(out[j].Verdict)
		if a != b {
			return a < b
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Markdown is the report's summary: the headline, the baseline's outcome
// (failing rows first), the verdict counts, then every non-pass, failures
// first. Passing specs are in report.html.
func Markdown(r *Report, o MarkdownOptions) string {
	var b strings.Builder
	line := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	s := r.Summary
	name := mdCell(r.Implementation.Name, 80)
	if r.Implementation.Version != "" {
		name += " " + mdCell(r.Implementation.Version, 40)
	}
	line("## a2a-conform: %s", name)
	line("")
	if len(o.Problems) > 0 {
		line("**This report does not verify** (%s): do not trust its figures.", mdCell(strings.Join(o.Problems, "; "), 300))
		line("")
	}
	line("**%d of %d passed (%s%%)** · MUST/invariant failures: %d · harness %s · seed %d",
		s.Score.Passed, s.Score.Denominator, strconv.FormatFloat(s.Score.Percent, 'f', -1, 64),
		s.Score.MustFailed, mdCell(r.Harness.Version, 40), r.Run.Seed)
	if r.Run.Unreachable {
		line("")
		line("**The target could not be reached**: every spec is could-not-run (exit 3).")
	}
	if r.Run.Interrupted != "" {
		line("")
		line("**The run was interrupted (%s)**: this report is partial.", mdCell(r.Run.Interrupted, 20))
	}
	if b := r.Baseline; b != nil {
		writeBaselineMD(line, b)
	}
	line("")
	line("| verdict | specs |")
	line("| --- | --- |")
	for _, v := range mdOrder {
		if n := s.ByVerdict[v]; n > 0 {
			line("| %s | %d |", v, n)
		}
	}
	if s.Partial > 0 {
		line("| (partial: some part unchecked) | %d |", s.Partial)
	}
	results := nonPass(r)
	if len(results) > 0 {
		line("")
		line("| spec | verdict | level | title | reason |")
		line("| --- | --- | --- | --- | --- |")
		for i, x := range results {
			if i == mdMaxRows {
				line("")
				line("%d more in report.html.", len(results)-mdMaxRows)
				break
			}
			reason := x.Reason
			if len(x.Unchecked) > 0 {
				reason = "unchecked: " + strings.Join(x.Unchecked, "; ") + ". " + reason
			}
			verdict := string(x.Verdict)
			if len(x.Attempts) > 0 {
				verdict += " (" + attemptsText(x) + ")"
			}
			line("| %s | %s | %s | %s | %s |", mdCell(x.ID, 20), mdCell(verdict, 80), mdCell(x.Level, 12), mdCell(x.Title, 160), mdCell(reason, mdMaxReason))
		}
	}
	line("")
	line("Every spec, its transcript and the expected-vs-actual of each failure: report.html in the run's artifacts.")
	return b.String()
}

// attemptsText is "flaky: fail, then pass" or "2 retries: fail, fail".
func attemptsText(x Result) string {
	if x.Flipped() {
		return "flaky: " + attemptVerdicts(x)
	}
	return fmt.Sprintf("retried %d×: %s", len(x.Attempts), attemptVerdicts(x))
}

func writeBaselineMD(line func(string, ...any), b *Baseline) {
	line("")
	verdict := "holds: every non-pass is expected and every entry still true"
	if b.Failed > 0 {
		verdict = fmt.Sprintf("**%d row(s) fail the build**", b.Failed)
	}
	line("Baseline %s (`%s`): %s", mdCell(b.File, 120), mdCell(b.Digest, 80), verdict)
	if len(b.Entries) == 0 {
		return
	}
	line("")
	line("| outcome | spec | got | listed | why / reason |")
	line("| --- | --- | --- | --- | --- |")
	rows := append([]BaselineOutcome(nil), b.Entries...)
	sort.SliceStable(rows, func(i, j int) bool { return FailsGate(rows[i].Outcome) && !FailsGate(rows[j].Outcome) })
	for i, e := range rows {
		if i == mdMaxRows {
			line("")
			line("%d more rows in report.json.", len(rows)-mdMaxRows)
			break
		}
		why := e.Why
		if why == "" {
			why = e.Reason
		}
		outcome := e.Outcome
		if FailsGate(outcome) {
			outcome = "**" + outcome + "**"
		}
		line("| %s | %s | %s | %s | %s |", outcome, mdCell(e.ID, 20), mdCell(string(e.Got), 20), mdCell(e.Expected, 20), mdCell(why, mdMaxReason))
	}
}

// commandValue escapes a workflow command's message (GitHub's rules).
func commandValue(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func commandProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(commandValue(s))
}

// Annotations are GitHub workflow commands, one line each: ::error for each
// fail (at most 10) and for each baseline row that fails the build;
// ::warning for each flaky spec. Messages are escaped so that agent text
// cannot end the command or start another.
func Annotations(r *Report) string {
	var b strings.Builder
	n := 0
	for _, x := range nonPass(r) {
		if x.Verdict != Fail || n == mdMaxAnnotations {
			continue
		}
		n++
		title := cutBytes(fmt.Sprintf("%s %s: %s", x.ID, x.Level, x.Title), 200)
		msg := x.Reason
		if msg == "" {
			msg = "failed"
		}
		fmt.Fprintf(&b, "::error title=%s::%s\n", commandProperty(title), commandValue(cutBytes(msg, 1000)))
	}
	w := 0
	for _, x := range r.Results {
		if x.Flipped() && w < mdMaxAnnotations {
			w++
			fmt.Fprintf(&b, "::warning title=%s::%s\n", commandProperty(x.ID+" flaky"), commandValue(cutBytes("verdict changed between attempts: "+attemptVerdicts(x), 1000)))
		}
	}
	if bl := r.Baseline; bl != nil {
		e := 0
		for _, row := range bl.Entries {
			if !FailsGate(row.Outcome) || row.Outcome == OutcomeUnexpected && row.Got == Fail || e == mdMaxAnnotations {
				continue // an unexpected fail has its own ::error above
			}
			e++
			fmt.Fprintf(&b, "::error title=%s::%s\n", commandProperty("baseline "+row.ID+" "+row.Outcome), commandValue(cutBytes(row.Why, 1000)))
		}
	}
	return b.String()
}

// cutBytes bounds s to n bytes without splitting a UTF-8 sequence.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

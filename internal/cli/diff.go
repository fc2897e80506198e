package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
)

const diffHelp = `Usage: a2a-conform diff OLD.json NEW.json [--format markdown|json]

What changed between two runs' report.json, spec by spec: for "what changed since the
last release?" in a CI job. Markdown by default, for $GITHUB_STEP_SUMMARY or a
merge-request note; --format json for machines.

Each spec in either report is one of:
  regression    a pass lost, to any other verdict or to absence: fail, warn, and also
                could-not-run, indeterminate and not-applicable, which are never passes
                ("no longer judged"); or a worse finding, fail > warn > none (a
                could-not-run that became a fail is a new fail)
  improvement   a pass gained, or a fail that is now only a warn
  changed       any other verdict change: a fail or warn now could-not-run, indeterminate
                or not-applicable is not shown fixed, and nothing both runs judged got
                worse; or one unjudged verdict for another
  reason        same verdict, another reason (task ids and numbers masked)
  added         only in NEW
  removed       only in OLD, where it did not pass (a pass missing from NEW is a regression)

When the reports differ in requirement set, target, harness version, seed or selection,
the comparison is still made and the output says so at the top. A report that does not
verify is compared too, with its problems at the top.

Exit: 0 no regression · 1 at least one regression · 2 usage, or a file that cannot be
read or is not a ConformanceReport this harness reads.

Flags:
`

func diffCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("diff", stderr, diffHelp)
	format := fs.String("format", "markdown", "`FORMAT` of the output: markdown or json")
	pos, done, code := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(pos) != 2 {
		fmt.Fprintln(stderr, "Usage: a2a-conform diff OLD.json NEW.json [--format markdown|json]   (a2a-conform diff --help)")
		return runner.ExitUsage
	}
	if *format != "markdown" && *format != "json" {
		fmt.Fprintf(stderr, "diff: --format %q: want markdown or json\n", *format)
		return runner.ExitUsage
	}
	old, oldProblems, err := readComparable(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "diff: %v\n", err)
		return runner.ExitUsage
	}
	new, newProblems, err := readComparable(pos[1])
	if err != nil {
		fmt.Fprintf(stderr, "diff: %v\n", err)
		return runner.ExitUsage
	}
	d := reports.DiffReports(old, new, pos[0], pos[1], oldProblems, newProblems)
	if *format == "json" {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "diff: %v\n", err)
			return runner.ExitUsage
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		fmt.Fprint(stdout, d.Markdown())
	}
	if d.Regressions() > 0 {
		return runner.ExitFailed
	}
	return runner.ExitOK
}

// readComparable reads a report to compare: an error for a file that cannot
// be read, does not decode, or is not a ConformanceReport of this harness's
// apiVersion (its fields could mean something else); the problems of one that
// decodes but does not verify, which the comparison states at its top.
func readComparable(path string) (*reports.Report, []reports.Problem, error) {
	r, problems, err := reports.VerifyFile(path)
	if err != nil {
		return nil, nil, err
	}
	if r.Kind != reports.Kind || r.APIVersion != reports.APIVersion {
		return nil, nil, fmt.Errorf("%s: not a ConformanceReport of %s (kind %q, apiVersion %q)",
			path, reports.APIVersion, cutRunes(r.Kind, 40), cutRunes(r.APIVersion, 60))
	}
	return r, problems, nil
}

// cutRunes bounds a string from a file for an error message.
func cutRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

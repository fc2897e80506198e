package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// The CI gate around a run: --expect (a baseline of expected non-passes),
// --retry-unexpected (re-run each unexpected non-pass alone), and the other
// dialects every run writes next to report.json (summary.md, the ACTS
// reports). The rules are in reports/baseline.go; docs/vendor-guide.md §4
// is the user's documentation.

// maxRetries bounds --retry-unexpected: more attempts than this is
// re-running until green, which the flag exists to prevent.
const maxRetries = 5

func gateFlags(fs *flag.FlagSet, c *runner.Config) {
	fs.StringVar(&c.Expect, "expect", "", "baseline `FILE` (YAML or JSON) of expected non-passes, each with its verdict, a required reason and an optional expiry date (a2a-conform baseline REPORT.json writes a first one). With it the exit code is 1 on any non-pass it does not list (not-applicable aside), on a listed spec that passed (remove it), whose verdict changed or that flipped between attempts, on an entry past its date and on an entry naming no spec, and 0 otherwise, even for listed MUST fails; docs/vendor-guide.md §4")
	fs.StringVar(&c.Previous, "previous", "", "an earlier run's `REPORT.json` (e.g. the last release's): report.html then shows the changes since it, regressions first (a pass lost, or a worse finding), as a2a-conform diff does; the exit code does not change (use a2a-conform diff to gate on regressions)")
	fs.IntVar(&c.RetryUnexpected, "retry-unexpected", 0, fmt.Sprintf("after the run, re-run each fail, warn or indeterminate that --expect does not list (every one without --expect) alone, with the same seed and config, up to `N` times (at most %d) in child processes; every attempt is in the report, and a spec whose verdict changes is flaky: it keeps its first verdict and, with --expect, fails the build unless listed as flaky", maxRetries))
}

// gate carries what the run's command line asked of the gate.
type gate struct {
	cfg     runner.Config
	args    []string // the run's arguments, for the retries' child runs
	base    *reports.BaselineFile
	baseRaw []byte
	// prev is --previous, read before the run, and prevProblems why it
	// does not verify, when it does not.
	prev         *reports.Report
	prevProblems []reports.Problem
	now          func() time.Time
}

// newGate checks --expect and --retry-unexpected before the run, so that an
// unfilled baseline stops the job at once rather than after the run: nil and
// the exit code (2) when they are wrong.
func newGate(c runner.Config, args []string, stderr io.Writer) (*gate, int) {
	g := &gate{cfg: c, args: args, now: time.Now}
	if c.RetryUnexpected < 0 || c.RetryUnexpected > maxRetries {
		fmt.Fprintf(stderr, "run: --retry-unexpected %d: want 0 to %d\n", c.RetryUnexpected, maxRetries)
		return nil, runner.ExitUsage
	}
	if c.Expect != "" {
		b, raw, err := reports.LoadBaseline(c.Expect)
		if err != nil {
			fmt.Fprintf(stderr, "run: --expect %v\n", err)
			return nil, runner.ExitUsage
		}
		g.base, g.baseRaw = b, raw
	}
	if c.Previous != "" {
		r, problems, err := readComparable(c.Previous)
		if err != nil {
			fmt.Fprintf(stderr, "run: --previous %v\n", err)
			return nil, runner.ExitUsage
		}
		g.prev, g.prevProblems = r, problems
	}
	return g, 0
}

// after re-runs the unexpected non-passes, judges the baseline, rewrites
// the report files with both, writes the other dialects and sets the exit
// code. An interrupted run is not retried (the signal asked to stop), nor
// one whose target could not be reached or whose agent died (the exit code
// says so already, and a retry would meet the same).
func (g *gate) after(ctx context.Context, out *runner.Outcome, stdout, stderr io.Writer) {
	r := out.Report
	if r == nil {
		return
	}
	dir := g.cfg.Out
	if dir == "" {
		dir = runner.DefaultOut
	}
	changed := false
	if g.cfg.RetryUnexpected > 0 && r.Run.Interrupted == "" && out.Exit <= runner.ExitFailed && ctx.Err() == nil {
		changed = g.retry(ctx, r, dir, stdout) || changed
	}
	if g.base != nil && (r.Run.Interrupted != "" || r.Run.Unreachable) {
		// Nothing was judged: the specs the run never reached would all be
		// "unexpected" could-not-runs. The exit code (130/143, 3) says why.
		fmt.Fprintf(stdout, "\nbaseline %s not judged: the run was interrupted or could not reach its target\n", g.cfg.Expect)
	} else if g.base != nil {
		known := func(id string) bool { _, ok := suites.Lookup(id); return ok }
		r.Baseline = reports.EvaluateBaseline(g.cfg.Expect, g.baseRaw, g.base, r.Results, known, g.now())
		changed = true
		printBaseline(stdout, r.Baseline)
		if out.Exit == runner.ExitOK || out.Exit == runner.ExitFailed {
			// The baseline replaces "any MUST fail" as the rule; an
			// unreachable target, a dead agent or an interruption keep
			// their own codes.
			out.Exit = runner.ExitOK
			if r.Baseline.Failed > 0 {
				out.Exit = runner.ExitFailed
			}
		}
	}
	var html reports.HTMLOptions
	if g.prev != nil {
		html.Diff = reports.DiffReports(g.prev, r, g.cfg.Previous, "", g.prevProblems, nil)
		fmt.Fprintf(stdout, "\nsince %s: %s (report.html, Changes since the previous report)\n", g.cfg.Previous, html.Diff.Tally())
	}
	writeHTML := func(p string, r *reports.Report) error { return reports.WriteHTMLWith(p, r, html) }
	for _, w := range []struct {
		name  string
		write func(string, *reports.Report) error
	}{{"report.json", reports.WriteJSON}, {"junit.xml", reports.WriteJUnit}, {"report.html", writeHTML}} {
		if !changed && (w.name != "report.html" || html.Diff == nil) {
			continue // as the run wrote it
		}
		if err := w.write(filepath.Join(dir, w.name), r); err != nil {
			fmt.Fprintf(stderr, "run: %s: %v\n", w.name, err)
			out.Exit = runner.ExitUsage
		}
	}
	md := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(md, []byte(reports.Markdown(r, reports.MarkdownOptions{})), 0o644); err != nil {
		fmt.Fprintf(stderr, "run: summary.md: %v\n", err)
	} else {
		out.Files = append(out.Files, md)
	}
	files, err := reports.WriteACTS(dir, r, g.now())
	if err != nil {
		fmt.Fprintf(stderr, "run: ACTS report: %v\n", err)
	}
	out.Files = append(out.Files, files...)
}

// retry re-runs every retryable result alone, one after another, up to N
// times each, stopping early for a spec once an attempt disagrees (it is
// flaky then; more attempts cannot make it less so). It reports whether any
// attempt was made.
func (g *gate) retry(ctx context.Context, r *reports.Report, dir string, stdout io.Writer) bool {
	var todo []int
	for i, res := range r.Results {
		if reports.Retryable(res, g.base) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return false
	}
	fmt.Fprintf(stdout, "\nretrying %d unexpected non-pass(es) alone, up to %d time(s) each, seed %d\n", len(todo), g.cfg.RetryUnexpected, r.Run.Seed)
	base := childArgs(g.args)
	for _, i := range todo {
		res := &r.Results[i]
		for n := 1; n <= g.cfg.RetryUnexpected && ctx.Err() == nil; n++ {
			hr := &harnessRun{
				Args: append(append([]string{}, base...), "--focus", res.ID, "--expect=", "--retry-unexpected=0", "--previous="),
				Seed: r.Run.Seed,
				Out:  filepath.Join(dir, "retries", res.ID, strconv.Itoa(n)),
			}
			runAll(ctx, []*harnessRun{hr}, 1, func(*harnessRun) {})
			a := reports.Attempt{DurationMs: hr.Took.Milliseconds()}
			switch {
			case hr.Err != nil:
				a.Error = hr.Err.Error()
			default:
				a.Error = "the re-run has no result for " + res.ID
				for _, x := range hr.Report.Results {
					if x.ID == res.ID {
						a.Verdict, a.Reason, a.Error = x.Verdict, x.Reason, ""
					}
				}
			}
			res.Attempts = append(res.Attempts, a)
			got := string(a.Verdict)
			if a.Error != "" {
				got = "error: " + a.Error
			}
			fmt.Fprintf(stdout, "  %s attempt %d: %s (first %s)\n", res.ID, n+1, got, res.Verdict)
			if res.Flipped() {
				fmt.Fprintf(stdout, "  %s is FLAKY: its verdict changed between attempts; it keeps its first verdict, %s\n", res.ID, res.Verdict)
				break
			}
		}
	}
	return true
}

// childArgs are the run's arguments without those the retry sets itself
// (--out, --seed, --focus) or must not pass on (--expect,
// --retry-unexpected).
func childArgs(args []string) []string {
	drop := map[string]bool{"out": true, "seed": true, "focus": true, "expect": true, "retry-unexpected": true, "previous": true}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && drop[name] {
			if !hasValue {
				i++ // the value is the next argument
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// printBaseline prints one line per baseline row, those failing the build
// first and in capitals.
func printBaseline(w io.Writer, b *reports.Baseline) {
	fmt.Fprintf(w, "\nbaseline %s (%s): %d row(s), %d failing the build\n", b.File, b.Digest[:min(len(b.Digest), 19)], len(b.Entries), b.Failed)
	for _, pass := range []bool{true, false} {
		for _, e := range b.Entries {
			if reports.FailsGate(e.Outcome) != pass {
				continue
			}
			got := string(e.Got)
			if got == "" {
				got = "-"
			}
			label := e.Outcome // failing outcomes shout, the rest do not
			if pass {
				label = strings.ToUpper(label)
			}
			line := fmt.Sprintf("  %-10s %-9s got %-14s", label, e.ID, got)
			if e.Expected != "" {
				line += " listed " + e.Expected
			}
			if e.Why != "" {
				line += ": " + e.Why
			} else if e.Reason != "" {
				line += " (" + suites.Cut(oneLine(e.Reason), 120) + ")"
			}
			fmt.Fprintln(w, line)
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// baselineCmd writes a starting baseline from a report's non-passes.
func baselineCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("baseline", stderr, `Usage: a2a-conform baseline REPORT.json [--out FILE] [--expires 90d]

Writes a starting baseline for run --expect: one entry per non-pass of the report
(not-applicable excepted), each with its verdict and a TODO reason. run refuses the
file (exit 2) until every reason says why its verdict is expected.

Flags:
`)
	outF := fs.String("out", "", "write to `FILE` instead of standard output (an existing file is not overwritten)")
	expF := fs.String("expires", "", "give every entry an expiry date this far from today: `N`d, or a date YYYY-MM-DD")
	var pos []string
	rest := args
	for {
		if done, code := parse(fs, rest); done {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "Usage: a2a-conform baseline REPORT.json [--out FILE] [--expires 90d]")
		return runner.ExitUsage
	}
	expires := ""
	if *expF != "" {
		var err error
		if expires, err = expiryDate(*expF, time.Now()); err != nil {
			fmt.Fprintf(stderr, "baseline: --expires %v\n", err)
			return runner.ExitUsage
		}
	}
	r := verifiedReport("baseline", pos[0], " (a baseline from an edited report would expect what no run showed)", stderr)
	if r == nil {
		return runner.ExitUsage
	}
	if r.Run.Interrupted != "" || r.Run.Unreachable {
		fmt.Fprintf(stderr, "baseline: %s is from a run that was interrupted or could not reach its target; its non-passes say nothing about the agent. Write the baseline from a complete run\n", pos[0])
		return runner.ExitUsage
	}
	text, n := reports.NewBaselineFile(r, expires)
	if *outF == "" {
		stdout.Write(text)
		return 0
	}
	f, err := os.OpenFile(*outF, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		fmt.Fprintf(stderr, "baseline: %v\n", err)
		return runner.ExitUsage
	}
	if _, err := f.Write(text); err != nil {
		f.Close()
		fmt.Fprintf(stderr, "baseline: %v\n", err)
		return runner.ExitUsage
	}
	if err := f.Close(); err != nil {
		fmt.Fprintf(stderr, "baseline: %v\n", err)
		return runner.ExitUsage
	}
	fmt.Fprintf(stdout, "wrote %s: %d entries; replace each TODO reason before run --expect accepts it\n", *outF, n)
	return 0
}

// expiryDate turns "90d" (days from now) or a date into YYYY-MM-DD.
func expiryDate(s string, now time.Time) (string, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 || n > 3660 {
			return "", fmt.Errorf("%q: want a number of days such as 90d, or a date YYYY-MM-DD", s)
		}
		return now.UTC().AddDate(0, 0, n).Format(time.DateOnly), nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return "", fmt.Errorf("%q: want a number of days such as 90d, or a date YYYY-MM-DD", s)
	}
	return t.Format(time.DateOnly), nil
}

// summaryCmd prints a report's Markdown summary (for $GITHUB_STEP_SUMMARY
// and merge-request notes) or, with --annotations, GitHub's ::error and
// ::warning workflow commands for its failures.
func summaryCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("summary", stderr, `Usage: a2a-conform summary [--annotations] REPORT.json

Prints the report's Markdown summary, failures first, with the baseline's outcome
when the run had --expect: append it to $GITHUB_STEP_SUMMARY or post it as a
merge-request note. With --annotations, prints instead one ::error (fail) or
::warning (indeterminate, could-not-run, baseline) workflow command per spec, at
most 10 of each, for GitHub's checks UI. Every run also writes DIR/summary.md.

Flags:
`)
	ann := fs.Bool("annotations", false, "print GitHub workflow commands instead of Markdown")
	var pos []string
	rest := args
	for {
		if done, code := parse(fs, rest); done {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "Usage: a2a-conform summary [--annotations] REPORT.json")
		return runner.ExitUsage
	}
	r, problems, err := reports.VerifyFile(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "summary: %v\n", err)
		return runner.ExitUsage
	}
	if *ann {
		fmt.Fprint(stdout, reports.Annotations(r))
		return 0
	}
	var o reports.MarkdownOptions
	for _, p := range problems {
		o.Problems = append(o.Problems, p.String())
	}
	fmt.Fprint(stdout, reports.Markdown(r, o))
	return 0
}

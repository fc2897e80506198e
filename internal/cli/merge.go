package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

const mergeHelp = `Usage: a2a-conform merge SHARD.json... [--out DIR]

Joins the report.json files of the shards of one run (a2a-conform run --shard i/n on n
machines) into one report: DIR/report.json, DIR/junit.xml and DIR/report.html, with the
summary and digest computed afresh.

Every shard report is verified first, as a2a-conform verify does; an edited one is
refused (exit 1). The shards must belong to one run: the same n, seed, harness version,
requirement set, selection (--suite, --focus, --label-filter, --fault), implementation,
topology driver and target (the embedded and process drivers start their own agents, so
their loopback URLs may differ), no index twice and no spec in two shards; otherwise
the merge is refused (exit 2). A shard that is missing leaves the merged report partial:
run.shard.missing names it, its specs are could-not-run when this harness version wrote
the shards, and the exit code is 1. Otherwise the exit code is that of run: 1 when a
MUST or invariant failed, 3 when a shard could not reach the target, else 0.

Flags:
`

func mergeCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("merge", stderr, mergeHelp)
	out := fs.String("out", runner.DefaultOut, "`DIR` for the merged report.json, junit.xml and report.html")
	pos, done, code := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(pos) == 0 || *out == "" {
		fs.Usage()
		return runner.ExitUsage
	}
	var rs []*reports.Report
	for _, p := range pos {
		r := verifiedReport("merge", p, "; a merge would carry its edits", stderr)
		if r == nil {
			return runner.ExitFailed
		}
		rs = append(rs, r)
	}
	m, err := reports.MergeShards(rs, pos)
	if err != nil {
		fmt.Fprintf(stderr, "merge: %v\n", err)
		return runner.ExitUsage
	}
	if missing := m.Run.Shard.Missing; len(missing) > 0 {
		m.Results = withMissingShards(m, missing)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "merge: %v\n", err)
		return runner.ExitUsage
	}
	for _, w := range []struct {
		name  string
		write func(string, *reports.Report) error
	}{
		{"report.json", reports.WriteJSON},
		{"junit.xml", reports.WriteJUnit},
		{"report.html", reports.WriteHTML},
	} {
		p := filepath.Join(*out, w.name)
		if err := w.write(p, m); err != nil {
			fmt.Fprintf(stderr, "merge: %s: %v\n", w.name, err)
			return runner.ExitUsage
		}
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	s := m.Summary
	fmt.Fprintf(stdout, "merged %d of %d shards: %d of %d passed (%.1f%%); %s\n",
		len(m.Run.Shard.Merged), m.Run.Shard.Total, s.Score.Passed, s.Score.Denominator, s.Score.Percent, verdictCounts(s))
	for _, why := range reports.PartialReasons(m, nil) {
		fmt.Fprintf(stdout, "  partial: %s\n", why)
	}
	switch {
	case len(m.Run.Shard.Missing) > 0:
		fmt.Fprintf(stderr, "merge: shard(s) %v of %d missing: the merged report is partial\n", m.Run.Shard.Missing, m.Run.Shard.Total)
		return runner.ExitFailed
	case s.Score.MustFailed > 0:
		return runner.ExitFailed
	case m.Run.Unreachable:
		return runner.ExitUnreachable
	}
	return runner.ExitOK
}

// withMissingShards adds a could-not-run result for every spec of the
// missing shards, when the shards come from this harness version (whose
// registry, and so whose split, is the one that made them): the merged
// report then counts them as not passed rather than leave them out of its
// denominator. For another version the shard note and run.shard.missing
// alone say so.
func withMissingShards(m *reports.Report, missing []int) []reports.Result {
	if m.Harness.Version != runner.Version() {
		return m.Results
	}
	cfg := runner.Config{Suites: m.Run.Suites, Focus: m.Run.Focus, LabelFilter: m.Run.LabelFilter}
	selected := runner.Selected(cfg)
	results := m.Results
	have := map[string]bool{}
	for _, r := range results {
		have[r.ID] = true
	}
	for _, idx := range missing {
		for _, info := range suites.InShard(selected, idx, m.Run.Shard.Total) {
			if have[info.ID] {
				continue
			}
			res := info.Result()
			res.Verdict = reports.CouldNotRun
			res.Reason = fmt.Sprintf("shard %d of %d, which runs this spec, is missing from the merge: run a2a-conform run --shard %d/%d with the same flags and seed, then merge again",
				idx, m.Run.Shard.Total, idx, m.Run.Shard.Total)
			results = append(results, res)
		}
	}
	sortResults(results)
	return results
}

func sortResults(rs []reports.Result) {
	sort.Slice(rs, func(a, b int) bool { return rs[a].ID < rs[b].ID })
}

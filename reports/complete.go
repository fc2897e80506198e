package reports

import (
	"fmt"
	"slices"
	"strings"
)

// DeclaredSpec is one spec of the set a scorecard scores every report
// against: the specs of one harness version and spec revision, whatever
// each report selected. The CLI declares its own registry's specs.
type DeclaredSpec struct {
	ID, Title, Suite, Level string
	Sections                []string
}

// PartialReasons says why a report is not a complete run of declared (nil:
// judge the report by its own run fields only): interrupted by a signal,
// a filtered selection (--suite, --focus, --label-filter), or declared specs
// it has no result for. A report with any reason is partial: its score
// covers only what it ran, and it never gets a full badge.
func PartialReasons(r *Report, declared []DeclaredSpec) []string {
	var why []string
	if r.Run.Interrupted != "" {
		why = append(why, "interrupted by "+clip(r.Run.Interrupted, 20)+" before every selected spec had run")
	}
	if sh := r.Run.Shard; sh != nil {
		if sh.Index > 0 {
			why = append(why, fmt.Sprintf("shard %d of %d of a split run (a2a-conform merge puts the shards' reports together)", sh.Index, sh.Total))
		}
		if len(sh.Missing) > 0 {
			why = append(why, fmt.Sprintf("merged without shard(s) %s of %d", joinInts(sh.Missing), sh.Total))
		}
	}
	var filters []string
	if len(r.Run.Focus) > 0 {
		filters = append(filters, "--focus "+clip(strings.Join(r.Run.Focus, ","), 120))
	}
	if r.Run.LabelFilter != "" {
		filters = append(filters, "--label-filter "+clip(r.Run.LabelFilter, 120))
	}
	if len(r.Run.Suites) > 0 {
		// --suite filters when it leaves out a suite the set has; without a
		// declared set, when the run ran fewer specs than its harness
		// declares.
		narrower := false
		if declared != nil {
			all := map[string]bool{}
			for _, d := range declared {
				all[d.Suite] = true
			}
			for _, s := range r.Run.Suites {
				delete(all, s)
			}
			narrower = len(all) > 0
		} else {
			narrower = r.Run.DeclaredSpecs > 0 && len(r.Results) < r.Run.DeclaredSpecs
		}
		if narrower {
			filters = append(filters, "--suite "+clip(strings.Join(r.Run.Suites, ","), 120))
		}
	}
	if len(filters) > 0 {
		why = append(why, "filtered selection ("+strings.Join(filters, " ")+")")
	}
	if declared == nil && r.Run.DeclaredSpecs > len(r.Results) {
		why = append(why, fmt.Sprintf("ran %d of the %d specs its harness declares", len(r.Results), r.Run.DeclaredSpecs))
	}
	if declared != nil {
		have := map[string]bool{}
		for _, res := range r.Results {
			have[res.ID] = true
		}
		var missing []string
		for _, d := range declared {
			if !have[d.ID] {
				missing = append(missing, d.ID)
			}
		}
		if len(missing) > 0 {
			shown := missing
			if len(shown) > 8 {
				shown = append(slices.Clone(shown[:8]), "…")
			}
			why = append(why, fmt.Sprintf("%d of the %d declared specs not run (%s), counted as not passed",
				len(missing), len(declared), strings.Join(shown, ", ")))
		}
	}
	return why
}

// ScoreAgainst scores r against declared: every declared spec counts, a spec
// the report has no result for as not passed; not-applicable results leave
// the denominator as in Summarize; results for specs outside the set do not
// count. A report whose target was unreachable passes nothing.
func ScoreAgainst(r *Report, declared []DeclaredSpec) Score {
	byID := map[string]Result{}
	for _, res := range r.Results {
		byID[res.ID] = res
	}
	var results []Result
	for _, d := range declared {
		res, ok := byID[d.ID]
		if !ok {
			res = Result{ID: d.ID, Level: d.Level, Verdict: Verdict(NotRun)}
		}
		results = append(results, res)
	}
	s := Summarize(results).Score
	if r.Run.Unreachable {
		s.Passed, s.Percent = 0, 0
	}
	return s
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ", ")
}

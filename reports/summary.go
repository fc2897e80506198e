package reports

import (
	"math"
	"strings"
)

// Spec levels (DESIGN.md "Spec identity"). MUST, SHOULD and MAY come from the
// A2A text; INVARIANT marks a scenario invariant the text implies but never
// states in one sentence.
const (
	LevelMust      = "MUST"
	LevelShould    = "SHOULD"
	LevelMay       = "MAY"
	LevelInvariant = "INVARIANT"
)

// Levels lists every level in display order.
var Levels = []string{LevelMust, LevelShould, LevelMay, LevelInvariant}

// TCKLevels lists the levels a result's tckLevel may take: the official TCK
// has no invariants.
var TCKLevels = []string{LevelMust, LevelShould, LevelMay}

// Known reports whether v is one of the six verdicts of this APIVersion.
func (v Verdict) Known() bool {
	for _, k := range Verdicts {
		if v == k {
			return true
		}
	}
	return false
}

// gatesExit reports whether a fail at this level makes the CLI exit 1. Matched
// without regard to case so that a mis-cased level can never hide a failure.
func gatesExit(level string) bool {
	l := strings.TrimSpace(level)
	return strings.EqualFold(l, LevelMust) || strings.EqualFold(l, LevelInvariant)
}

// Summarize counts verdicts overall, per suite and per level, and computes the
// headline score.
//
// The score is strict: only pass counts as passed. Every verdict but
// not-applicable is in the denominator, so could-not-run, indeterminate and
// warn all count as not passed. Warn (a SHOULD not met) is also reported on its
// own in Score.Warned, so a reader can tell "missed a SHOULD" from "broke a
// MUST"; it never raises MustFailed and so never fails a CI build by itself.
// A verdict this version does not know enters the denominator as not passed:
// an unrecognised outcome must never improve a score.
//
// Summarize sees only results; SummarizeReport also applies Run.Unreachable.
func Summarize(results []Result) Summary {
	s := Summary{
		Total:     len(results),
		ByVerdict: make(map[Verdict]int, len(Verdicts)),
		BySuite:   map[string]map[Verdict]int{},
		ByLevel:   map[string]map[Verdict]int{},
	}
	for _, v := range Verdicts {
		s.ByVerdict[v] = 0
	}
	for _, r := range results {
		s.ByVerdict[r.Verdict]++
		bump(s.BySuite, r.Suite, r.Verdict)
		bump(s.ByLevel, r.Level, r.Verdict)
		if r.Verdict.Counts() {
			s.Score.Denominator++
		}
		if len(r.Unchecked) > 0 {
			s.Partial++
		}
		if len(r.Findings) > 0 {
			s.Findings++
		}
		switch r.Verdict {
		case Pass:
			s.Score.Passed++
		case Warn:
			s.Score.Warned++
		case Fail:
			if gatesExit(r.Level) {
				s.Score.MustFailed++
			}
		}
	}
	s.Score.Percent = percent(s.Score.Passed, s.Score.Denominator)
	return s
}

// SummarizeReport is Summarize over r.Results, except that a run whose target
// was unreachable scores 0 passed whatever its results claim: a dead target
// must never score (the TCK once gave one 100%). The verdict counts stay as
// recorded so Verify can point at the offending pass verdicts.
func SummarizeReport(r *Report) Summary {
	s := Summarize(r.Results)
	if r.Run.Unreachable {
		s.Score.Passed = 0
		s.Score.Percent = 0
	}
	return s
}

func bump(m map[string]map[Verdict]int, key string, v Verdict) {
	c := m[key]
	if c == nil {
		c = map[Verdict]int{}
		m[key] = c
	}
	c[v]++
}

// percent rounds to one decimal so the figure is stable in JSON and in the
// digest; the exact ratio is always recoverable from Passed/Denominator.
func percent(passed, denominator int) float64 {
	if denominator == 0 {
		return 0
	}
	return math.Round(1000*float64(passed)/float64(denominator)) / 10
}

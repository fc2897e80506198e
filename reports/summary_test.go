package reports

import "testing"

func res(id, suite, level string, v Verdict) Result {
	return Result{ID: id, Title: "t " + id, Suite: suite, Level: level, Verdict: v, Reason: "because"}
}

func TestSummarizeScore(t *testing.T) {
	tests := []struct {
		name                    string
		results                 []Result
		unreachable             bool
		passed, denom, must, wn int
		percent                 float64
	}{
		{name: "empty run scores 0 of 0", percent: 0},
		{
			name:    "only pass counts as passed",
			results: []Result{res("A-001", "s", LevelMust, Pass), res("A-002", "s", LevelMust, Pass)},
			passed:  2, denom: 2, percent: 100,
		},
		{
			name: "could-not-run and indeterminate are in the denominator and never passed",
			results: []Result{
				res("A-001", "s", LevelMust, Pass),
				res("A-002", "s", LevelMust, CouldNotRun),
				res("A-003", "s", LevelInvariant, Indeterminate),
			},
			passed: 1, denom: 3, percent: 33.3,
		},
		{
			name: "not-applicable is outside the denominator",
			results: []Result{
				res("A-001", "s", LevelMust, Pass),
				res("A-002", "s", LevelMust, NotApplicable),
				res("A-003", "s", LevelMay, NotApplicable),
			},
			passed: 1, denom: 1, percent: 100,
		},
		{
			name:    "a run of only not-applicable has an empty denominator, not a perfect score",
			results: []Result{res("A-001", "s", LevelMust, NotApplicable)},
			passed:  0, denom: 0, percent: 0,
		},
		{
			name: "warn is in the denominator, not passed, listed separately, does not gate",
			results: []Result{
				res("A-001", "s", LevelShould, Warn),
				res("A-002", "s", LevelShould, Pass),
			},
			passed: 1, denom: 2, wn: 1, percent: 50,
		},
		{
			name: "MustFailed counts fail on MUST and INVARIANT only",
			results: []Result{
				res("A-001", "s", LevelMust, Fail),
				res("A-002", "s", LevelInvariant, Fail),
				res("A-003", "s", LevelShould, Fail),
				res("A-004", "s", LevelMay, Fail),
				res("A-005", "s", LevelMust, CouldNotRun),
			},
			passed: 0, denom: 5, must: 2, percent: 0,
		},
		{
			name:    "a mis-cased level still gates",
			results: []Result{res("A-001", "s", "must", Fail)},
			denom:   1, must: 1,
		},
		{
			name:    "an unknown verdict counts against the score",
			results: []Result{res("A-001", "s", LevelMust, Pass), res("A-002", "s", LevelMust, "passed-ish")},
			passed:  1, denom: 2, percent: 50,
		},
		{
			name:        "unreachable scores 0 whatever the results say",
			results:     []Result{res("A-001", "s", LevelMust, Pass), res("A-002", "s", LevelMust, Pass)},
			unreachable: true,
			passed:      0, denom: 2, percent: 0,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{Results: tc.results, Run: Run{Unreachable: tc.unreachable}}
			s := SummarizeReport(r)
			got := s.Score
			if got.Passed != tc.passed || got.Denominator != tc.denom || got.MustFailed != tc.must || got.Warned != tc.wn || got.Percent != tc.percent {
				t.Fatalf("score = %+v, want passed %d denominator %d mustFailed %d warned %d percent %v",
					got, tc.passed, tc.denom, tc.must, tc.wn, tc.percent)
			}
			if s.Total != len(tc.results) {
				t.Fatalf("total = %d, want %d", s.Total, len(tc.results))
			}
		})
	}
}

func TestSummarizeBreakdowns(t *testing.T) {
	s := Summarize([]Result{
		res("DISC-001", "discovery", LevelMust, Pass),
		res("DISC-002", "discovery", LevelShould, Warn),
		res("LIFE-001", "lifecycle", LevelMust, Fail),
		res("LIFE-002", "lifecycle", LevelInvariant, Indeterminate),
		res("PUSH-001", "webhook", LevelMust, NotApplicable),
	})
	for _, v := range Verdicts {
		if _, ok := s.ByVerdict[v]; !ok {
			t.Errorf("byVerdict lacks %s: every verdict is listed, zero or not", v)
		}
	}
	if s.ByVerdict[Pass] != 1 || s.ByVerdict[Fail] != 1 || s.ByVerdict[Warn] != 1 || s.ByVerdict[CouldNotRun] != 0 {
		t.Errorf("byVerdict = %v", s.ByVerdict)
	}
	if got := s.BySuite["discovery"]; got[Pass] != 1 || got[Warn] != 1 || len(got) != 2 {
		t.Errorf("bySuite[discovery] = %v", got)
	}
	if got := s.BySuite["webhook"]; got[NotApplicable] != 1 {
		t.Errorf("bySuite[webhook] = %v", got)
	}
	if got := s.ByLevel[LevelMust]; got[Pass] != 1 || got[Fail] != 1 || got[NotApplicable] != 1 {
		t.Errorf("byLevel[MUST] = %v", got)
	}
	if got := s.ByLevel[LevelInvariant]; got[Indeterminate] != 1 {
		t.Errorf("byLevel[INVARIANT] = %v", got)
	}
	if s.Score.Passed != 1 || s.Score.Denominator != 4 || s.Score.MustFailed != 1 || s.Score.Warned != 1 {
		t.Errorf("score = %+v", s.Score)
	}
}

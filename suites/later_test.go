package suites

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// A later look may make a verdict better and says so; one that would make
// it worse without a violation is refused, and one that adds the violation
// it rests on is kept and says so; one that only adds to the reason is kept
// without a line; and each look is taken once.
func TestRevisitIsSymmetricInEvidence(t *testing.T) {
	ids := []string{"ZZLATER-001", "ZZLATER-002", "ZZLATER-003", "ZZLATER-004"}
	collector.mu.Lock()
	for _, id := range ids {
		collector.byID[id] = &reports.Result{ID: id, Verdict: reports.Warn, Reason: "not seen yet"}
	}
	collector.mu.Unlock()
	defer func() {
		collector.mu.Lock()
		for _, id := range ids {
			delete(collector.byID, id)
		}
		collector.mu.Unlock()
	}()
	(&T{Info: Info{ID: ids[0]}}).Later(func(r *reports.Result) (string, bool) {
		r.Verdict, r.Reason = reports.Pass, ""
		return "it came", true
	})
	(&T{Info: Info{ID: ids[1]}}).Later(func(r *reports.Result) (string, bool) {
		r.Verdict = reports.Fail
		return "worse", true
	})
	(&T{Info: Info{ID: ids[2]}}).Later(func(r *reports.Result) (string, bool) {
		r.Reason += " Looked again: still not."
		return "", true
	})
	(&T{Info: Info{ID: ids[3]}}).Later(func(r *reports.Result) (string, bool) {
		r.Verdict = reports.Fail
		r.Violations = append(r.Violations, invariants.Violation{Invariant: "terminal-final", Actual: "TASK_STATE_COMPLETED"})
		return "it completed after all", true
	})
	got := Revisit()
	if len(got) != 2 || got[0].ID != ids[0] || got[0].From != reports.Warn || got[0].To != reports.Pass || !strings.Contains(got[0].String(), "it came") {
		t.Fatalf("Revisit() = %+v, want %s warn -> pass, then %s warn -> fail", got, ids[0], ids[3])
	}
	if got[1].ID != ids[3] || got[1].To != reports.Fail || got[1].Violations != 1 || !strings.Contains(got[1].String(), "completed after all") {
		t.Errorf("the look that brought a violation: %+v, want %s warn -> fail with 1 violation", got[1], ids[3])
	}
	collector.mu.Lock()
	defer collector.mu.Unlock()
	if v := collector.byID[ids[1]].Verdict; v != reports.Warn {
		t.Errorf("a look that made %s worse was kept: %s", ids[1], v)
	}
	if r := collector.byID[ids[2]]; r.Verdict != reports.Warn || !strings.HasSuffix(r.Reason, "still not.") {
		t.Errorf("the reason-only look was not kept: %+v", r)
	}
	if len(collector.later) != 0 {
		t.Errorf("looks left after Revisit: %d", len(collector.later))
	}
}

package suites

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// A later look may make a verdict better and says so; one that would make
// it worse is refused; one that only adds to the reason is kept without a
// line; and each look is taken once.
func TestRevisitOnlyImproves(t *testing.T) {
	ids := []string{"ZZLATER-001", "ZZLATER-002", "ZZLATER-003"}
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
	got := Revisit()
	if len(got) != 1 || got[0].ID != ids[0] || got[0].From != reports.Warn || got[0].To != reports.Pass || !strings.Contains(got[0].String(), "it came") {
		t.Fatalf("Revisit() = %+v, want only %s warn -> pass", got, ids[0])
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

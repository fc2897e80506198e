package runner

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// An HTML page served as the card left 68 specs could-not-run for one cause,
// each with the same line (issue 20). The terminal says the cause once: the
// first spec's line, then one summary line at the end; the spec's own "To
// enable" advice does not make causes differ.
func TestProgressSaysASharedCauseOnce(t *testing.T) {
	var w bytes.Buffer
	p, _ := newClockedProgress(&w, 70, false)
	p.finished(reports.Result{ID: "DISC-001", Verdict: reports.Fail, Title: "card", Reason: "not JSON"})
	for i := range 68 {
		p.finished(reports.Result{ID: fmt.Sprintf("LIFE-%03d", i), Verdict: reports.CouldNotRun, Title: "x",
			Reason: fmt.Sprintf("the agent has no usable card. To enable: advice %d", i)})
	}
	p.finished(reports.Result{ID: "ROLL-001", Verdict: reports.CouldNotRun, Title: "roll", Reason: "no instances"})
	p.end()
	out := w.String()
	if n := strings.Count(out, "the agent has no usable card"); n != 2 {
		t.Errorf("the shared cause appears %d times, want twice (the first spec's line and the summary):\n%s", n, out)
	}
	if !strings.Contains(out, "68 specs could not run: the agent has no usable card.\n") {
		t.Errorf("no summary line:\n%s", out)
	}
	if !strings.Contains(out, "LIFE-000 LIFE-001 LIFE-002") {
		t.Errorf("the summary does not name the specs, in order:\n%s", out)
	}
	if lines := strings.Count(out, "\n"); lines > 10 {
		t.Errorf("%d lines for 70 results:\n%s", lines, out)
	}
	if !strings.Contains(out, "ROLL-001  could-not-run") || strings.Contains(out, "1 specs could not run") {
		t.Errorf("a cause of one spec is its own line, never summarised:\n%s", out)
	}
	if !strings.Contains(out, "DISC-001  fail") {
		t.Errorf("the failure's line is lost:\n%s", out)
	}
}

// A could-not-run result told twice (early, then by an It Ginkgo cut short)
// counts once.
func TestProgressCountsACauseOncePerSpec(t *testing.T) {
	var w bytes.Buffer
	p, _ := newClockedProgress(&w, 2, false)
	r := reports.Result{ID: "A", Verdict: reports.CouldNotRun, Reason: "same"}
	p.finished(r)
	p.finished(r)
	p.finished(reports.Result{ID: "B", Verdict: reports.CouldNotRun, Reason: "same"})
	p.end()
	if !strings.Contains(w.String(), "2 specs could not run: same") {
		t.Errorf("got:\n%s", w.String())
	}
}

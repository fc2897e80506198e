package suites

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// captureProgress swaps the collector's progress function for one that
// records what it is told, for the test's duration.
func captureProgress(t *testing.T) *[]reports.Result {
	var mu sync.Mutex
	var got []reports.Result
	collector.mu.Lock()
	prev := collector.progress
	collector.progress = func(r reports.Result) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r)
	}
	collector.mu.Unlock()
	t.Cleanup(func() {
		collector.mu.Lock()
		collector.progress = prev
		collector.mu.Unlock()
	})
	return &got
}

// A planned body tells progress as it ends, before Ginkgo reaches its It
// (issue 20: lines came out in seed order, held back by one long spec), with
// the verdict and reason the It then reports, so the It's report is not
// printed a second time; an It that ends otherwise (Ginkgo cut it short) is.
func TestBodyTellsProgressAsItEnds(t *testing.T) {
	got := captureProgress(t)
	// The collector is the process's: leave no result of these made-up
	// specs for TestSuites to read.
	t.Cleanup(func() {
		collector.mu.Lock()
		defer collector.mu.Unlock()
		kept := collector.order[:0]
		for _, id := range collector.order {
			if strings.HasPrefix(id, "EARLY-") {
				delete(collector.byID, id)
				delete(collector.told, id)
				delete(collector.reported, id)
				continue
			}
			kept = append(kept, id)
		}
		collector.order = kept
	})
	cases := []struct {
		id    string
		body  func(context.Context, *T)
		final types.SpecReport // what Ginkgo then reports for the It
		again bool             // told a second time
	}{
		{"EARLY-CNR", func(_ context.Context, t *T) { t.CouldNotRun("no instances to roll") },
			types.SpecReport{State: types.SpecStateSkipped}, false},
		{"EARLY-PASS", func(context.Context, *T) {},
			types.SpecReport{State: types.SpecStatePassed}, false},
		{"EARLY-FAIL", func(_ context.Context, t *T) {
			t.Violated(invariants.Violation{Invariant: "x", Where: "w", Expected: "e", Actual: "a"})
		}, types.SpecReport{}, false},
		{"EARLY-CUT", func(context.Context, *T) {},
			types.SpecReport{State: types.SpecStateTimedout}, true},
	}
	for _, c := range cases {
		info := Info{ID: c.id, Title: "t", Level: MUST}
		bodies.set(c.id, c.body)
		j := &job{info: info, started: make(chan struct{}), done: make(chan struct{})}
		s := &scheduler{parallel: 1}
		before := len(*got)
		s.run(j)
		if len(*got) != before+1 {
			t.Fatalf("%s: progress told %d times as the body ended, want once", c.id, len(*got)-before)
		}
		early := (*got)[len(*got)-1]
		// What the It does once its body has ended.
		collector.start2(j.t, c.id)
		final := c.final
		if c.id == "EARLY-FAIL" {
			final = types.SpecReport{State: types.SpecStateFailed}
			final.Failure.Message = j.t.failMsg
		}
		collector.report(final)
		told := len(*got) - before - 1
		if c.again != (told == 1) || told > 1 {
			t.Errorf("%s: told %d more times after Ginkgo's report (early %s), want again=%v", c.id, told, early.Verdict, c.again)
		}
		if c.id == "EARLY-FAIL" && early.Verdict != reports.Fail {
			t.Errorf("EARLY-FAIL told %s early", early.Verdict)
		}
		if c.id == "EARLY-CNR" && early.Verdict != reports.CouldNotRun {
			t.Errorf("EARLY-CNR told %s early", early.Verdict)
		}
	}
}

// start2 files t as pending under the full text of an empty SpecReport, as
// start does under the It's own text.
func (c *resultCollector) start2(t *T, _ string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[types.SpecReport{}.FullText()] = t
}

// The seed decides the order in which the bodies start (the terminal's lines
// follow the order they end in): the same seed, the same order; another
// seed, another.
func TestStartOrderFollowsTheSeed(t *testing.T) {
	specs := All()
	ids := func(seed int64) string {
		var b strings.Builder
		for _, i := range startOrder(specs, seed) {
			b.WriteString(i.ID + " ")
		}
		return b.String()
	}
	if ids(424242) != ids(424242) {
		t.Fatal("one seed, two orders")
	}
	if ids(1) == ids(424242) && ids(2) == ids(424242) && ids(3) == ids(424242) {
		t.Fatal("three other seeds give the same order: the seed does not drive it")
	}
	if len(startOrder(specs, 7)) != len(specs) {
		t.Fatal("specs lost")
	}
}

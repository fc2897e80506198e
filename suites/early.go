package suites

import (
	"github.com/onsi/ginkgo/v2/types"

	"github.com/a2a-conform/a2a-conform/reports"
)

// A concurrent run's bodies end in any order, while Ginkgo walks the Its in
// its own (seed) order, each waiting for its body. Told only when the It is
// reported, the progress lines came out in seed order: one long spec held
// back every later line, and the live line read "0/71 done" while finished
// specs waited. So the scheduler tells progress as each body ends (early),
// with the result the It will report (preview), and the It's report is told
// again only when it differs (an It that Ginkgo itself cut short). The
// report's order does not change: Results sorts by ID.

// preview is the result the It will report for a body that has ended: the
// same mapping as replay, then resultOf, without Ginkgo. The transcript is
// left out (the It captures it); the progress line does not show it.
func preview(t *T) reports.Result {
	v, reason, fail := t.settled()
	r := types.SpecReport{State: types.SpecStatePassed}
	switch {
	case fail != "":
		r.State = types.SpecStateFailed
		r.Failure.Message = fail
	case v != "":
		// What replay's setVerdict will set in the It.
		t.mu.Lock()
		t.override, t.reason = v, reason
		t.mu.Unlock()
	}
	return resultOf(t, r)
}

// early tells progress about a body that has just ended, unless its It was
// already reported.
func (c *resultCollector) early(t *T) {
	c.mu.Lock()
	progress, reported := c.progress, c.reported[t.Info.ID]
	c.mu.Unlock()
	if progress == nil || reported {
		return
	}
	res := preview(t)
	c.mu.Lock()
	if c.reported[res.ID] {
		c.mu.Unlock()
		return
	}
	if c.told == nil {
		c.told = map[string]reports.Result{}
	}
	c.told[res.ID] = res
	c.mu.Unlock()
	progress(res)
}

// toldEarly marks res's ID reported and says whether progress was already
// told the same verdict and reason. Called with c.mu held.
func (c *resultCollector) toldEarly(res reports.Result) bool {
	if c.reported == nil {
		c.reported = map[string]bool{}
	}
	c.reported[res.ID] = true
	prev, ok := c.told[res.ID]
	return ok && prev.Verdict == res.Verdict && prev.Reason == res.Reason
}

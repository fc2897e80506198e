package suites

import (
	"fmt"
	"sort"

	"github.com/a2a-conform/a2a-conform/reports"
)

// Later registers a second look at the spec's result, taken once every spec
// of the run has ended and before the reports are written (Revisit). A spec
// whose verdict rests on the absence of something the agent may still send
// (PUSH-007: a retry the spec's wait did not see) looks again with the rest
// of the run's time behind it: late is not lost.
//
// look gets the result as the spec ended and may change it; it says what it
// saw (a line for the terminal and the report's notes, when the verdict
// changed) and whether it changed anything (a reason that now says it
// looked again is a change too). A later look may only make the verdict better (a warn
// or indeterminate becoming a pass): evidence that arrives late never
// counts against the agent, since no spec waited for it.
func (t *T) Later(look func(r *reports.Result) (saw string, changed bool)) {
	collector.mu.Lock()
	defer collector.mu.Unlock()
	if collector.later == nil {
		collector.later = map[string][]func(*reports.Result) (string, bool){}
	}
	collector.later[t.Info.ID] = append(collector.later[t.Info.ID], look)
}

// Revisited is one result a later look changed.
type Revisited struct {
	ID       string
	From, To reports.Verdict
	// Saw is what the look saw, in its own words.
	Saw string
}

// String is the line the runner prints and keeps in the run's notes.
func (r Revisited) String() string {
	return fmt.Sprintf("%s %s -> %s at the run's end: %s", r.ID, r.From, r.To, r.Saw)
}

// Revisit takes every later look the specs registered (Later), in ID order,
// keeps what they changed, and returns the results whose verdict changed. The runner calls it once, after the
// specs and before it collects the results; an interrupted run skips it
// (its results are partial anyway). A look that would make a verdict worse
// is refused and its result kept as it was.
func Revisit() []Revisited {
	collector.mu.Lock()
	ids := make([]string, 0, len(collector.later))
	for id := range collector.later {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	looks := collector.later
	collector.later = nil
	collector.mu.Unlock()
	var out []Revisited
	for _, id := range ids {
		for _, look := range looks[id] {
			collector.mu.Lock()
			cur, ok := collector.byID[id]
			var r reports.Result
			if ok {
				r = *cur
				r.Violations = append(r.Violations[:0:0], r.Violations...)
				r.Observations = cloneMap(r.Observations)
			}
			collector.mu.Unlock()
			if !ok {
				continue
			}
			from := r.Verdict
			saw, changed := look(&r)
			if !changed || r.ID != id || severity[r.Verdict] > severity[from] {
				continue
			}
			collector.mu.Lock()
			*collector.byID[id] = r
			collector.mu.Unlock()
			if r.Verdict != from {
				out = append(out, Revisited{ID: id, From: from, To: r.Verdict, Saw: saw})
			}
		}
	}
	return out
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

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
// changed or a violation was added) and whether it changed anything (a
// reason that now says it looked again is a change too). The second look is
// symmetric in one sense only: evidence that has not arrived may only make
// a verdict better (a warn or indeterminate becoming a pass: late is not
// lost, and no spec waited for it), while violating evidence, whenever it
// arrived, makes it worse. A look may make a verdict worse only by adding
// the violations it rests on (reports.Result.Violations); one that would
// make it worse without them is refused. The run's end watch of terminal
// tasks (watch.go) is such a look, taken for every spec that saw a task
// terminal.
func (t *T) Later(look func(r *reports.Result) (saw string, changed bool)) {
	collector.mu.Lock()
	defer collector.mu.Unlock()
	if collector.later == nil {
		collector.later = map[string][]func(*reports.Result) (string, bool){}
	}
	collector.later[t.Info.ID] = append(collector.later[t.Info.ID], look)
}

// Revisited is one result a later look changed the verdict of, or added
// violations to.
type Revisited struct {
	ID       string
	From, To reports.Verdict
	// Saw is what the look saw, in its own words.
	Saw string
	// Violations counts the violations the look added.
	Violations int
}

// String is the line the runner prints and keeps in the run's notes.
func (r Revisited) String() string {
	if r.From == r.To {
		return fmt.Sprintf("%s stays %s at the run's end, with %d more violation(s): %s", r.ID, r.To, r.Violations, r.Saw)
	}
	return fmt.Sprintf("%s %s -> %s at the run's end: %s", r.ID, r.From, r.To, r.Saw)
}

// Revisit takes every later look the specs registered (Later), and the run's
// end watch of every task a spec saw terminal (watch.go), in ID order, keeps
// what they changed, and returns the results whose verdict changed or that
// gained violations. The runner calls it once, after the specs and before
// it collects the results; an interrupted run skips it (its results are
// partial anyway). A look that would make a verdict worse without adding
// the violations that make it so is refused and its result kept as it was.
func Revisit() []Revisited {
	watch := watchLooks()
	collector.mu.Lock()
	looks := collector.later
	collector.later = nil
	collector.mu.Unlock()
	if looks == nil {
		looks = map[string][]func(*reports.Result) (string, bool){}
	}
	for id, look := range watch {
		looks[id] = append(looks[id], look)
	}
	ids := make([]string, 0, len(looks))
	for id := range looks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
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
			from, had := r.Verdict, len(r.Violations)
			saw, changed := look(&r)
			added := len(r.Violations) - had
			worse := severity[r.Verdict] > severity[from]
			if !changed || r.ID != id || added < 0 || worse && added == 0 || worse && r.Verdict != reports.Fail && r.Verdict != reports.Warn {
				continue
			}
			collector.mu.Lock()
			*collector.byID[id] = r
			collector.mu.Unlock()
			if r.Verdict != from || added > 0 {
				out = append(out, Revisited{ID: id, From: from, To: r.Verdict, Saw: saw, Violations: added})
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

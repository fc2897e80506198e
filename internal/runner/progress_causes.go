package runner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// When something the whole run needs is missing (an HTML page served as the
// card, a feature the deployment lacks), dozens of specs could not run for
// one cause. The terminal says that cause once: the first such spec prints
// its line and reason as usual, the others are counted, and at the end one
// line per shared cause names how many specs it stopped and which. The
// report keeps every spec's own reason.

// cause is the part of a could-not-run reason that says what was missing:
// its first line, without the spec's own "To enable:" advice, which differs
// from spec to spec.
func cause(reason string) string {
	c := firstLine(reason)
	if i := strings.Index(c, " To enable: "); i >= 0 {
		c = c[:i]
	}
	return strings.TrimSpace(c)
}

// sameCause records a could-not-run result and says whether an earlier one
// already printed its cause. Called with p.mu held.
func (p *progress) sameCause(r reports.Result) bool {
	if r.Verdict != reports.CouldNotRun {
		return false
	}
	c := cause(r.Reason)
	if c == "" {
		return false
	}
	if p.cnr == nil {
		p.cnr = map[string][]string{}
	}
	ids, seen := p.cnr[c]
	for _, id := range ids {
		if id == r.ID {
			return true // told twice (an It Ginkgo cut short): already counted
		}
	}
	p.cnr[c] = append(ids, r.ID)
	if !seen {
		p.cnrOrder = append(p.cnrOrder, c)
	}
	return seen
}

// causes prints each cause shared by several could-not-run specs once.
// Called with p.mu held, the live line cleared.
func (p *progress) causes() {
	for _, c := range p.cnrOrder {
		ids := append([]string(nil), p.cnr[c]...)
		sort.Strings(ids)
		if len(ids) < 2 {
			continue
		}
		fmt.Fprintf(p.w, "%d specs could not run: %s\n          └ %s (each reason in the report)\n",
			len(ids), suites.Cut(c, 160), suites.Cut(strings.Join(ids, " "), 160))
	}
	p.cnr, p.cnrOrder = nil, nil
}

package suites

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// collector turns what each spec recorded, plus Ginkgo's view of how it ended,
// into one reports.Result per spec ID. Several Its may share an ID (an Ordered
// container of steps); their outcomes merge, worst first.
var collector = &resultCollector{pending: map[string]*T{}, byID: map[string]*reports.Result{}}

type resultCollector struct {
	mu      sync.Mutex
	pending map[string]*T // by Ginkgo full text, between begin and ReportAfterEach
	byID    map[string]*reports.Result
	order   []string
	// progress, when set, is told about each spec as it finishes.
	progress func(reports.Result)
	// began and ended, when set, are told about each spec as its body
	// begins and ends (in a concurrent run a body ends before Ginkgo, which
	// walks the Its in order, reports it).
	began, ended func(Info)
	// told holds what progress was told as a body ended (early), before
	// Ginkgo reported its It; reported, the IDs Ginkgo has reported.
	told     map[string]reports.Result
	reported map[string]bool
	// later are the looks specs registered for the run's end (T.Later).
	later map[string][]func(*reports.Result) (string, bool)
	// watched are the specs whose tasks the run's end reads again
	// (suites/watch.go), by ID.
	watched map[string]*T
}

func (c *resultCollector) start(t *T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[CurrentSpecReport().FullText()] = t
}

// finish captures the transcript while the spec still owns the recorder.
func (c *resultCollector) finish(t *T) {
	if t.Env == nil || t.Env.Transcript == nil {
		return
	}
	ex := t.Env.Transcript.Owned(t.Info.ID)
	t.mu.Lock()
	t.transcript = ex
	t.mu.Unlock()
}

var _ = ReportAfterEach(func(r SpecReport) { collector.report(r) })

func (c *resultCollector) report(r SpecReport) {
	c.mu.Lock()
	t := c.pending[r.FullText()]
	delete(c.pending, r.FullText())
	c.mu.Unlock()
	if t == nil {
		// The body never ran: filtered out by labels or focus. Not part of the run.
		return
	}
	res := resultOf(t, r)
	c.mu.Lock()
	told := c.toldEarly(res)
	if prev, ok := c.byID[res.ID]; ok {
		merge(prev, res)
		res = *prev
	} else {
		c.byID[res.ID] = &res
		c.order = append(c.order, res.ID)
	}
	progress := c.progress
	c.mu.Unlock()
	if progress != nil && !told {
		progress(res)
	}
}

// resultOf maps Ginkgo's spec state and the spec's own verdict onto ours.
func resultOf(t *T, r SpecReport) reports.Result {
	t.mu.Lock()
	defer t.mu.Unlock()
	res := t.Info.Result()
	res.DurationMs = t.ran.Milliseconds()
	res.Violations = append(append([]invariants.Violation(nil), t.violations...), t.soft...)
	res.Observations = t.observations
	res.Transcript = t.transcript
	res.Unchecked = t.unchecked
	res.Findings = t.findings
	res.Steps = t.steps
	switch {
	case t.override != "":
		res.Verdict, res.Reason = t.override, t.reason
	case r.State == types.SpecStatePassed:
		res.Verdict = reports.Pass
	case r.State == types.SpecStateFailed:
		res.Verdict = reports.Fail
		if !t.Info.Level.Strict() {
			res.Verdict = reports.Warn
		}
		res.Reason = r.Failure.Message
	case r.State == types.SpecStatePanicked:
		// A panic is a harness bug, not evidence against the agent.
		res.Verdict = reports.Indeterminate
		res.Reason = fmt.Sprintf("harness error (panic) at %s: %s %v", r.Failure.Location, r.Failure.Message, r.Failure.ForwardedPanic)
	case r.State == types.SpecStateTimedout, r.State == types.SpecStateInterrupted, r.State == types.SpecStateAborted:
		res.Verdict = reports.Indeterminate
		res.Reason = fmt.Sprintf("spec ended early (%s) after %s: %s", r.State, r.RunTime.Round(1e6), r.Failure.Message)
	case r.State == types.SpecStateSkipped:
		res.Verdict = reports.CouldNotRun
		res.Reason = "skipped without a verdict: " + r.Failure.Message
	default:
		res.Verdict = reports.Indeterminate
		res.Reason = "unexpected spec state " + r.State.String()
	}
	judgedByKit(&res, t.suppliedBy)
	// A spec that ended on something else (a MUST violated, a could-not-run)
	// still says which SHOULD it saw missed, so the reason accounts for every
	// violation the result lists; finishBody already says it when the
	// SHOULD is what the verdict rests on.
	if len(t.soft) > 0 && res.Verdict != reports.Pass && !strings.Contains(res.Reason, shouldMissed) {
		res.Reason += " Also, " + shouldMissed + ": " + invariants.Summarize(t.soft, 20)
	}
	return res
}

// severity orders verdicts for merging the steps of one spec: the worst wins.
var severity = map[reports.Verdict]int{
	reports.NotApplicable: 0, reports.Pass: 1, reports.Warn: 2,
	reports.CouldNotRun: 3, reports.Indeterminate: 4, reports.Fail: 5,
}

func merge(into *reports.Result, step reports.Result) {
	into.DurationMs += step.DurationMs
	into.Violations = append(into.Violations, step.Violations...)
	into.Transcript = append(into.Transcript, step.Transcript...)
	into.Unchecked = append(into.Unchecked, step.Unchecked...)
	into.Findings = append(into.Findings, step.Findings...)
	into.Steps = append(into.Steps, step.Steps...)
	for k, v := range step.Observations {
		if into.Observations == nil {
			into.Observations = map[string]string{}
		}
		into.Observations[k] = v
	}
	if severity[step.Verdict] > severity[into.Verdict] {
		into.Verdict = step.Verdict
		into.Reason = step.Reason
	} else if step.Reason != "" && step.Verdict == into.Verdict && into.Verdict != reports.Pass {
		into.Reason = strings.TrimSpace(into.Reason + "\n" + step.Reason)
	}
}

// Results returns the collected results in the order the specs finished,
// sorted by ID for stable reports.
func Results() []reports.Result {
	collector.mu.Lock()
	defer collector.mu.Unlock()
	out := make([]reports.Result, 0, len(collector.byID))
	for _, id := range collector.order {
		out = append(out, *collector.byID[id])
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out
}

// OnResult sets a function told about each spec as it finishes (the CLI's
// progress lines). Set it before RunSpecs.
func OnResult(f func(reports.Result)) {
	collector.mu.Lock()
	defer collector.mu.Unlock()
	collector.progress = f
}

// OnBody sets functions told about each spec as its body begins and as it
// ends (the CLI's live progress line names the specs still running). Set
// them before RunSpecs.
func OnBody(began, ended func(Info)) {
	collector.mu.Lock()
	defer collector.mu.Unlock()
	collector.began, collector.ended = began, ended
}

func (c *resultCollector) body(info Info, begins bool) {
	c.mu.Lock()
	f := c.ended
	if begins {
		f = c.began
	}
	c.mu.Unlock()
	if f != nil {
		f(info)
	}
}

// judgedByKit fills in who supplied the pieces a client spec judges and,
// when the harness's driver kit supplied every one of them, sets the verdict
// aside: it would judge the harness's own code, not the client, so it is
// not-applicable, with the verdict it would have had kept as an observation.
func judgedByKit(res *reports.Result, by map[string]string) {
	j := res.Judges
	if j == nil || j.What != reports.JudgesSupplied {
		return
	}
	all := len(j.Pieces) > 0
	for _, p := range j.Pieces {
		who := by[p]
		if who == "" {
			who = reports.SuppliedByDriver
		}
		if j.By == nil {
			j.By = map[string]string{}
		}
		j.By[p] = who
		all = all && who == reports.SuppliedByKit
	}
	if !all {
		return
	}
	switch res.Verdict {
	case reports.Pass, reports.Fail, reports.Warn:
	default:
		return
	}
	if res.Observations == nil {
		res.Observations = map[string]string{}
	}
	res.Observations["verdict on the kit"] = string(res.Verdict) + func() string {
		if res.Reason != "" {
			return ": " + res.Reason
		}
		return ""
	}()
	res.Verdict, res.Violations = reports.NotApplicable, nil
	res.Reason = "this verdict rests on " + strings.Join(j.Pieces, " and ") + ", which the harness's driver kit supplied in this run " +
		"(a2a-conform's own code, tested with it), not the client: it is not scored. The kit's verdict is kept under \"verdict on the kit\"."
}

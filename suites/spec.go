package suites

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// T is the per-spec handle a spec body gets: the environment, and the ways to
// record evidence and to end with a verdict other than pass or fail.
type T struct {
	Info Info
	Env  *Env

	mu         sync.Mutex
	override   reports.Verdict
	reason     string
	violations []invariants.Violation
	// pending are violations recorded by Record and not yet reported by a
	// Fail: they are reported when the body ends, however it ends.
	pending []invariants.Violation
	// unchecked lists the parts of the spec's title that were not checked.
	unchecked []string
	// soft are misses of the spec's SHOULD-level parts (Should).
	soft []invariants.Violation
	// keys are the prompt-map keys the spec used.
	keys         []string
	observations map[string]string
	mark         int
	transcript   []reports.Exchange
	history      *invariants.History
	calls        int
}

// Observe records which reading of an ambiguous rule the agent took, or a
// measured figure. It never changes the verdict.
func (t *T) Observe(key, value string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.observations == nil {
		t.observations = map[string]string{}
	}
	t.observations[key] = value
}

// Violated records violations and fails the spec with a message naming each
// (expected vs actual, where), together with any that Record kept. With none
// at all it does nothing.
func (t *T) Violated(vs ...invariants.Violation) {
	GinkgoHelper()
	t.Record(vs...)
	t.flushPending("")
}

// Record keeps violations found so far without ending the spec: they are
// reported as its failure when the body ends, and a later could-not-run or
// indeterminate cannot hide them (a violation found is always reported).
func (t *T) Record(vs ...invariants.Violation) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending = append(t.pending, vs...)
}

// Should records a miss of a part of the spec that the A2A text asks for
// only with SHOULD, inside a spec whose other parts are MUST: it never fails
// the spec (docs/levels.md). When nothing else is wrong the spec ends warn,
// listing these.
func (t *T) Should(vs ...invariants.Violation) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.soft = append(t.soft, vs...)
}

// Unchecked says that one part of the spec's title could not be checked, and
// why. A spec with an unchecked part does not pass: when its body ends with
// nothing violated it is could-not-run, its reason naming what was checked
// and what was not, and the result lists the parts (reports.Result.Unchecked)
// so that the summary and the scorecard show them. Check the part another way
// first, where one exists.
func (t *T) Unchecked(part, why string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.unchecked = append(t.unchecked, part+": "+why)
}

// flushPending fails the spec with the recorded violations, if any, adding
// what else ended it (a could-not-run or indeterminate reason).
func (t *T) flushPending(also string) {
	GinkgoHelper()
	t.mu.Lock()
	vs := t.pending
	t.pending = nil
	t.mu.Unlock()
	if len(vs) == 0 {
		return
	}
	t.mu.Lock()
	t.violations = append(t.violations, vs...)
	t.mu.Unlock()
	// The first line names the first violation: it is what the progress line
	// and the report's one-line views show.
	msg := invariants.Summarize(vs, 20)
	if len(vs) > 1 {
		msg = fmt.Sprintf("%s\n(%d violations in all)", msg, len(vs))
	}
	if also != "" {
		msg += "\nThe spec then stopped: " + also
	}
	Fail(msg)
}

// finishBody ends a body that returned normally: recorded violations fail it,
// and an unchecked part keeps it from passing.
func (t *T) finishBody() {
	GinkgoHelper()
	t.flushPending("")
	t.mu.Lock()
	parts := append([]string(nil), t.unchecked...)
	t.mu.Unlock()
	t.mu.Lock()
	soft := t.soft
	t.mu.Unlock()
	missed := ""
	if len(soft) > 0 {
		missed = "a SHOULD was not met: " + invariants.Summarize(soft, 20)
	}
	switch {
	case len(parts) > 0 && missed != "":
		t.end(reports.CouldNotRun, "not every part of the requirement was checked, and "+missed+". Not checked: "+strings.Join(parts, "; "))
	case len(parts) > 0:
		t.end(reports.CouldNotRun, "not every part of the requirement was checked; what was checked held. Not checked: "+strings.Join(parts, "; "))
	case missed != "":
		t.end(reports.Warn, "the MUST parts held, but "+missed)
	}
}

// CouldNotRun ends the spec because the harness could not do what it needs.
// The reason says what was missing; the spec's Enable text is appended.
func (t *T) CouldNotRun(format string, args ...any) {
	GinkgoHelper()
	reason := fmt.Sprintf(format, args...)
	if t.Info.Enable != "" {
		reason += " To enable: " + t.Info.Enable
	}
	t.end(reports.CouldNotRun, reason)
}

// NotApplicable ends the spec because the card does not advertise what it
// tests; call it only after checking that the agent then refuses properly.
func (t *T) NotApplicable(format string, args ...any) {
	GinkgoHelper()
	t.end(reports.NotApplicable, fmt.Sprintf(format, args...))
}

// Indeterminate ends the spec because a race or timeout left the outcome unknown.
func (t *T) Indeterminate(format string, args ...any) {
	GinkgoHelper()
	t.end(reports.Indeterminate, fmt.Sprintf(format, args...))
}

func (t *T) end(v reports.Verdict, reason string) {
	GinkgoHelper()
	t.flushPending(string(v) + ": " + reason)
	t.mu.Lock()
	t.override, t.reason = v, reason
	t.mu.Unlock()
	Skip(string(v) + ": " + reason)
}

// Spec declares the Ginkgo spec for a registered ID: its title and labels come
// from the registry, its timeout bounds the body, and its outcome is collected
// for the reports. Extra decorators (Serial, Ordered, …) are passed through.
func Spec(id string, body func(ctx context.Context, t *T), decorators ...any) bool {
	info, ok := Lookup(id)
	if !ok {
		panic("suites: spec " + id + " is not in the registry (suites/specs.go)")
	}
	// The It is built inside a container, whose body Ginkgo runs when the
	// tree is built (at RunSpecs, after the runner installed the Env), so
	// that the spec's timeout can follow the configured patience.
	return Describe(info.ID, func() {
		args := append(specDecorators(info), decorators...)
		args = append(args, func(ctx SpecContext) {
			t := begin(info)
			defer collector.finish(t)
			if t.Env != nil && t.Env.Health != nil {
				if err := t.Env.Health(); err != nil {
					t.Indeterminate("not run: %v", err)
				}
			}
			body(ctx, t)
			t.finishBody()
		})
		It(info.ID+": "+info.Title, args...)
	})
}

func specDecorators(info Info) []any {
	return []any{Label(info.Labels()...), SpecTimeout(SpecTimeoutOf(info, CurrentEnv()))}
}

// SpecTimeoutOf bounds one spec: its registered timeout (DefaultSpecTimeout
// when none), stretched in proportion when the run's patience is above
// DefaultPatience, since a slower agent needs every wait longer.
func SpecTimeoutOf(info Info, env *Env) time.Duration {
	timeout := info.Timeout
	if timeout == 0 {
		timeout = DefaultSpecTimeout
	}
	if env != nil && env.Options.Patience > DefaultPatience {
		timeout = time.Duration(float64(timeout) * float64(env.Options.Patience) / float64(DefaultPatience))
	}
	return timeout
}

func begin(info Info) *T {
	t := &T{Info: info, Env: CurrentEnv()}
	if t.Env != nil && t.Env.Transcript != nil {
		t.mark = t.Env.Transcript.Mark()
	}
	collector.start(t)
	return t
}

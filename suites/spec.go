package suites

import (
	"context"
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// T is the per-spec handle a spec body gets: the environment, and the ways to
// record evidence and to end with a verdict other than pass or fail.
type T struct {
	Info Info
	Env  *Env

	mu           sync.Mutex
	override     reports.Verdict
	reason       string
	violations   []invariants.Violation
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
// (expected vs actual, where). With none it does nothing.
func (t *T) Violated(vs ...invariants.Violation) {
	GinkgoHelper()
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
	Fail(msg)
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
	})
	return It(info.ID+": "+info.Title, args...)
}

func specDecorators(info Info) []any {
	timeout := info.Timeout
	if timeout == 0 {
		timeout = DefaultSpecTimeout
	}
	return []any{Label(info.Labels()...), SpecTimeout(timeout)}
}

func begin(info Info) *T {
	t := &T{Info: info, Env: CurrentEnv()}
	if t.Env != nil && t.Env.Transcript != nil {
		t.mark = t.Env.Transcript.Mark()
	}
	collector.start(t)
	return t
}

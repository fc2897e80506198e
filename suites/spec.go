package suites

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
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
	// findings are what the spec saw that the text allows but a deployment
	// should know (Finding).
	findings []string
	// steps are the changes the spec made to the deployment (Changed).
	steps []reports.Step
	// soft are misses of the spec's SHOULD-level parts (Should).
	soft []invariants.Violation
	// suppliedBy is who supplied each piece of the client the driver
	// reported (SuppliedBy), for reports.Judged.By.
	suppliedBy map[string]string
	// keys are the prompt-map keys the spec used.
	keys         []string
	observations map[string]string
	transcript   []reports.Exchange
	// failMsg is set when the body failed; harnessErr when the harness
	// itself broke (a panic); timedOut when the body outlasted its timeout.
	failMsg    string
	harnessErr string
	timedOut   time.Duration
	// stoppedAs and stopped are the first verdict and reason the body ended
	// with other than pass or fail (end).
	stoppedAs reports.Verdict
	stopped   string
	// ran is how long the body took (the It may have waited for its turn).
	ran     time.Duration
	history *invariants.History
	// watch is what the run's end watch reads again (suites/watch.go).
	watch *taskWatch
	// stretch multiplies the step delay of every directive script the spec
	// sends (1 before a retry, Stretched); outran is set when the body ended
	// through TooFast; retries lists each attempt that did.
	stretch int
	outran  bool
	retries []string
	// lengthened is the largest multiplier StartRunning sent a script with
	// in this attempt (the attempt's stretch included): a retry starts
	// above it.
	lengthened int
	// busy is what the spec's clients saw of "not now" answers (busy.go).
	busy busyLog
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

// Failing says whether the spec has found a violation already (recorded or
// reported): a part that could only add another may then skip a long wait,
// saying so (Unchecked), since no outcome of it changes the verdict.
func (t *T) Failing() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pending)+len(t.violations) > 0
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

// Finding records something the spec saw that the A2A text allows, so it
// changes no verdict, but that whoever runs the deployment should know: a
// task lost across a restart orphans its client and its push configs
// (scenario 1). The result lists it (reports.Result.Findings) and the run's
// summary shows it.
func (t *T) Finding(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.findings = append(t.findings, fmt.Sprintf(format, args...))
}

// Changed records a change the spec made to the deployment, which began
// and ended at the given times, on the transcript's clock when the recorder
// tells it (a replay bundle performs the change at the same point of its
// schedule, internal/replay). It never changes the verdict.
func (t *T) Changed(s reports.Step, began, ended time.Time) {
	if t.Env == nil {
		return
	}
	c, ok := t.Env.Transcript.(interface{ Start() time.Time })
	if !ok {
		return
	}
	s.AtMs = float64(began.Sub(c.Start()).Microseconds()) / 1000
	s.DurMs = float64(ended.Sub(began).Microseconds()) / 1000
	t.mu.Lock()
	defer t.mu.Unlock()
	t.steps = append(t.steps, s)
}

// shouldMissed opens the part of a reason that lists SHOULD misses.
const shouldMissed = "a SHOULD was not met"

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
	// Every violation found so far: in a body that runs one step after
	// another this is vs, since the first flush ends the body; trials that
	// run concurrently (Each) may flush more after another trial did.
	vs = append([]invariants.Violation(nil), t.violations...)
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
	t.mu.Lock()
	t.failMsg = msg
	// A violation found is always reported: it outranks a could-not-run or
	// indeterminate another concurrent trial ended the spec with (Each).
	t.override, t.reason = "", ""
	t.mu.Unlock()
	panic(specEnded{})
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
		missed = shouldMissed + ": " + invariants.Summarize(soft, 20)
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

// CouldNotRunAsSaid ends the spec could-not-run with the reason alone,
// without the spec's Enable text: for a reason that already says what to
// change, where Enable would tell the vendor to do what the run already did.
func (t *T) CouldNotRunAsSaid(format string, args ...any) {
	GinkgoHelper()
	t.end(reports.CouldNotRun, fmt.Sprintf(format, args...))
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

// TooFast ends the spec indeterminate because a task the spec scripted to
// work for a while got somewhere before the harness did: it had ended before
// a cancel, a subscription or a push config reached it. Nothing is wrong with
// the agent (a loaded machine or a slow answer does this), and the spec
// needs a task that runs, not a particular length: under the directive
// extension the whole body is tried again with steps four times longer,
// until they are 16 times the script's (maxStretch, shared with
// StartRunning's own tries; runBody). A prompt map's task takes the time it
// takes, so there the spec stays indeterminate.
func (t *T) TooFast(format string, args ...any) {
	GinkgoHelper()
	t.mu.Lock()
	if t.stopped == "" {
		t.outran = true
	}
	t.mu.Unlock()
	t.end(reports.Indeterminate, fmt.Sprintf(format, args...))
}

// maxStretch bounds the retries of TooFast: steps 4 and then 16 times longer.
const maxStretch = 16

// Stretched is s as this attempt of the spec sends it: its step delay
// multiplied after each TooFast retry.
func (t *T) Stretched(s Script) Script {
	t.mu.Lock()
	k := t.stretch
	t.mu.Unlock()
	if k > 1 {
		s.Delay *= time.Duration(k)
	}
	return s
}

// mayLengthen reports whether StartRunning, having sent this attempt's
// script with its own multiplier k, may try four times longer within
// maxStretch; it records k for the retry that may follow.
func (t *T) mayLengthen(k int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	at := max(t.stretch, 1) * k
	t.lengthened = max(t.lengthened, at)
	return at*4 <= maxStretch
}

// reached is the largest step multiplier this attempt sent a script with.
// Called with t.mu held.
func (t *T) reached() int { return max(t.stretch, t.lengthened, 1) }

// mayRetry reports whether the body that just ended should run again with
// longer steps: it ended through TooFast with nothing violated or missed,
// the agent is scripted through the directive extension, the steps have
// room to grow, and at least half the spec's time is left.
func (t *T) mayRetry(ctx context.Context, timeout time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.outran || t.stoppedAs != reports.Indeterminate || t.failMsg != "" || t.harnessErr != "" ||
		len(t.violations)+len(t.pending)+len(t.soft) > 0 {
		return false
	}
	if t.Env == nil || t.Env.Behaviour == nil || t.Env.Behaviour.Kind() != "directive" || t.reached()*4 > maxStretch {
		return false
	}
	deadline, ok := ctx.Deadline()
	return ctx.Err() == nil && (!ok || time.Until(deadline) >= timeout/2)
}

// retry makes t ready for the body's next attempt: the ending, the parts
// left unchecked and what was observed are cleared (the transcript keeps
// every exchange of every attempt), the steps grow fourfold, and the
// observation "retried" says why each attempt was given up.
func (t *T) retry() {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := t.reached()
	t.retries = append(t.retries, fmt.Sprintf("attempt %d (steps x%d) ended indeterminate: %s", len(t.retries)+1, k, t.stopped))
	t.stretch, t.lengthened = k*4, 0
	t.outran, t.stoppedAs, t.stopped, t.override, t.reason = false, "", "", "", ""
	t.unchecked, t.findings, t.history = nil, nil, nil
	t.observations = map[string]string{
		"retried": strings.Join(t.retries, "; ") + fmt.Sprintf("; then steps x%d", t.stretch),
	}
}

func (t *T) end(v reports.Verdict, reason string) {
	GinkgoHelper()
	t.mu.Lock()
	// The first ending stands: in a body that runs one step after another
	// there is only one, since it ends the body; of trials that run
	// concurrently (Each) the first to end says why the spec stopped.
	if t.stopped == "" {
		t.stoppedAs, t.stopped = v, reason
	}
	v, reason = t.stoppedAs, t.stopped
	t.mu.Unlock()
	t.flushPending(string(v) + ": " + reason)
	t.mu.Lock()
	if t.failMsg == "" {
		t.override, t.reason = v, reason
	}
	t.mu.Unlock()
	panic(specEnded{})
}

// Spec declares the Ginkgo spec for a registered ID: its title and labels come
// from the registry, its timeout bounds the body, and its outcome is collected
// for the reports. Extra decorators (Serial, Ordered, …) are passed through.
//
// The body may run in the It (one spec at a time) or, when the runner planned
// a concurrent run (Plan), in a goroutine of the scheduler, while the It waits
// for it. Either way it ends through T (never Ginkgo's Fail or Skip directly,
// which only work in the It's goroutine), and the It replays the outcome.
func Spec(id string, body func(ctx context.Context, t *T), decorators ...any) bool {
	info, ok := Lookup(id)
	if !ok {
		panic("suites: spec " + id + " is not in the registry (suites/specs.go)")
	}
	bodies.set(info.ID, body)
	// The It is built inside a container, whose body Ginkgo runs when the
	// tree is built (at RunSpecs, after the runner installed the Env), so
	// that the spec's timeout can follow the configured patience.
	return Describe(info.ID, func() {
		args := append([]any{Label(info.Labels()...)}, decorators...)
		args = append(args, func(ctx SpecContext) {
			t := awaitSpec(ctx, info, body)
			collector.start(t)
			collector.finish(t)
			t.replay()
		})
		It(info.ID+": "+info.Title, args...)
	})
}

// specEnded is the panic with which T ends a body early; runBody recovers it.
type specEnded struct{}

// runBody runs a spec body to its end, bounded by the spec's timeout, and
// keeps its outcome in t. It never lets a panic out.
func runBody(parent context.Context, t *T, body func(context.Context, *T)) {
	collector.body(t.Info, true)
	defer collector.body(t.Info, false)
	timeout := SpecTimeoutOf(t.Info, t.Env)
	ctx, cancel := context.WithTimeout(recorder.WithOwner(parent, t.Info.ID), timeout)
	defer cancel()
	began := time.Now()
	for attempt(ctx, t, body) && t.mayRetry(ctx, timeout) {
		t.retry()
	}
	t.mu.Lock()
	t.ran = time.Since(began)
	t.mu.Unlock()
	t.bodyEnded()
	if ctx.Err() == context.DeadlineExceeded && parent.Err() == nil {
		t.mu.Lock()
		t.timedOut = timeout
		t.mu.Unlock()
	}
}

// attempt runs the body once; it reports false when the body panicked (a
// harness error, kept in t).
func attempt(ctx context.Context, t *T, body func(context.Context, *T)) (ended bool) {
	defer func() {
		r := recover()
		if r == nil {
			ended = true
			return
		}
		if _, ok := r.(specEnded); ok {
			ended = true
			return
		}
		t.mu.Lock()
		t.harnessErr = fmt.Sprintf("harness error (panic): %v\n%s", r, Cut(string(debug.Stack()), 4000))
		t.mu.Unlock()
	}()
	if t.Env != nil && t.Env.Health != nil {
		if err := t.Env.Health(); err != nil {
			t.Indeterminate("not run: %v", err)
		}
	}
	body(ctx, t)
	t.finishBody()
	return true
}

// replay reports in the It what the body ended with: a harness error or a
// timeout is indeterminate, a failure fails, any other verdict skips with it.
func (t *T) replay() {
	v, reason, fail := t.settled()
	switch {
	case fail != "":
		Fail(fail)
	case v != "":
		t.setVerdict(v, reason)
	}
}

// settled says how a body that has ended ends its It: with a verdict and its
// reason (v), with a failure message (fail), or (all empty) passed. replay
// and the early progress line (preview) both read it.
func (t *T) settled() (v reports.Verdict, reason, fail string) {
	t.mu.Lock()
	harness, timedOut, failMsg, override, why := t.harnessErr, t.timedOut, t.failMsg, t.override, t.reason
	t.mu.Unlock()
	switch {
	case harness != "":
		return reports.Indeterminate, harness, ""
	case timedOut > 0:
		r := fmt.Sprintf("spec ended early: it ran out of its time (%s) before it finished", timedOut)
		if failMsg != "" {
			r += "; what it recorded before may be an effect of the cut: " + failMsg
		}
		return reports.Indeterminate, r, ""
	}
	t.mu.Lock()
	refused, ok := t.refusedVerdict(override, failMsg)
	t.mu.Unlock()
	switch {
	case ok:
		return reports.Indeterminate, refused, ""
	case failMsg != "":
		return "", "", failMsg
	case override != "":
		return override, why, ""
	}
	return "", "", ""
}

func (t *T) setVerdict(v reports.Verdict, reason string) {
	t.mu.Lock()
	t.override, t.reason = v, reason
	t.mu.Unlock()
	Skip(string(v) + ": " + reason)
}

// SpecTimeoutOf bounds one spec: its registered timeout (DefaultSpecTimeout
// when none), stretched in proportion when the run's patience is above
// DefaultPatience, since a slower agent needs every wait longer. A spec that
// changes the deployment gets the hooks driver's HookTimeout on top: a hook
// (a rollout of a staging deployment) may take minutes, and the spec runs
// one. A push spec gets what --push-retry-wait adds to the default wait.
func SpecTimeoutOf(info Info, env *Env) time.Duration {
	timeout := info.Timeout
	if timeout == 0 {
		timeout = DefaultSpecTimeout
	}
	if env != nil && env.Options.Patience > DefaultPatience {
		timeout = time.Duration(float64(timeout) * float64(env.Options.Patience) / float64(DefaultPatience))
	}
	if env != nil && env.Options.HookTimeout > 0 && info.NeedsAny(NeedTopology) {
		timeout += env.Options.HookTimeout
	}
	// A push spec may wait for a retry (PUSH-007): a longer --push-retry-wait
	// lengthens its bound by as much.
	if env != nil && info.NeedsAny(NeedPush) && env.Options.RetryWait() > DefaultPushRetryWait {
		timeout += env.Options.RetryWait() - DefaultPushRetryWait
	}
	return timeout
}

func begin(info Info) *T {
	return &T{Info: info, Env: CurrentEnv()}
}

// SuppliedBy records who supplied the client's pieces in one case, as its
// driver reported them (a piece reported differently by two cases keeps
// the first answer other than the kit: the vendor's code is judged
// wherever it ran).
func (t *T) SuppliedBy(by map[string]string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for piece, who := range by {
		switch piece {
		case reports.PieceReceiver, reports.PieceState, reports.PieceDefaultPush:
		default:
			continue
		}
		switch who {
		case reports.SuppliedByDriver, reports.SuppliedByKit, reports.SuppliedBySDK:
		default:
			continue
		}
		if t.suppliedBy == nil {
			t.suppliedBy = map[string]string{}
		}
		if prev, ok := t.suppliedBy[piece]; !ok || prev == reports.SuppliedByKit {
			t.suppliedBy[piece] = who
		}
	}
}

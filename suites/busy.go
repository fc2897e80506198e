package suites

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Busy is not broken. An agent that answers "not now" (429 or 503, gRPC
// RESOURCE_EXHAUSTED or UNAVAILABLE) has said nothing about what a spec
// asked, so every client a spec builds (Transport) retries such answers as
// the agent asked, within the spec's patience (internal/client, busy.go).
// What the spec sees is the answer after the refusals; the refusals stay in
// its transcript and in the observation "busy". A request still refused
// when the patience runs out is no evidence either way: the spec is then
// indeterminate, naming the refusals (settled), never failed on them and
// never passed on them.

// maxGaveUp bounds the given-up calls a result names.
const maxGaveUp = 5

// busyLog is what a spec's clients saw of busy refusals.
type busyLog struct {
	retried int
	byOp    map[string]int
	gaveUp  []client.Refusal
	gaveUpN int
}

// noteRefusal is the RefusalObserver of the spec's clients.
func (t *T) noteRefusal(_ context.Context, r client.Refusal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := &t.busy
	if b.byOp == nil {
		b.byOp = map[string]int{}
	}
	b.byOp[r.Op]++
	if r.GaveUp {
		b.gaveUpN++
		if len(b.gaveUp) < maxGaveUp {
			b.gaveUp = append(b.gaveUp, r)
		}
	} else {
		b.retried++
	}
	if t.observations == nil {
		t.observations = map[string]string{}
	}
	t.observations["busy"] = b.summary()
}

// summary says how many refusals the spec's requests met, per operation.
// Called with t.mu held.
func (b *busyLog) summary() string {
	ops := make([]string, 0, len(b.byOp))
	for op, n := range b.byOp {
		ops = append(ops, fmt.Sprintf("%s %d", op, n))
	}
	sort.Strings(ops)
	s := fmt.Sprintf("%d \"not now\" refusal(s) (429/503, gRPC RESOURCE_EXHAUSTED/UNAVAILABLE) retried as the agent asked (%s)",
		b.retried, strings.Join(ops, ", "))
	if b.gaveUpN > 0 {
		s += fmt.Sprintf("; %d request(s) still refused when the patience ran out", b.gaveUpN)
	}
	return s
}

// refusedPastPatience names the requests the spec gave up on after busy
// refusals, "" when none. Called with t.mu held.
func (b *busyLog) refusedPastPatience() string {
	if b.gaveUpN == 0 {
		return ""
	}
	parts := make([]string, 0, len(b.gaveUp))
	for _, r := range b.gaveUp {
		asked := "no Retry-After"
		if r.RetryAfter != "" {
			asked = fmt.Sprintf("Retry-After %q", r.RetryAfter)
		}
		parts = append(parts, fmt.Sprintf("%s at %s refused %d time(s) over %s (last %s, %s)",
			r.Op, r.Authority, r.Attempt, r.Waited.Round(time.Millisecond), statusOf(r), asked))
	}
	s := strings.Join(parts, "; ")
	if b.gaveUpN > len(b.gaveUp) {
		s += fmt.Sprintf("; and %d more", b.gaveUpN-len(b.gaveUp))
	}
	return s
}

func statusOf(r client.Refusal) string {
	if r.Status != "" && r.HTTPStatus == 0 {
		return "gRPC " + r.Status
	}
	return fmt.Sprintf("HTTP %d", r.HTTPStatus)
}

// refusedVerdict is how settled ends a spec whose requests were refused
// past its patience: indeterminate, naming the refusals, whatever the body
// concluded from the answers it did not get (a fail is quoted as what may
// be their effect; a pass is no pass, since part of it went unasked). A
// could-not-run, indeterminate or not-applicable ending stands: it is no
// pass either and says its own why. ok is false when nothing was refused
// past the patience. Called with t.mu held.
func (t *T) refusedVerdict(override reports.Verdict, failMsg string) (reason string, ok bool) {
	named := t.busy.refusedPastPatience()
	if named == "" {
		return "", false
	}
	switch override {
	case reports.CouldNotRun, reports.Indeterminate, reports.NotApplicable:
		if failMsg == "" { // a fail clears the override (flushPending)
			return "", false
		}
	}
	reason = fmt.Sprintf("the agent kept answering \"not now\" past the spec's patience (%s), so the spec could not ask all it needed; a refusal is no evidence of a violation: %s",
		t.patienceText(), named)
	if failMsg != "" {
		reason += ". What the spec recorded may be an effect of the refusals: " + failMsg
	}
	return reason, true
}

// patienceText is the spec's patience for reasons, without Env: "10s".
func (t *T) patienceText() string {
	if t.Env == nil {
		return DefaultPatience.String()
	}
	return t.Patience().Round(time.Millisecond).String()
}

// busyOptions are the client options that make a spec's clients retry
// busy answers within its patience and tell it each refusal, and pace them
// (--max-rps).
func (t *T) busyOptions() []client.Option {
	opts := []client.Option{
		client.WithBusyRetry(func() time.Duration {
			if t.Env == nil {
				return DefaultPatience
			}
			return t.Patience()
		}),
		client.WithRefusalObserver(t.noteRefusal),
	}
	if t.Env != nil && t.Env.Pace != nil {
		opts = append(opts, client.WithPace(t.Env.Pace))
	}
	return opts
}

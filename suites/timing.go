package suites

import (
	"context"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// Time belongs to the agent (STYLE.md, last section): how long to wait for a
// state, and how long to watch a task that must not change, come from what
// this agent showed in this run, never from the reference agent's pace.

// DefaultPatience is the least time a spec waits for a task to reach a state
// (--patience). It grows with the slowest task the run has seen finish.
const DefaultPatience = 10 * time.Second

// PatienceFactor is how many times the slowest observed task a wait lasts
// before it gives up; calibration margins use the same factor.
const PatienceFactor = 3

// Timing is what the run has learned of the agent's pace, shared by every
// spec and safe for concurrent use.
type Timing struct {
	mu sync.Mutex
	// slowest is the longest creation-to-terminal span seen of a scripted task.
	slowest time.Duration
	// calibrated holds measured creation-to-terminal spans by prompt key;
	// calibrating serialises the first measurement of each key.
	calibrated  map[string]time.Duration
	calibrating map[string]*sync.Mutex
}

// Saw records the creation-to-terminal span of a task.
func (tm *Timing) Saw(d time.Duration) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if d > tm.slowest {
		tm.slowest = d
	}
}

// Slowest is the longest creation-to-terminal span seen so far.
func (tm *Timing) Slowest() time.Duration {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.slowest
}

func (tm *Timing) keyLock(key string) *sync.Mutex {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if tm.calibrating == nil {
		tm.calibrating = map[string]*sync.Mutex{}
	}
	m := tm.calibrating[key]
	if m == nil {
		m = &sync.Mutex{}
		tm.calibrating[key] = m
	}
	return m
}

func (tm *Timing) lookup(key string) (time.Duration, bool) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	d, ok := tm.calibrated[key]
	return d, ok
}

func (tm *Timing) store(key string, d time.Duration) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if tm.calibrated == nil {
		tm.calibrated = map[string]time.Duration{}
	}
	tm.calibrated[key] = d
}

// timing returns the run's Timing (a spec run without a runner gets one of
// its own).
func (t *T) timing() *Timing {
	if t.Env.Timing == nil {
		envMu.Lock()
		if t.Env.Timing == nil {
			t.Env.Timing = &Timing{}
		}
		envMu.Unlock()
	}
	return t.Env.Timing
}

// Patience is how long to wait for the agent to reach a state: the configured
// patience, or PatienceFactor times the slowest task this run has seen finish,
// whichever is longer.
func (t *T) Patience() time.Duration {
	p := t.Env.Options.Patience
	if p <= 0 {
		p = DefaultPatience
	}
	if s := PatienceFactor * t.timing().Slowest(); s > p {
		p = s
	}
	return p
}

// Expected is how long a task scripted by s takes on this agent, from its
// creation to its last transition: the script's own length under the
// directive extension, else the span measured once per prompt key by running
// such a task to its end (the first spec to ask pays for it; the rest share
// it). The measured span is recorded as an observation of the spec.
func (t *T) Expected(ctx context.Context, c *client.Client, s Script) time.Duration {
	GinkgoHelper()
	if t.Env.Behaviour == nil || t.Env.Behaviour.Kind() == "directive" {
		s = t.Stretched(s)
		return directive.Directive{Outcome: s.Outcome, DelayMs: s.Delay.Milliseconds(), ArtifactChunks: chunksOf(s)}.Duration()
	}
	key := KeyOf(t.Env.Behaviour, s)
	tm := t.timing()
	if d, ok := tm.lookup(key); ok {
		t.Observe("calibration."+key, d.Round(time.Millisecond).String()+" (measured earlier in the run)")
		return d
	}
	lock := tm.keyLock(key)
	lock.Lock()
	defer lock.Unlock()
	if d, ok := tm.lookup(key); ok {
		t.Observe("calibration."+key, d.Round(time.Millisecond).String()+" (measured earlier in the run)")
		return d
	}
	msg := t.Scripted(s)
	start := time.Now()
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil || resp.Task == nil {
		t.Indeterminate("could not measure how long a %q task takes on this agent: the calibration send got %s", key, describeSend(resp, err))
	}
	task := resp.Task
	if !task.Status.State.Terminal() {
		// Nothing is known of the agent's pace yet: the first measurement
		// may take PatienceFactor times the configured patience.
		task = t.waitFor(ctx, c, task.ID, "terminal (calibration)", TerminalOrInterrupted, PatienceFactor*t.Patience())
	}
	if !task.Status.State.Terminal() {
		t.Indeterminate("asked the agent for a task that works and then ends (prompt key %q) to measure its pace; task %s stopped in %s instead", key, task.ID, task.Status.State)
	}
	d := time.Since(start)
	tm.store(key, d)
	t.Observe("calibration."+key, fmt.Sprintf("%s, creation to %s", d.Round(time.Millisecond), task.Status.State))
	return d
}

func chunksOf(s Script) *int {
	if s.Chunks <= 0 {
		return nil
	}
	n := s.Chunks
	return &n
}

func describeSend(resp *a2a.SendMessageResponse, err error) string {
	if err != nil {
		return ErrText(err)
	}
	if resp == nil {
		return "no answer"
	}
	return "a Message, not a task"
}

// WatchUntil is the moment up to which a task created at created must be
// watched to see whether it changes after it should have stopped: past the
// moment its script would have ended (expected), with a margin of half that
// span and at least the settle window.
func (t *T) WatchUntil(created time.Time, expected time.Duration) time.Time {
	margin := expected / 2
	if s := t.Settle(); margin < s {
		margin = s
	}
	until := created.Add(expected + margin)
	if min := time.Now().Add(t.Settle()); until.Before(min) {
		until = min
	}
	return until
}

// sawEnd records a task's creation-to-terminal span when the history holds
// its creation.
func (t *T) sawEnd(id string) {
	h := t.History()
	for _, o := range invariants.ForTask(h.Observations(), id) {
		if o.Source == invariants.FromSend {
			t.timing().Saw(h.Now() - o.Issued)
			return
		}
	}
}

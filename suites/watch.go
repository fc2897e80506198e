package suites

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Terminal evidence has no horizon. A spec watches a task for as long as
// the task would have taken on this agent, plus a margin, and then moves
// on; but a task an agent acknowledged canceled, or showed in any terminal
// state, stays that way for ever (life-of-a-task: it "cannot restart"), so
// a completion that lands seconds after an acknowledged cancel is a
// violation whenever it arrives. Every agent spec that saw a task terminal
// keeps it under watch until the run ends: at the run's end (Revisit) the
// harness reads the task again through every client the spec used on it
// (one per binding, instance and identity), takes every push its
// receiver recorded for the spec's configs, and every stream event still
// recorded, and judges them against the first terminal evidence
// (invariants.LateChange). A violation turns the spec's verdict into a
// fail, states the delay since the evidence, and is listed in the run's
// notes and as a finding; either way the spec's result says how long its
// tasks were watched.

// taskWatch is what a spec leaves for the run's end watch: the clients it
// used on each task, the push tokens it made, and where its body ended on
// its history's clock.
type taskWatch struct {
	mu      sync.Mutex
	clients map[string][]*client.Client
	order   []string
	tokens  []string
	ended   time.Duration
}

// watchBudget bounds the whole end-of-run watch, watchCall one read, and
// watchParallel how many reads are in flight: a run that watched a
// thousand tasks of a slow agent still ends.
const (
	watchBudget   = 60 * time.Second
	watchCall     = 10 * time.Second
	watchParallel = 8
)

// watchClients bounds the clients read per task, and watchTasks the tasks
// watched per spec (LIFE-014 races a few hundred), so that a spec that
// touched a task from many clients does not multiply the end's reads.
const (
	watchClients = 6
	watchTasks   = 1000
)

// watchViolations bounds the violations one spec's watch lists; the rest
// are counted.
const watchViolations = 20

// touch records that the spec used c on task id, so that the run's end
// reads it again through c.
func (t *T) touch(id string, c *client.Client) {
	if id == "" || c == nil || t.Info.Suite == Client {
		return
	}
	w := t.watching()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.clients == nil {
		w.clients = map[string][]*client.Client{}
	}
	list, seen := w.clients[id]
	if !seen {
		if len(w.order) >= watchTasks {
			return
		}
		w.order = append(w.order, id)
	}
	for _, have := range list {
		if have == c {
			return
		}
	}
	if len(list) < watchClients {
		w.clients[id] = append(list, c)
	}
}

// watchToken records a push token the spec made: its deliveries are read at
// the run's end.
func (t *T) watchToken(token string) {
	if t.Info.Suite == Client {
		return
	}
	w := t.watching()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.tokens = append(w.tokens, token)
}

// watching returns the spec's watch, registering the spec for the run's
// end on first use.
func (t *T) watching() *taskWatch {
	t.mu.Lock()
	w, fresh := t.watch, t.watch == nil
	if fresh {
		w = &taskWatch{}
		t.watch = w
	}
	t.mu.Unlock()
	if fresh {
		collector.mu.Lock()
		if collector.watched == nil {
			collector.watched = map[string]*T{}
		}
		collector.watched[t.Info.ID] = t
		collector.mu.Unlock()
	}
	return w
}

// bodyEnded notes where the body ended on the history's clock: what was
// sighted after it, the spec never judged.
func (t *T) bodyEnded() {
	t.mu.Lock()
	w, h := t.watch, t.history
	t.mu.Unlock()
	if w == nil || h == nil {
		return
	}
	w.mu.Lock()
	w.ended = h.Now()
	w.mu.Unlock()
}

// watchedRead is one end-of-run read: a task through one client.
type watchedRead struct {
	t  *T
	id string
	c  *client.Client
}

// watchLooks reads every watched task once more and returns, per spec ID,
// the look that judges what the run's end saw. The reads run before any
// look, together and bounded (watchBudget); a read that fails or is not
// reached is absent evidence, which improves nothing and blames nothing.
func watchLooks() map[string]func(*reports.Result) (string, bool) {
	collector.mu.Lock()
	specs := make([]*T, 0, len(collector.watched))
	for _, t := range collector.watched {
		specs = append(specs, t)
	}
	collector.watched = nil
	collector.mu.Unlock()
	sort.Slice(specs, func(a, b int) bool { return specs[a].Info.ID < specs[b].Info.ID })

	// Which tasks each spec saw terminal: only those are read again.
	terminal := map[*T][]string{}
	var reads []watchedRead
	for _, t := range specs {
		t.mu.Lock()
		w, h := t.watch, t.history
		t.mu.Unlock()
		if w == nil || h == nil {
			continue
		}
		// Its own tasks: seen in an answer or on a stream of its own
		// (ListTasks shows other specs' tasks too).
		seen := map[string]bool{}
		w.mu.Lock()
		for _, o := range h.Observations() {
			if !o.State.Terminal() || o.Source == invariants.FromList || o.Source == invariants.FromPush || seen[o.TaskID] || len(seen) >= watchTasks {
				continue
			}
			seen[o.TaskID] = true
			terminal[t] = append(terminal[t], o.TaskID)
			for _, c := range w.clients[o.TaskID] {
				reads = append(reads, watchedRead{t: t, id: o.TaskID, c: c})
			}
		}
		w.mu.Unlock()
	}
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), watchBudget)
	defer cancel()
	var wg sync.WaitGroup
	sem := make(chan struct{}, watchParallel)
	var mu sync.Mutex
	done := map[*T]int{}
	for _, r := range reads {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func(r watchedRead) {
			defer wg.Done()
			defer func() { <-sem }()
			cctx, stop := context.WithTimeout(recorder.WithOwner(ctx, r.t.Info.ID), watchCall)
			defer stop()
			if _, err := r.t.Get(cctx, r.c, r.id); err == nil {
				mu.Lock()
				done[r.t]++
				mu.Unlock()
			}
		}(r)
	}
	wg.Wait()
	took := time.Since(began)

	looks := map[string]func(*reports.Result) (string, bool){}
	for _, t := range specs {
		ids := terminal[t]
		if len(ids) == 0 {
			continue
		}
		t, answered := t, done[t]
		looks[t.Info.ID] = func(r *reports.Result) (string, bool) {
			return t.judgeWatch(r, ids, answered, took)
		}
	}
	return looks
}

// judgeWatch judges a spec's watched tasks on everything seen of them,
// the run's end included, and writes what it found into r: the
// observation of the watch always, and for each violation the violation,
// a finding and a verdict of fail (warn for a spec whose level is not
// strict). It says what it saw when it found violations.
func (t *T) judgeWatch(r *reports.Result, ids []string, answered int, took time.Duration) (string, bool) {
	t.mu.Lock()
	w, h := t.watch, t.history
	t.mu.Unlock()
	w.mu.Lock()
	ended, tokens := w.ended, append([]string(nil), w.tokens...)
	w.mu.Unlock()
	now := h.Now()
	// Pushes: every delivery the receiver holds for the spec's configs,
	// whether or not the spec still listened.
	var obs []invariants.Observation
	for _, o := range h.Observations() {
		if o.Source != invariants.FromPush {
			obs = append(obs, o)
		}
	}
	pushes := 0
	if t.Env != nil && t.Env.Webhook != nil {
		for _, tok := range tokens {
			for _, d := range t.Env.Webhook.Deliveries(tok) {
				state, ok := d.Resp.State()
				if d.DecodeErr != nil || !ok || !d.Trusted() || d.Scripted {
					continue
				}
				pushes++
				at := h.At(d.At)
				obs = append(obs, invariants.Observation{TaskID: d.Resp.TaskID(), State: state, Source: invariants.FromPush,
					Issued: at, Received: at, Channel: "push", Ref: fmt.Sprintf("push %d to config …%s", d.Attempt, tail(tok))})
			}
		}
	}
	// A spec that already failed judged what it saw itself: only what came
	// after its body is new. Any other verdict gets the whole history.
	since := time.Duration(0)
	if r.Verdict == reports.Fail {
		since = ended
	}
	var vs []invariants.Violation
	var spans []time.Duration
	canceled, broke, events := 0, 0, 0
	for _, id := range ids {
		first, got := invariants.LateChange(id, obs, since)
		if first == nil {
			continue
		}
		spans = append(spans, now-first.Received)
		if first.Source == invariants.FromCancel && first.State == a2a.TaskStateCanceled {
			canceled++
		}
		if len(got) > 0 {
			broke++
		}
		vs = append(vs, got...)
	}
	for _, o := range obs {
		if o.Source == invariants.FromStream {
			events++
		}
	}
	if len(spans) == 0 {
		return "", false
	}
	if r.Observations == nil {
		r.Observations = map[string]string{}
	}
	r.Observations["watched-to-run-end"] = watchSummary(spans, canceled, answered, pushes, events, took)
	if len(vs) == 0 {
		return "", true
	}
	all := len(vs)
	if all > watchViolations {
		vs = append(vs[:watchViolations:watchViolations], invariants.Violation{Invariant: "terminal-final", Where: fmt.Sprintf("%d more sightings", all-watchViolations),
			Expected: "each task's first terminal state for ever", Actual: fmt.Sprintf("%d more violations of the same kind on the spec's tasks (%d in all)", all-watchViolations, all)})
	}
	r.Violations = append(r.Violations, vs...)
	r.Findings = append(r.Findings, fmt.Sprintf("%d of %d task(s) watched until the run's end broke their terminal state (%d violation(s)); the first: %s (%s)",
		broke, len(spans), all, vs[0].Actual, vs[0].Where))
	if t.Env != nil && t.Env.Transcript != nil {
		r.Transcript = t.Env.Transcript.Owned(t.Info.ID)
	}
	verdict := reports.Fail
	if !t.Info.Level.Strict() {
		verdict = reports.Warn
	}
	msg := "after the spec ended, watched until the run's end: " + invariants.Summarize(vs, 10)
	if r.Verdict == reports.Fail || r.Verdict == verdict {
		r.Reason = strings.TrimSpace(r.Reason + "\nAlso, " + msg)
	} else {
		r.Reason = msg
	}
	if severity[verdict] > severity[r.Verdict] {
		r.Verdict = verdict
	}
	return fmt.Sprintf("%d violation(s) of a terminal state seen after the spec ended: %s", len(vs), vs[0].String()), true
}

// watchSummary is the observation every watched spec gets: how many tasks,
// how long after their terminal evidence the last look came, and through
// what.
func watchSummary(spans []time.Duration, canceled, answered, pushes, events int, took time.Duration) string {
	sort.Slice(spans, func(a, b int) bool { return spans[a] < spans[b] })
	lo, hi := spans[0].Round(100*time.Millisecond), spans[len(spans)-1].Round(100*time.Millisecond)
	after := "its terminal state"
	switch {
	case canceled == len(spans):
		after = "the cancel"
	case len(spans) > 1:
		after = "their terminal states"
	}
	span := fmt.Sprintf("%s after %s", hi, after)
	if len(spans) > 1 && lo != hi {
		span = fmt.Sprintf("%s to %s after %s", lo, hi, after)
		if canceled > 0 && canceled < len(spans) {
			span += fmt.Sprintf(" (%d of them after an acknowledged cancel)", canceled)
		}
	}
	return fmt.Sprintf("%d task(s) watched until the run's end, %s: %d GetTask(s) answered at the end (the run's whole end look took %s), %d push(es) received for the spec's configs, %d stream event(s) recorded",
		len(spans), span, answered, took.Round(time.Millisecond), pushes, events)
}

// tail is the end of a token, enough to tell configs apart in a report
// without repeating the whole URL segment.
func tail(s string) string {
	if len(s) > 6 {
		return s[len(s)-6:]
	}
	return s
}

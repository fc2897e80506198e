package runner

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
	"github.com/a2a-conform/a2a-conform/suites"
)

// WaryAfter is how many transport-level failures (a reset, a truncated or
// oversized body or event, a stalled body or stream, oversized response
// headers) the target may show before the run turns wary. They need not be
// in a row: an agent that breaks one call in three is as costly as one that
// breaks them all. A slow but complete answer is never counted.
const WaryAfter = 3

// WaryBound replaces the body time once the run is wary: a target that cut
// or stalled answers already gets seconds, not the full timeout, to finish
// each later body it has begun. The wait for an answer's headers and the
// wait between a stream's events keep their normal bounds: a blocking call
// waits for its task, and a stream for the task's next step, as long as the
// agent's pace needs; cut to seconds, a slow agent's sound answers would
// count as new failures and could tip the run into "broken" or "stopped
// answering" (a target that stops answering altogether is caught by
// DeadAfter, at the request timeout).
const WaryBound = 3 * time.Second

// BrokenAfter and BrokenShare: once at least BrokenAfter transport failures
// make up at least one request in BrokenShare, the target counts as broken,
// like one that stopped answering: later requests fail at once and specs not
// yet run end indeterminate, saying why. A flaky agent (a reset now and then)
// stays far below; one that breaks every other call cannot be judged anyway.
const (
	BrokenAfter = 12
	BrokenShare = 3
)

// MaxResponseHeaderBytes caps an answer's header block (Go's default is
// 10 MiB); real agents and proxies send a few KiB.
const MaxResponseHeaderBytes = 256 << 10

// wary remembers how the target misbehaved at the transport level and
// chooses the bounds of each new request (client.Guard asks per request).
type wary struct {
	normal client.Limits

	mu    sync.Mutex
	seen  []client.Misbehaviour // the first WaryAfter, for the note
	count int
	since time.Time // when the run turned wary
}

func newWary(requestTimeout, patience time.Duration) *wary {
	return &wary{normal: client.Limits{
		MaxBody:  client.DefaultMaxBody,
		BodyTime: requestTimeout,
		// A stream may go quiet while a task works; patience is how long the
		// run waits for a step anyway.
		EventIdle: max(requestTimeout, patience),
	}}
}

func (w *wary) limits() client.Limits {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.count < WaryAfter {
		return w.normal
	}
	return client.Limits{MaxBody: w.normal.MaxBody, BodyTime: min(WaryBound, w.normal.BodyTime), EventIdle: w.normal.EventIdle,
		Why: fmt.Sprintf("body time cut to %s after %d transport failures", WaryBound, w.count)}
}

func (w *wary) observe(m client.Misbehaviour) {
	// A spec that restarts or replaces instances (registered Exclusive, so
	// it runs alone) cuts answers on purpose: those are not the target's
	// misbehaviour, and must not make the rest of the run wary.
	if m.Ctx != nil {
		if info, ok := suites.Lookup(recorder.OwnerOf(m.Ctx)); ok && info.Exclusive {
			return
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.count++
	if len(w.seen) < WaryAfter {
		w.seen = append(w.seen, m)
	}
	if w.count == WaryAfter {
		w.since = time.Now()
	}
}

// broken is non-nil once the target counts as broken (BrokenAfter), given
// how many requests the run has sent.
func (w *wary) broken(requests int) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.count < BrokenAfter || w.count*BrokenShare < requests {
		return nil
	}
	first := ""
	if len(w.seen) > 0 {
		first = fmt.Sprintf(" (first: %s: %s)", w.seen[0].Kind, w.seen[0].Detail)
	}
	return fmt.Errorf("the target kept failing at the transport level: %d of %d requests got an answer that was cut, reset, oversized or stalled%s",
		w.count, requests, first)
}

// note is the run-level note for the report, "" while the target behaved.
func (w *wary) note() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.count == 0 {
		return ""
	}
	var kinds []string
	for _, m := range w.seen {
		kinds = append(kinds, m.Kind+": "+m.Detail)
	}
	if w.count < WaryAfter {
		return fmt.Sprintf("the target failed at the transport level %d time(s) (%s)", w.count, strings.Join(kinds, "; "))
	}
	return fmt.Sprintf("the target failed at the transport level %d times (first: %s); after the %s, every later body was bounded by %s instead of the request timeout (the wait for headers and for stream events was not cut: they follow the agent's pace)",
		w.count, strings.Join(kinds, "; "), ordinal(WaryAfter), WaryBound)
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

package suites

import (
	"fmt"
	"runtime/debug"
	"sync"

	. "github.com/onsi/ginkgo/v2"

	"github.com/a2a-conform/a2a-conform/internal/client"
)

// Each runs trial(0) … trial(n-1) at the same time and returns once every
// one has ended. It is for the independent trials of one requirement, each on
// tasks (and contexts) of its own, whose order the spec does not judge: the
// same check on every binding, or several tasks that must each get a new id.
// A real agent takes seconds per task, so trials one after another cost the
// sum of their tasks' times, and together only the longest (STYLE.md, "Time
// comes from the agent"). Where order matters, keep the trials one after
// another.
//
// Under the directive extension the trials still run one after another, in
// index order, exactly as a loop would: its scripts are short (a step of
// 150 ms or less), so the trials cost little in sequence, and run together
// they load the agent enough that a scripted task can end before the
// spec's cancel or subscription reaches it (the JS SDK agent on three
// instances lost LIFE-012's race that way). Together is for agents whose
// tasks take their own time: a prompt map, or plain messages.
//
// A trial records what it finds with Record, Observe, Should, Unchecked and
// Finding, which are safe to call concurrently (the report lists violations
// in the order they were recorded); whatever a trial writes besides (a slot
// of a slice, its own index) the spec reads after Each returns. A trial
// records a violation as it finds it, rather than keeping it for later, so
// that another trial's ending cannot lose it.
//
// A trial may end the spec (Indeterminate, CouldNotRun, Violated, a failed
// WaitFor): the other trials are not cut short, since a cut request would
// read as the agent's error, and once all have ended the spec ends with
// every violation any of them found and else with the first ending. So a
// verdict never depends on which trial happened to finish first, except for
// which of two endings without a violation the reason names.
func (t *T) Each(n int, trial func(i int)) {
	GinkgoHelper()
	if t.Env == nil || scriptedByDirective(t.Env.Behaviour) {
		for i := 0; i < n; i++ {
			trial(i)
		}
		return
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		ended bool
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				r := recover()
				if r == nil {
					return
				}
				mu.Lock()
				ended = true
				mu.Unlock()
				if _, ok := r.(specEnded); ok {
					return
				}
				t.mu.Lock()
				if t.harnessErr == "" {
					t.harnessErr = fmt.Sprintf("harness error (panic) in trial %d: %v\n%s", i, r, Cut(string(debug.Stack()), 4000))
				}
				t.mu.Unlock()
			}()
			trial(i)
		}()
	}
	wg.Wait()
	if !ended {
		return
	}
	t.mu.Lock()
	v, reason := t.stoppedAs, t.stopped
	t.mu.Unlock()
	also := ""
	if reason != "" {
		also = string(v) + ": " + reason
	}
	// Violations a trial recorded after another ended the spec are reported
	// with the rest; with none, the first ending (already kept) stands.
	t.flushPending(also)
	panic(specEnded{})
}

// EachClient runs check once per client, all at the same time (Each): the
// same requirement on every binding, each binding's check on tasks of its
// own.
func (t *T) EachClient(cs []*client.Client, check func(c *client.Client)) {
	GinkgoHelper()
	t.Each(len(cs), func(i int) { check(cs[i]) })
}

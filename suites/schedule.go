package suites

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"time"
)

// A real agent takes seconds per task, so a run spends its time waiting on
// the agent. The scheduler runs the bodies of independent specs at the same
// time, up to a bound, while Ginkgo walks its Its one by one: each It waits
// for its own body and reports its outcome. A spec registered Exclusive runs
// alone, after every concurrent spec has ended. Every spec judges only what
// it created (its own tasks, its own context), so the verdicts are those of a
// run with parallelism 1.

// DefaultParallel is how many specs run at once unless --parallel says
// otherwise. Specs spend their time waiting on the agent, not on the
// harness's CPU; eight keeps a slow agent busy without looking like a load
// test (each spec has at most a few requests in flight; LIFE-014's race adds
// its own sixteen).
const DefaultParallel = 8

// stopGrace is how long after its timeout a body that ignores its context is
// waited for before the It gives up on it.
const stopGrace = 10 * time.Second

type bodyRegistry struct {
	mu sync.Mutex
	m  map[string]func(context.Context, *T)
}

var bodies = &bodyRegistry{m: map[string]func(context.Context, *T){}}

func (b *bodyRegistry) set(id string, f func(context.Context, *T)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[id] = f
}

func (b *bodyRegistry) get(id string) func(context.Context, *T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.m[id]
}

// job is one planned spec body.
type job struct {
	info Info
	t    *T
	// started closes when the body begins, done when it has ended.
	started, done chan struct{}
}

type scheduler struct {
	parallel int
	order    []Info
	once     sync.Once
	jobs     map[string]*job
}

var (
	planMu  sync.Mutex
	planned *scheduler
)

// Plan schedules the run: the bodies of specs (the run's selection) start as
// soon as the first It runs, in an order set by the seed, parallel at a time;
// exclusive ones run alone at the end. Parallel 1 runs them one after
// another in the same way, so that a serial run, too, meets every exclusive
// spec's changes to the deployment (a roll, a restart) only after the other
// specs ended, and gives the same verdicts. With parallel ≤ 0 there is no
// plan and each body runs in its It (Ginkgo's own order; `go test ./suites`).
func Plan(specs []Info, parallel int, seed int64) {
	planMu.Lock()
	defer planMu.Unlock()
	if parallel <= 0 {
		planned = nil
		return
	}
	order := startOrder(specs, seed)
	s := &scheduler{parallel: parallel, order: order, jobs: map[string]*job{}}
	for _, info := range order {
		s.jobs[info.ID] = &job{info: info, started: make(chan struct{}), done: make(chan struct{})}
	}
	planned = s
}

// startOrder is the order in which Plan starts the bodies: it follows the
// seed, so that a rerun with the same seed interleaves the same way as far
// as timing allows. (The terminal prints each spec as it ends, so its lines
// show the finish order, which timing decides.)
func startOrder(specs []Info, seed int64) []Info {
	order := append([]Info(nil), specs...)
	rand.New(rand.NewSource(seed)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}

func currentPlan() *scheduler {
	planMu.Lock()
	defer planMu.Unlock()
	return planned
}

// awaitSpec returns the spec's T once its body has ended: run here when the
// run is not concurrent or the spec was not planned, else by the scheduler.
func awaitSpec(ctx context.Context, info Info, body func(context.Context, *T)) *T {
	s := currentPlan()
	var j *job
	if s != nil {
		j = s.jobs[info.ID]
	}
	if j == nil {
		t := begin(info)
		runBody(ctx, t, body)
		return t
	}
	s.once.Do(func() { go s.dispatch() })
	limit := SpecTimeoutOf(info, CurrentEnv()) + stopGrace
	started := j.started
	var overdue <-chan time.Time
	for {
		select {
		case <-j.done:
			return j.t
		case <-ctx.Done():
			return interrupted(info, "the run was interrupted while the spec waited for its turn or ran")
		case <-started:
			// Once the body runs, it has its timeout plus a grace to end.
			timer := time.NewTimer(limit)
			defer timer.Stop()
			overdue, started = timer.C, nil
		case <-overdue:
			return interrupted(info, fmt.Sprintf("the spec did not stop within %s of its timeout; the harness left it behind", stopGrace))
		}
	}
}

func interrupted(info Info, why string) *T {
	t := begin(info)
	t.harnessErr = why
	return t
}

// dispatch runs the planned bodies: the concurrent ones parallel at a time,
// then the exclusive ones alone.
func (s *scheduler) dispatch() {
	sem := make(chan struct{}, s.parallel)
	var wg sync.WaitGroup
	for _, info := range s.order {
		if info.Exclusive {
			continue
		}
		j := s.jobs[info.ID]
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			s.run(j)
		}()
	}
	wg.Wait()
	for _, info := range s.order {
		if info.Exclusive {
			s.run(s.jobs[info.ID])
		}
	}
}

func (s *scheduler) run(j *job) {
	body := bodies.get(j.info.ID)
	j.t = begin(j.info)
	close(j.started)
	if body == nil {
		j.t.harnessErr = "harness defect: the spec is registered but has no body in this build"
	} else {
		runBody(context.Background(), j.t, body)
	}
	// Told now, not when Ginkgo's walk reaches the It: one long spec must
	// not hold back the lines of every spec that ended after it.
	collector.early(j.t)
	close(j.done)
}

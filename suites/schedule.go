package suites

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
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
// otherwise, for an agent scripted through the directive extension. Specs
// spend their time waiting on the agent, not on the harness's CPU; eight
// keeps an agent busy without looking like a load test. The directive's
// scripts are short (a step of 150 ms or less), sized for an agent that
// answers promptly: twice as many specs at once, each running its bindings
// together, slowed the JS SDK agent on three instances enough that scripted
// tasks ended before the specs' cancels and subscriptions reached them
// (LIFE-012, 013, 017, 018 and ROLL-006 went indeterminate;
// scripts/bench-real.sh case js-3 on a loaded machine).
const DefaultParallel = 8

// SlowParallel is the default for an agent driven by a prompt map, as an LLM
// agent is, whose tasks take their own time. Against
// such an agent with 3 s tasks the default run's concurrent specs add up to
// about 200 s of waiting (scripts/bench-real.sh, case slow-3s): at 8 at a
// time that sum set the run's length (about 26 s before the exclusive
// specs), at 16 the longest spec does (about 16 s). Each spec keeps a task or
// two per binding in flight (LIFE-014's race adds its own, raceParallel); an
// agent that cannot take that many at once is run with a lower --parallel,
// which gives the same verdicts.
const SlowParallel = 16

// ParallelFor is how many specs run at once when --parallel does not say:
// SlowParallel for an agent driven by a prompt map, else DefaultParallel.
// An agent the run can only send plain messages to keeps DefaultParallel:
// little of the run can judge it anyway, and when such an agent stops
// answering, every spec already in flight meets the silence before the run
// notices (TestHangingAgentIsNoticedAndScoresNothing).
func ParallelFor(b Behaviour) int {
	if b != nil && b.Kind() == "prompt-map" {
		return SlowParallel
	}
	return DefaultParallel
}

// scriptedByDirective reports whether the run scripts the agent through the
// directive extension, whose scripts set the tasks' (short) times.
func scriptedByDirective(b Behaviour) bool { return b != nil && b.Kind() == "directive" }

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
// soon as the first It runs, the long ones first and otherwise in an order
// set by the seed, parallel at a time;
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
// as timing allows; the long specs (Info.Long) start first, longest
// processing time first as schedulers do, so that the run's critical path
// begins at its start rather than wherever the shuffle put it. (The
// terminal prints each spec as it ends, so its lines show the finish order,
// which timing decides.)
func startOrder(specs []Info, seed int64) []Info {
	order := append([]Info(nil), specs...)
	rand.New(rand.NewSource(seed)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	sort.SliceStable(order, func(i, j int) bool { return order[i].Long && !order[j].Long })
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

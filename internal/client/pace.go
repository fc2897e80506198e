package client

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"time"
)

// Pace bounds the rate at which the harness sends requests (`run
// --max-rps`) and counts the rate it used. The bound is a token bucket per
// instance: a request takes a slot in the bucket of each instance it may
// reach, as Route says (by default the authority, host:port, it goes to is
// its own instance). Through the harness's load balancer a pinned request
// reaches one instance, and an unpinned one any of them, so it waits for a
// slot in every instance's bucket; so an agent that limits each instance
// to N requests a second gets at most N from the harness at each instance.
// The count is kept per instance, as the answer names it
// (A2A-Conform-Instance, which the balancer adds to every answer it
// relays), else per authority.
//
// A Pace is safe for concurrent use; a nil *Pace bounds and counts nothing.
type Pace struct {
	interval time.Duration // 0: unbounded
	burst    int
	start    time.Time

	mu sync.Mutex
	// tat is each bucket's theoretical arrival time (GCRA, the token
	// bucket as a schedule): the earliest time the next request may go.
	tat    map[string]time.Time
	counts map[string]*rateCount
	route  func(authority, pin string) []string
}

// PinHeader is the header by which a request to the harness's balancer
// names the instance slot it goes to (topology.PinHeader).
const PinHeader = "A2A-Conform-Pin"

// Route sets how a request is mapped to the buckets of the instances it may
// reach: f gets the authority it is sent to and its PinHeader ("" when
// unpinned) and returns bucket keys (none: the authority's own). The
// runner sets it once the deployment is known.
func (p *Pace) Route(f func(authority, pin string) []string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.route = f
}

// rateCount is one instance's requests in 100 ms steps since the Pace's
// start.
type rateCount struct {
	total       int
	first, last time.Time
	steps       map[int64]int
}

// paceStep is the resolution of the peak rate.
const paceStep = 100 * time.Millisecond

// InstanceHeader is the header that names the instance that answered (the
// reference agent and the harness's balancer set it).
const InstanceHeader = "A2A-Conform-Instance"

// NewPace bounds each authority to rps requests a second (0: unbounded,
// counting only). A burst of one request keeps the requests evenly spaced,
// which is what an agent's own bucket of any size admits.
func NewPace(rps float64) *Pace {
	p := &Pace{burst: 1, start: time.Now(), tat: map[string]time.Time{}, counts: map[string]*rateCount{}}
	if rps > 0 {
		p.interval = time.Duration(float64(time.Second) / rps)
	}
	return p
}

// Bounded reports whether the Pace bounds the rate.
func (p *Pace) Bounded() bool { return p != nil && p.interval > 0 }

// Wait blocks until a request to authority (pinned to pin, "" for none)
// may go, or ctx ends (its error is returned then, and the slots are lost,
// which only slows later requests).
func (p *Pace) Wait(ctx context.Context, authority, pin string) error {
	if !p.Bounded() {
		return nil
	}
	p.mu.Lock()
	route := p.route
	p.mu.Unlock()
	var keys []string
	if route != nil {
		// Outside the lock: the route asks the topology, which has locks
		// of its own.
		keys = route(authority, pin)
	}
	if len(keys) == 0 {
		keys = []string{authority}
	}
	p.mu.Lock()
	now := time.Now()
	// GCRA: a request may go once its bucket's tat is at most (burst-1)
	// intervals ahead of now, and moves the tat one interval on. A request
	// that may reach several instances goes when every one of them has a
	// slot, and takes that slot in each.
	at := now
	for _, k := range keys {
		if t := p.tat[k].Add(-time.Duration(p.burst-1) * p.interval); t.After(at) {
			at = t
		}
	}
	for _, k := range keys {
		from := at
		if p.tat[k].After(from) { // only with a burst above one
			from = p.tat[k]
		}
		p.tat[k] = from.Add(p.interval)
	}
	p.mu.Unlock()
	d := at.Sub(now)
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// Count records one request sent at at, answered by instance.
func (p *Pace) Count(instance string, at time.Time) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.counts[instance]
	if c == nil {
		c = &rateCount{first: at, steps: map[int64]int{}}
		p.counts[instance] = c
	}
	c.total++
	if at.Before(c.first) {
		c.first = at
	}
	if at.After(c.last) {
		c.last = at
	}
	c.steps[int64(at.Sub(p.start)/paceStep)]++
}

// Rate is what a run sent to one instance: how many requests, the most in
// any one second (measured in 100 ms steps) and the mean per second over
// the span from its first request to its last (at least one second).
type Rate struct {
	Instance   string  `json:"instance"`
	Requests   int     `json:"requests"`
	PeakPerSec int     `json:"peakPerSecond"`
	MeanPerSec float64 `json:"meanPerSecond"`
}

// Rates returns the counted rates, by instance name.
func (p *Pace) Rates() []Rate {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Rate, 0, len(p.counts))
	window := int64(time.Second / paceStep)
	for name, c := range p.counts {
		steps := make([]int64, 0, len(c.steps))
		for s := range c.steps {
			steps = append(steps, s)
		}
		sort.Slice(steps, func(i, j int) bool { return steps[i] < steps[j] })
		peak, sum, lo := 0, 0, 0
		for _, s := range steps {
			sum += c.steps[s]
			for steps[lo] <= s-window {
				sum -= c.steps[steps[lo]]
				lo++
			}
			peak = max(peak, sum)
		}
		span := max(c.last.Sub(c.first), time.Second)
		mean := float64(c.total) / span.Seconds()
		out = append(out, Rate{Instance: name, Requests: c.total, PeakPerSec: peak, MeanPerSec: float64(int(mean*10+0.5)) / 10})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Instance < out[j].Instance })
	return out
}

// Transport paces and counts every HTTP request sent through next.
func (p *Pace) Transport(next http.RoundTripper) http.RoundTripper {
	if p == nil {
		return next
	}
	return pacedTransport{p: p, next: next}
}

type pacedTransport struct {
	p    *Pace
	next http.RoundTripper
}

func (t pacedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	authority := AuthorityOf(req.URL)
	if err := t.p.Wait(req.Context(), authority, req.Header.Get(PinHeader)); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	sent := time.Now()
	resp, err := t.next.RoundTrip(req)
	instance := authority
	if resp != nil {
		if name := resp.Header.Get(InstanceHeader); name != "" && len(name) <= 100 {
			instance = name
		}
	}
	t.p.Count(instance, sent)
	return resp, err
}

// WithPace paces and counts the client's gRPC calls (its HTTP calls are
// paced by the http.Client's transport, Pace.Transport).
func WithPace(p *Pace) Option {
	return func(c *Client) { c.pace = p }
}

// grpcPaced waits for the gRPC call's slot; count records it once the
// answer's header metadata names the instance.
func (c *Client) grpcPaced(ctx context.Context) (count func(header []string), err error) {
	if c.pace == nil {
		return func([]string) {}, nil
	}
	if err := c.pace.Wait(ctx, c.Authority(), c.header.Get(PinHeader)); err != nil {
		return nil, err
	}
	sent := time.Now()
	return func(names []string) {
		instance := c.Authority()
		if len(names) > 0 && names[0] != "" && len(names[0]) <= 100 {
			instance = names[0]
		}
		c.pace.Count(instance, sent)
	}, nil
}

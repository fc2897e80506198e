package topology

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// LateWarmUp is how long an embedded instance started by StartInstance
// (without waiting) stays in its warm-up, answering 503: long enough for a
// spec polling its card to see the window, and for the late start of a
// dispatcher (scenario 2) to stand out from a push's normal latency.
const LateWarmUp = 2 * time.Second

// The stages of one slot's replacement at which RollStepped calls back; the
// same strings as suites.RollBefore, suites.RollReady and suites.RollDraining.
const (
	// RollBefore: nothing has changed yet for slot k (newURL is "").
	RollBefore = "before"
	// RollReady: the new instance serves its card; the old one still holds
	// the slot, undrained.
	RollReady = "ready"
	// RollDraining: the slot points at the new instance; the old one has been
	// told to drain and is not stopped yet.
	RollDraining = "draining"
)

// RollAt is told the stage of a rolling replacement, for slot k, with the
// old and new instances' own base URLs; the roll waits for it to return.
type RollAt = func(ctx context.Context, stage string, k int, oldURL, newURL string)

// beforeOnly adapts Roller's step (told before each slot) to RollAt.
func beforeOnly(step func(k int)) RollAt {
	if step == nil {
		return nil
	}
	return func(_ context.Context, stage string, k int, _, _ string) {
		if stage == RollBefore {
			step(k)
		}
	}
}

// DrainTimeout bounds how long a replaced or restarted instance may take to
// drain (its open streams and blocking calls) before it is cut.
const DrainTimeout = 5 * time.Second

// startBalanced starts n instances named embedded-0 … behind a new balancer.
// They carry no BaseURL: their cards name whatever origin the client called
// (the balancer, or the CDN in front of it) through X-Forwarded-Host, and
// for gRPC the deployment's one gRPC address: one card for every instance.
func (e *Embedded) startBalanced(ctx context.Context, opts fakes.Options, n int) error {
	lb, err := NewBalancer()
	if err != nil {
		return err
	}
	cdn, err := NewCDN(lb.URL())
	if err != nil {
		lb.Close()
		return err
	}
	front, err := newGRPCFront(e.grpcTarget)
	if err != nil {
		lb.Close()
		cdn.Close()
		return err
	}
	e.mu.Lock()
	e.lb, e.tmpl, e.cdn, e.grpc = lb, opts, cdn, front
	e.caps = [2]bool{opts.DisableStreaming, opts.DisablePush}
	e.instances = make([]*instance, n)
	e.mu.Unlock()
	for k := 0; k < n; k++ {
		in, err := e.launch(ctx, k, e.optsFor(k, 0, 0), true)
		if err != nil {
			return err
		}
		e.put(k, in)
	}
	return nil
}

// optsFor is instance k's options: the run's template, its own name (kept
// across restarts, as a StatefulSet keeps pod names), a generation (0: the
// template's) and a warm-up.
func (e *Embedded) optsFor(k, gen int, warmUp time.Duration) fakes.Options {
	e.mu.Lock()
	o := e.tmpl
	e.mu.Unlock()
	o.Name = "embedded-" + strconv.Itoa(k)
	o.BaseURL = ""
	if gen > 0 {
		o.Generation = gen
	}
	if o.Generation == 0 {
		o.Generation = 1
	}
	o.WarmUp = warmUp
	return o
}

// launch starts one instance on a fresh loopback port; with wait it returns
// once the instance is ready, else at once while it warms up.
func (e *Embedded) launch(ctx context.Context, k int, opts fakes.Options, wait bool) (*instance, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("embedded agent %d: %w", k, err)
	}
	// Each instance serves gRPC on a listener of its own; its card declares
	// the deployment's gRPC address (grpcfront.go), which forwards to it.
	gln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("embedded agent %d (gRPC): %w", k, err)
	}
	opts.GRPCURL = "http://" + gln.Addr().String()
	e.mu.Lock()
	if e.grpc != nil {
		// The card names the deployment's gRPC address, not this
		// instance's own listener: one card for every instance.
		opts.GRPCURL = e.grpc.url
	}
	e.mu.Unlock()
	a, err := fakes.New(opts)
	if err != nil {
		ln.Close()
		gln.Close()
		return nil, err
	}
	in := &instance{agent: a, url: "http://" + ln.Addr().String(), addr: ln.Addr().String(), gaddr: gln.Addr().String(),
		done: make(chan error, 1), opts: opts, grpc: a.GRPCServer(),
		srv: &http.Server{Handler: a, ReadHeaderTimeout: 10 * time.Second}}
	go func() { in.done <- in.srv.Serve(ln) }()
	go in.grpc.Serve(gln)
	if !wait {
		go a.Start(context.Background())
		return in, nil
	}
	if err := a.Start(ctx); err != nil {
		in.srv.Close()
		in.grpc.Stop()
		return nil, fmt.Errorf("embedded agent %d: start: %w", k, err)
	}
	return in, nil
}

// put installs in as slot k and points the balancer at it.
func (e *Embedded) put(k int, in *instance) {
	e.mu.Lock()
	for len(e.instances) <= k {
		e.instances = append(e.instances, nil)
	}
	e.instances[k] = in
	lb := e.lb
	e.mu.Unlock()
	if lb != nil {
		if in == nil {
			lb.Set(k, "", "")
		} else {
			lb.Set(k, in.agent.Name(), in.url)
		}
	}
}

func (e *Embedded) slot(k int) (*instance, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lb == nil {
		return nil, errors.New("embedded driver: the run has no load balancer (one instance, rollout suite not selected)")
	}
	if k < 0 || k >= len(e.instances) {
		return nil, fmt.Errorf("embedded driver: no instance %d (there are %d)", k, len(e.instances))
	}
	return e.instances[k], nil
}

// stop drains an instance (503 to new work, leases handed back, streams
// and blocking calls let finish for DrainTimeout) and closes its listener.
func stopInstance(in *instance) {
	if in == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), DrainTimeout)
	defer cancel()
	in.agent.Shutdown(ctx)
	if err := in.srv.Shutdown(ctx); err != nil {
		in.srv.Close()
	}
	if in.grpc != nil {
		in.grpc.Stop()
	}
}

// grpcTarget is the gRPC listener a new connection to the deployment's
// gRPC address goes to: the first ready instance's, as the balancer's
// default policy sends an unpinned call to the first live, undrained slot.
func (e *Embedded) grpcTarget() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, in := range e.instances {
		if in != nil && in.agent.Ready() {
			return in.gaddr
		}
	}
	return ""
}

// BalancerURL is the load balancer's base URL ("" without one).
func (e *Embedded) BalancerURL() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lb == nil {
		return ""
	}
	return e.lb.URL()
}

// InstanceNames names the instances by slot ("" for a stopped slot).
func (e *Embedded) InstanceNames() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]string, len(e.instances))
	for k, in := range e.instances {
		if in != nil {
			out[k] = in.agent.Name()
		}
	}
	return out
}

// InstanceURL is slot k's own base URL, bypassing the balancer.
func (e *Embedded) InstanceURL(k int) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if k < 0 || k >= len(e.instances) || e.instances[k] == nil {
		return ""
	}
	return e.instances[k].url
}

// Pin sends a client's calls to slot k through the balancer.
func (e *Embedded) Pin(k int) client.Option { return client.WithHeader(PinHeader, strconv.Itoa(k)) }

// Generation is the highest card generation an instance serves.
func (e *Embedded) Generation() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	gen := 0
	for _, in := range e.instances {
		if in != nil {
			gen = max(gen, in.agent.Generation())
		}
	}
	return gen
}

// Roll replaces every instance, one slot at a time, by one of the next
// generation (card version 1.<gen>.0): start the new one and wait until it
// is ready, point the slot at it, then drain and stop the old one. step, when
// set, is told before each slot is replaced. It returns the new generation.
func (e *Embedded) Roll(ctx context.Context, step func(k int)) (int, error) {
	return e.RollStepped(ctx, beforeOnly(step))
}

// RollStepped is Roll that calls at, and waits for it, at each stage of each
// slot's replacement (RollBefore, RollReady, RollDraining; see
// suites.SteppedRoller). The old instance's drain is held open while at
// runs for RollDraining: it answers on its own URL, refusing new work, as a
// pod does between SIGTERM and its exit.
func (e *Embedded) RollStepped(ctx context.Context, at RollAt) (int, error) {
	gen := e.Generation() + 1
	for k := range e.InstanceNames() {
		old, err := e.slot(k)
		if err != nil {
			return 0, err
		}
		oldURL := ""
		if old != nil {
			oldURL = old.url
		}
		if at != nil {
			at(ctx, RollBefore, k, oldURL, "")
		}
		in, err := e.launch(ctx, k, e.optsFor(k, gen, 0), true)
		if err != nil {
			return 0, err
		}
		if at != nil && old != nil {
			at(ctx, RollReady, k, oldURL, in.url)
		}
		e.put(k, in)
		if old != nil {
			old.agent.Drain()
			if at != nil {
				at(ctx, RollDraining, k, oldURL, in.url)
			}
		}
		stopInstance(old)
	}
	e.mu.Lock()
	e.tmpl.Generation = gen
	e.mu.Unlock()
	return gen, nil
}

// RestartInstance stops slot k (drained, as SIGTERM would) and starts it
// again at the same generation, waiting until it is ready.
func (e *Embedded) RestartInstance(ctx context.Context, k int) error {
	if err := e.StopInstance(ctx, k); err != nil {
		return err
	}
	return e.StartInstance(ctx, k, true)
}

// StopInstance drains and stops slot k; the balancer stops sending to it.
func (e *Embedded) StopInstance(ctx context.Context, k int) error {
	old, err := e.slot(k)
	if err != nil {
		return err
	}
	if e.lb != nil {
		e.lb.Drain(k)
	}
	e.put(k, nil)
	stopInstance(old)
	return nil
}

// StartInstance starts slot k again (after StopInstance) at the current
// generation. With wait it returns once the instance is ready; without, at
// once, while the instance spends LateWarmUp answering 503, as a real
// instance would while it loads its state (scenario 2).
func (e *Embedded) StartInstance(ctx context.Context, k int, wait bool) error {
	cur, err := e.slot(k)
	if err != nil {
		return err
	}
	if cur != nil {
		return fmt.Errorf("embedded driver: instance %d is running", k)
	}
	warm := time.Duration(0)
	if !wait {
		warm = LateWarmUp
	}
	in, err := e.launch(ctx, k, e.optsFor(k, 0, warm), wait)
	if err != nil {
		return err
	}
	e.put(k, in)
	return nil
}

// CDNURL is the base URL of the harness's CDN in front of the balancer (""
// without one).
func (e *Embedded) CDNURL() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cdn == nil {
		return ""
	}
	return e.cdn.URL()
}

// HoldCard makes the CDN keep serving the card the instances serve now
// (CDN.Hold), after they move on, for at most the card's max-age; it
// returns the held copy's ETag and that max-age.
func (e *Embedded) HoldCard(ctx context.Context, header http.Header) (string, time.Duration, error) {
	e.mu.Lock()
	cdn := e.cdn
	e.mu.Unlock()
	if cdn == nil {
		return "", 0, errors.New("embedded driver: the run has no CDN (one instance, rollout suite not selected)")
	}
	h, err := cdn.Hold(ctx, header)
	return h.ETag, h.MaxAge, err
}

// ReleaseCard ends a hold (CDN.Release).
func (e *Embedded) ReleaseCard() (expired bool) {
	e.mu.Lock()
	cdn := e.cdn
	e.mu.Unlock()
	if cdn == nil {
		return false
	}
	return cdn.Release()
}

// RollWithout rolls (Roll) to a generation whose instances withdraw
// streaming and/or push notifications from their cards and refuse them, as
// a build that dropped the capability would; both false restores what the
// run began with. It is never the previous build (RollPrevious). Later
// restarts keep the new generation's switches.
func (e *Embedded) RollWithout(ctx context.Context, streaming, push bool, step func(k int)) (int, error) {
	e.mu.Lock()
	e.tmpl.DisableStreaming = streaming || e.caps[0]
	e.tmpl.DisablePush = push || e.caps[1]
	e.tmpl.PreviousBuild = false
	e.mu.Unlock()
	return e.Roll(ctx, step)
}

// RollPrevious rolls (Roll) to a generation of the previous build
// (fakes.Options.PreviousBuild): the run's own capabilities, plus the
// interface and the extension the later builds dropped.
func (e *Embedded) RollPrevious(ctx context.Context, step func(k int)) (int, error) {
	e.mu.Lock()
	e.tmpl.DisableStreaming, e.tmpl.DisablePush = e.caps[0], e.caps[1]
	e.tmpl.PreviousBuild = true
	e.mu.Unlock()
	return e.Roll(ctx, step)
}

package topology

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/loopback"
)

// rollState is what the process driver needs to start instances after the
// first ones: the templates, the shared store path, the generation.
type rollState struct {
	cmd, next, store string
	// first is the run's own build (--agent-cmd), which RestoreBuild rolls
	// back to; cmd is the build the instances run now.
	first string
	gen   int
	ready time.Duration
	lb    *Balancer
	// cdn is the harness's CDN in front of lb (builds.go).
	cdn *CDN
	// unfinished says a roll failed part way: the slots may run two builds.
	unfinished bool
}

// balance puts a load balancer, and the harness's CDN in front of it, in
// front of the instances started so far.
func (p *Process) balance() error {
	lb, err := NewBalancer()
	if err != nil {
		return err
	}
	cdn, err := NewCDN(lb.URL())
	if err != nil {
		lb.Close()
		return err
	}
	p.mu.Lock()
	p.roll.lb, p.roll.cdn = lb, cdn
	ins := append([]*procInstance(nil), p.instances...)
	p.mu.Unlock()
	for k, in := range ins {
		lb.Set(k, procName(k, 1), in.url)
	}
	return nil
}

// procName is the name the balancer gives an instance that does not name
// itself in A2A-Conform-Instance.
func procName(k, gen int) string { return fmt.Sprintf("process-%d-g%d", k, gen) }

// BalancerURL is the load balancer's base URL ("" without one).
func (p *Process) BalancerURL() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.roll.lb == nil {
		return ""
	}
	return p.roll.lb.URL()
}

// InstanceNames names the instances by slot ("" for a stopped slot).
func (p *Process) InstanceNames() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, len(p.instances))
	for k, in := range p.instances {
		if in != nil {
			out[k] = procName(k, p.roll.gen)
		}
	}
	return out
}

// InstanceURL is slot k's own base URL.
func (p *Process) InstanceURL(k int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if k < 0 || k >= len(p.instances) || p.instances[k] == nil {
		return ""
	}
	return p.instances[k].url
}

// Pin sends a client's calls to slot k through the balancer.
func (p *Process) Pin(k int) client.Option { return client.WithHeader(PinHeader, strconv.Itoa(k)) }

// launch starts slot k's command at generation gen on a fresh port; with
// wait it returns once the instance serves its card. The port is free when
// chosen but released before the agent binds it: an instance that dies
// because another program took it in between is the harness's race, not an
// agent exit, so it is started again on a fresh port (a bounded number of
// times) and its death is not recorded among UnexpectedExits.
func (p *Process) launch(ctx context.Context, k, gen int, tmpl string, wait bool) (*procInstance, error) {
	var last *procInstance
	in, err := onFreshPorts(func() (*procInstance, error) { return p.launchOnce(ctx, k, gen, tmpl, wait) },
		func(in *procInstance, err error) bool {
			var se *StartError
			last = in
			return errors.As(err, &se) && in != nil && p.lostPort(in, se)
		},
		func(next int) {
			p.log.line(fmt.Sprintf("[harness] agent %d generation %d: its port %d was taken by another program before it bound it; starting it again on a fresh port (attempt %d of %d)", k, gen, last.port, next, portAttempts))
		})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// lostPort reports an instance that exited before it served because its port
// was taken (it said so, or the port is held now that it is gone), and if so
// takes its exit off the unexpected ones.
func (p *Process) lostPort(in *procInstance, se *StartError) bool {
	select {
	case <-in.exited:
	default:
		return false // it did not die: too slow, not a port race
	}
	if !portTaken(se) && !loopback.Held(in.port) {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	in.collided = true
	kept := p.exits[:0]
	for _, e := range p.exits {
		if e.in != in {
			kept = append(kept, e)
		}
	}
	p.exits = kept
	return true
}

func (p *Process) launchOnce(ctx context.Context, k, gen int, tmpl string, wait bool) (*procInstance, error) {
	ports, err := loopback.FreePorts(1)
	if err != nil {
		return nil, fmt.Errorf("process driver: %w", err)
	}
	p.mu.Lock()
	store, bound := p.roll.store, p.roll.ready
	p.mu.Unlock()
	in, err := p.spawn(k, Substitute(tmpl, ports[0], k, gen, store), ports[0])
	if err != nil {
		return nil, err
	}
	p.log.line(fmt.Sprintf("[harness] agent %d generation %d started: %s", k, gen, in.command))
	if !wait {
		return in, nil
	}
	if bound <= 0 {
		bound = ReadyTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	if err := in.waitReady(rctx, cancel, bound); err != nil {
		p.stop(in)
		return in, err
	}
	return in, nil
}

// put installs in as slot k, in the balancer too.
func (p *Process) put(k, gen int, in *procInstance) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		if in != nil {
			p.stop(in)
		}
		return errors.New("process driver: closed")
	}
	for len(p.instances) <= k {
		p.instances = append(p.instances, nil)
	}
	p.instances[k] = in
	lb := p.roll.lb
	p.mu.Unlock()
	if lb != nil {
		if in == nil {
			return lb.Set(k, "", "")
		}
		return lb.Set(k, procName(k, gen), in.url)
	}
	return nil
}

// stop sends SIGTERM to the instance's process group (its drain), waits
// StopGrace, then SIGKILLs what is left. Its output stays in the agent log.
func (p *Process) stop(in *procInstance) { p.stopWhile(in, nil) }

// stopWhile is stop that runs during (when set) right after the SIGTERM,
// while the instance drains; the grace period counts from the signal.
func (p *Process) stopWhile(in *procInstance, during func()) {
	if in == nil {
		return
	}
	p.mu.Lock()
	in.stopped = true
	p.mu.Unlock()
	if killed := stopGroupWhile(in.cmd.Process.Pid, in.exited, p.grace, during); killed {
		p.log.line(fmt.Sprintf("[harness] agent %d was still running %s after SIGTERM; sent SIGKILL", in.index, p.grace))
	}
	<-in.exited
}

func (p *Process) slot(k int) (*procInstance, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.roll.lb == nil {
		return nil, errors.New("process driver: the run has no load balancer")
	}
	if k < 0 || k >= len(p.instances) {
		return nil, fmt.Errorf("process driver: no instance %d (there are %d)", k, len(p.instances))
	}
	return p.instances[k], nil
}

// Roll replaces every instance, one at a time, by the next generation's
// command (--agent-cmd-next, else --agent-cmd again) with {generation}
// advanced: start it, wait until it serves its card, switch the balancer's
// slot to it, then SIGTERM the old one (drain) and stop it.
func (p *Process) Roll(ctx context.Context, step func(k int)) (int, error) {
	return p.RollStepped(ctx, beforeOnly(step))
}

// RollStepped is Roll that calls at, and waits for it, at each stage of each
// slot's replacement (RollBefore, RollReady, RollDraining). RollDraining
// comes once the old instance has shown that it took its SIGTERM (see
// awaitDrainSign): it answers on its own URL for as long as its own drain
// lasts, and the stop grace runs from the signal, as a pod's termination
// grace period does.
func (p *Process) RollStepped(ctx context.Context, at RollAt) (int, error) {
	p.mu.Lock()
	tmpl := p.roll.next
	if tmpl == "" {
		tmpl = p.roll.cmd
	}
	p.mu.Unlock()
	return p.rollTo(ctx, tmpl, at)
}

// rollTo is RollStepped to the build of the command template tmpl, which
// the instances run from then on (restarts included).
func (p *Process) rollTo(ctx context.Context, tmpl string, at RollAt) (int, error) {
	p.mu.Lock()
	gen := p.roll.gen + 1
	n := len(p.instances)
	// A roll that fails part way leaves some slots on tmpl's build: until
	// one completes, the deployment is not the build cmd names.
	p.roll.unfinished = true
	p.mu.Unlock()
	p.log.line(fmt.Sprintf("[harness] rolling %d instance(s) to generation %d", n, gen))
	for k := 0; k < n; k++ {
		old, err := p.slot(k)
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
		in, err := p.launch(ctx, k, gen, tmpl, true)
		if err != nil {
			return 0, err
		}
		if at != nil && old != nil {
			at(ctx, RollReady, k, oldURL, in.url)
		}
		if err := p.put(k, gen, in); err != nil {
			return 0, err
		}
		var draining func()
		if at != nil && old != nil {
			draining = func() {
				p.awaitDrainSign(ctx, old)
				at(ctx, RollDraining, k, oldURL, in.url)
			}
		}
		p.stopWhile(old, draining)
	}
	p.mu.Lock()
	p.roll.gen, p.roll.cmd, p.roll.unfinished = gen, tmpl, false
	p.mu.Unlock()
	return gen, nil
}

// RestartInstance stops slot k (SIGTERM, drain) and starts it again.
func (p *Process) RestartInstance(ctx context.Context, k int) error {
	if err := p.StopInstance(ctx, k); err != nil {
		return err
	}
	return p.StartInstance(ctx, k, true)
}

// StopInstance drains and stops slot k.
func (p *Process) StopInstance(ctx context.Context, k int) error {
	old, err := p.slot(k)
	if err != nil {
		return err
	}
	p.roll.lb.Drain(k)
	p.mu.Lock()
	gen := p.roll.gen
	p.mu.Unlock()
	if err := p.put(k, gen, nil); err != nil {
		return err
	}
	p.stop(old)
	return nil
}

// StartInstance starts a stopped slot k with the current generation's
// command; without wait it returns as soon as the process is started.
func (p *Process) StartInstance(ctx context.Context, k int, wait bool) error {
	cur, err := p.slot(k)
	if err != nil {
		return err
	}
	if cur != nil {
		return fmt.Errorf("process driver: instance %d is running", k)
	}
	p.mu.Lock()
	gen, tmpl := p.roll.gen, p.roll.cmd
	p.mu.Unlock()
	in, err := p.launch(ctx, k, gen, tmpl, wait)
	if err != nil {
		return err
	}
	return p.put(k, gen, in)
}

// drainSignWait bounds awaitDrainSign.
const drainSignWait = time.Second

// drainSignPoll is how often awaitDrainSign reads the card.
const drainSignPoll = 10 * time.Millisecond

// awaitDrainSign waits, at most drainSignWait, until an instance sent
// SIGTERM shows it took the signal: its card stops answering 200 (a 503 or
// no answer, as the reference agent and a pod failing its readiness do) or
// it exits. A signal is handled asynchronously, so without this the steps
// for "the old instance drains" could reach an instance that has not yet
// noticed, and prove nothing about its drain. An agent that serves its card
// all through its drain costs the whole bound; the agent log says which.
func (p *Process) awaitDrainSign(ctx context.Context, in *procInstance) {
	c := cardProbeClient()
	defer c.CloseIdleConnections()
	began := time.Now()
	wctx, cancel := context.WithTimeout(ctx, drainSignWait)
	defer cancel()
	for {
		status, err := cardStatus(wctx, c, in.url)
		switch {
		case err != nil && wctx.Err() == nil:
			p.log.line(fmt.Sprintf("[harness] agent %d stopped answering %s after SIGTERM (%v)", in.index, time.Since(began).Round(time.Millisecond), err))
			return
		case err == nil && status != http.StatusOK:
			p.log.line(fmt.Sprintf("[harness] agent %d answered its card %d %s after SIGTERM: draining", in.index, status, time.Since(began).Round(time.Millisecond)))
			return
		}
		select {
		case <-in.exited:
			p.log.line(fmt.Sprintf("[harness] agent %d exited %s after SIGTERM", in.index, time.Since(began).Round(time.Millisecond)))
			return
		case <-wctx.Done():
			p.log.line(fmt.Sprintf("[harness] agent %d still served its card %s after SIGTERM; going on", in.index, drainSignWait))
			return
		case <-time.After(drainSignPoll):
		}
	}
}

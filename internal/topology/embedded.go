// Package topology holds the drivers that give the harness control over the
// deployment under test: embedded (reference-agent instances the harness runs
// itself), process (vendor commands), hooks (vendor scripts) and none.
package topology

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"google.golang.org/grpc"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/loopback"
)

// Driver names.
const (
	DriverEmbedded = "embedded"
	DriverProcess  = "process"
	DriverHooks    = "hooks"
	DriverNone     = "none"
)

// Embedded runs reference-agent instances in this process on loopback
// listeners. It is the default run and the demo.
type Embedded struct {
	mu        sync.Mutex
	instances []*instance
	store     *fakes.Store
	faults    []string
	// lb fronts the instances when there are several (rolling.go); nil
	// when the run talks to its one instance directly.
	lb   *Balancer
	tmpl fakes.Options
	// cdn caches the card in front of lb (cdn.go); nil without lb.
	cdn *CDN
	// grpc is the deployment's one gRPC address in front of the
	// instances' own (grpcfront.go); nil without lb.
	grpc *grpcFront
	// caps is the template's streaming and push switches as the run began,
	// which RollWithout restores.
	caps [2]bool
}

type instance struct {
	agent *fakes.Agent
	srv   *http.Server
	grpc  *grpc.Server
	url   string
	addr  string
	gaddr string // the gRPC listener's address ("" when it serves none)
	opts  fakes.Options
	done  chan error
}

// EmbeddedOptions configure the embedded driver.
type EmbeddedOptions struct {
	Faults []string
	// NoDirective withdraws the directive extension from the agent's card, so
	// that the harness's prompt-map path is what drives it.
	NoDirective bool
	// WebhookAllow is the agents' SSRF allow-list (fakes.Options.WebhookAllow):
	// the harness's receiver, so that every other internal URL is refused.
	WebhookAllow []string
	// RequireAuth is the bearer token the agent requires on every binding
	// request (fakes.Options.RequireAuth); "" serves anyone.
	RequireAuth string
	// OtherTokens are further bearer tokens the agent accepts, each another
	// identity whose tasks the first cannot see (fakes.Options.OtherTokens):
	// the second identity of the scoping specs.
	OtherTokens []string
	// Tweak adjusts each instance's options (tests switch capabilities off).
	Tweak func(*fakes.Options)
	// Instances is how many instances share the store (default 1).
	Instances int
	// Balance puts the harness's load balancer in front of the instances
	// (always, when there are several); URL is then the balancer's.
	Balance bool
}

// StartEmbedded starts one reference-agent instance on 127.0.0.1 and waits
// until its card is served (the agent answers 503 until its dispatcher has
// loaded its state).
func StartEmbedded(ctx context.Context, o EmbeddedOptions) (*Embedded, error) {
	for _, f := range o.Faults {
		if _, err := fakes.LookupFault(f); err != nil {
			return nil, err
		}
	}
	e := &Embedded{store: fakes.OpenMemoryStore(), faults: o.Faults}
	// The reference agent always understands its fixed prompt phrases
	// (fakes.DefaultPrompts); without a directive part it does nothing else
	// differently.
	opts := fakes.Options{Name: "embedded-0", Store: e.store, Faults: o.Faults,
		PromptMap: true, DisableDirective: o.NoDirective, WebhookAllow: o.WebhookAllow, RequireAuth: o.RequireAuth,
		Logger: agentLogger(), OtherTokens: o.OtherTokens}
	if o.Tweak != nil {
		o.Tweak(&opts)
	}
	if o.Instances > 1 || o.Balance {
		if err := e.startBalanced(ctx, opts, max(o.Instances, 1)); err != nil {
			e.Close()
			return nil, err
		}
		return e, nil
	}
	in, err := e.start(ctx, "127.0.0.1:0", "127.0.0.1:0", opts)
	if err != nil {
		e.Close()
		return nil, err
	}
	e.mu.Lock()
	e.instances = append(e.instances, in)
	e.mu.Unlock()
	return e, nil
}

// start serves one instance on addr ("127.0.0.1:0" for a fresh port).
// The gRPC binding listens on gaddr, a listener of its own (plaintext h2c
// on loopback; "127.0.0.1:0" for a fresh port), and the card declares it.
func (e *Embedded) start(ctx context.Context, addr, gaddr string, opts fakes.Options) (*instance, error) {
	ln, err := listen(addr)
	if err != nil {
		return nil, fmt.Errorf("embedded agent: %w", err)
	}
	url := "http://" + ln.Addr().String()
	opts.BaseURL = url
	gln, err := listen(gaddr)
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("embedded agent (gRPC): %w", err)
	}
	if opts.GRPCURL == "" {
		opts.GRPCURL = "http://" + gln.Addr().String()
	}
	a, err := fakes.New(opts)
	if err != nil {
		ln.Close()
		gln.Close()
		return nil, err
	}
	in := &instance{agent: a, url: url, addr: ln.Addr().String(), gaddr: gln.Addr().String(), opts: opts, done: make(chan error, 1),
		srv: &http.Server{Handler: a, ReadHeaderTimeout: 10 * time.Second}, grpc: a.GRPCServer()}
	go func() { in.done <- in.srv.Serve(ln) }()
	go in.grpc.Serve(gln)
	if err := a.Start(ctx); err != nil {
		in.srv.Close()
		in.grpc.Stop()
		return nil, fmt.Errorf("embedded agent: start: %w", err)
	}
	return in, nil
}

// listen binds addr; a fresh port ("127.0.0.1:0") is taken below the
// ephemeral range where it can, because Restart binds the same port again:
// under many runs at once, a port of the ephemeral range was taken by
// another program while the instance was down.
func listen(addr string) (net.Listener, error) {
	if addr == "127.0.0.1:0" {
		return loopback.Listen()
	}
	return net.Listen("tcp", addr)
}

// Restart stops every instance (drained, as a deploy would) and starts a new
// one in its place: same store, same address, same options. What survives
// is what the store kept; whatever an instance held in memory is gone.
func (e *Embedded) Restart(ctx context.Context) error {
	e.mu.Lock()
	if e.lb != nil {
		// Behind the balancer each slot restarts as the rollout restarts
		// it, so that its card keeps naming the balancer.
		n := len(e.instances)
		e.mu.Unlock()
		for k := 0; k < n; k++ {
			if err := e.RestartInstance(ctx, k); err != nil {
				return err
			}
		}
		return nil
	}
	defer e.mu.Unlock()
	for i, in := range e.instances {
		if in == nil {
			continue // a slot the rollout stopped stays stopped
		}
		sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if err := in.agent.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			cancel()
			return fmt.Errorf("embedded agent: restart: stopping %s: %w", in.url, err)
		}
		if err := in.srv.Shutdown(sctx); err != nil {
			in.srv.Close()
		}
		cancel()
		<-in.done
		in.grpc.Stop()
		next, err := e.start(ctx, in.addr, in.gaddr, in.opts)
		if err != nil {
			return fmt.Errorf("embedded agent: restart: %w", err)
		}
		e.instances[i] = next
	}
	return nil
}

// Driver names the driver.
func (e *Embedded) Driver() string { return DriverEmbedded }

// URL is the base URL clients use (the first instance).
func (e *Embedded) URL() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lb != nil {
		return e.lb.URL()
	}
	if len(e.instances) == 0 {
		return ""
	}
	return e.instances[0].url
}

// Faults returns the faults switched on.
func (e *Embedded) Faults() []string { return e.faults }

// Rotate advances the card generation of every instance.
func (e *Embedded) Rotate(r fakes.Rotation) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	gen := 0
	for _, in := range e.instances {
		if in != nil {
			gen = in.agent.Rotate(r)
		}
	}
	return gen
}

// Close drains and stops every instance.
func (e *Embedded) Close() error {
	e.mu.Lock()
	ins := e.instances
	e.instances = nil
	lb, cdn, front := e.lb, e.cdn, e.grpc
	e.mu.Unlock()
	if cdn != nil {
		cdn.Close()
	}
	if front != nil {
		front.Close()
	}
	if lb != nil {
		lb.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var errs []error
	for _, in := range ins {
		if in == nil {
			continue
		}
		if err := in.agent.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			errs = append(errs, err)
		}
		if err := in.srv.Shutdown(ctx); err != nil {
			in.srv.Close()
		}
		if in.grpc != nil {
			in.grpc.Stop()
		}
	}
	if e.store != nil {
		if err := e.store.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// AgentLogEnv names the environment variable that, when set, sends the
// embedded reference agents' logs (requests that failed, panics, push
// deliveries, shutdowns) to standard error. They are discarded otherwise, so
// that a run's output is the harness's own.
const AgentLogEnv = "A2A_CONFORM_AGENT_LOG"

func agentLogger() *slog.Logger {
	if os.Getenv(AgentLogEnv) == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

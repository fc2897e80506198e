// Package topology holds the drivers that give the harness control over the
// deployment under test: embedded (reference-agent instances the harness runs
// itself), process (vendor commands), hooks (vendor scripts) and none.
package topology

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"google.golang.org/grpc"

	"github.com/a2a-conform/a2a-conform/fakes"
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
}

type instance struct {
	agent *fakes.Agent
	srv   *http.Server
	grpc  *grpc.Server
	url   string
	done  chan error
}

// EmbeddedOptions configure the embedded driver.
type EmbeddedOptions struct {
	Faults []string
	// NoDirective withdraws the directive extension from the agent's card, so
	// that the harness's prompt-map path is what drives it.
	NoDirective bool
	// RequireAuth is the bearer token the agent requires on every binding
	// request (fakes.Options.RequireAuth); "" serves anyone.
	RequireAuth string
	// Tweak adjusts each instance's options (tests switch capabilities off).
	Tweak func(*fakes.Options)
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
		PromptMap: true, DisableDirective: o.NoDirective, RequireAuth: o.RequireAuth}
	if o.Tweak != nil {
		o.Tweak(&opts)
	}
	if err := e.start(ctx, opts); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

func (e *Embedded) start(ctx context.Context, opts fakes.Options) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("embedded agent: %w", err)
	}
	url := "http://" + ln.Addr().String()
	opts.BaseURL = url
	// The gRPC binding on a listener of its own, plaintext h2c on loopback.
	gln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ln.Close()
		return fmt.Errorf("embedded agent (gRPC): %w", err)
	}
	if opts.GRPCURL == "" {
		opts.GRPCURL = "http://" + gln.Addr().String()
	}
	a, err := fakes.New(opts)
	if err != nil {
		ln.Close()
		gln.Close()
		return err
	}
	in := &instance{agent: a, url: url, done: make(chan error, 1),
		srv: &http.Server{Handler: a, ReadHeaderTimeout: 10 * time.Second}, grpc: a.GRPCServer()}
	go func() { in.done <- in.srv.Serve(ln) }()
	go in.grpc.Serve(gln)
	if err := a.Start(ctx); err != nil {
		in.srv.Close()
		in.grpc.Stop()
		return fmt.Errorf("embedded agent: start: %w", err)
	}
	e.mu.Lock()
	e.instances = append(e.instances, in)
	e.mu.Unlock()
	return nil
}

// Driver names the driver.
func (e *Embedded) Driver() string { return DriverEmbedded }

// URL is the base URL clients use (the first instance).
func (e *Embedded) URL() string {
	e.mu.Lock()
	defer e.mu.Unlock()
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
		gen = in.agent.Rotate(r)
	}
	return gen
}

// Close drains and stops every instance.
func (e *Embedded) Close() error {
	e.mu.Lock()
	ins := e.instances
	e.instances = nil
	e.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var errs []error
	for _, in := range ins {
		if err := in.agent.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			errs = append(errs, err)
		}
		if err := in.srv.Shutdown(ctx); err != nil {
			in.srv.Close()
		}
		in.grpc.Stop()
	}
	if e.store != nil {
		if err := e.store.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

package fakes

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// ShutdownGrace bounds Serve's drain when its context ends.
const ShutdownGrace = 10 * time.Second

// OpenStore opens a store from the CLI's --store value: "" or "memory" for a
// private in-memory store, "sqlite:PATH" for a SQLite file several processes
// may share.
func OpenStore(spec string) (*Store, error) {
	switch {
	case spec == "" || spec == "memory":
		return OpenMemoryStore(), nil
	case strings.HasPrefix(spec, "sqlite:"):
		return OpenSQLiteStore(strings.TrimPrefix(spec, "sqlite:"))
	}
	return nil, fmt.Errorf("store %q: want \"memory\" or \"sqlite:PATH\"", spec)
}

// Serve runs one instance on listen (default 127.0.0.1:0) until ctx ends, then
// drains it (at most ShutdownGrace). It prints one line to stdout,
// "a2a-conform fake <name> listening on <URL>", once the listener is open and
// before the instance is ready (the card answers 503 until it is), so that a
// parent process can read the URL of a random port.
func Serve(ctx context.Context, listen string, opts Options) error {
	return ServeWithGRPC(ctx, listen, "", opts)
}

// ServeWithGRPC is Serve with the gRPC binding on a listener of its own:
// grpcListen is its address ("" is a random loopback port, "off" serves no
// gRPC). The card declares it as plaintext h2c (http://), which the harness
// accepts only on loopback; a second line, "a2a-conform fake <name> grpc on
// <URL>", names it.
func ServeWithGRPC(ctx context.Context, listen, grpcListen string, opts Options) error {
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	var gln net.Listener
	if grpcListen != "off" {
		if grpcListen == "" {
			grpcListen = "127.0.0.1:0"
		}
		var err error
		if gln, err = net.Listen("tcp", grpcListen); err != nil {
			return fmt.Errorf("fakes: listen %s (gRPC): %w", grpcListen, err)
		}
		defer gln.Close()
		if opts.GRPCURL == "" {
			opts.GRPCURL = listenURL(gln.Addr())
		}
	}
	a, err := New(opts)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("fakes: listen %s: %w", listen, err)
	}
	a.selfURL = listenURL(ln.Addr())
	srv := &http.Server{Handler: a, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	fmt.Fprintf(os.Stdout, "a2a-conform fake %s listening on %s\n", a.Name(), listenURL(ln.Addr()))
	if gln != nil {
		gs := a.GRPCServer()
		go gs.Serve(gln)
		defer gs.Stop()
		fmt.Fprintf(os.Stdout, "a2a-conform fake %s grpc on %s\n", a.Name(), a.opts.GRPCURL)
	}
	if err := a.Start(ctx); err != nil && ctx.Err() == nil {
		srv.Close()
		return err
	}
	select {
	case <-ctx.Done():
	case err := <-serveErr:
		a.Shutdown(context.Background())
		return err
	}
	drainFor(a, opts.DrainGrace, serveErr)
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	aerr := a.Shutdown(sctx)
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	if errors.Is(aerr, context.DeadlineExceeded) {
		return nil
	}
	return aerr
}

// listenURL is the URL a client on this host can use: an unspecified address
// (0.0.0.0, ::) is shown as loopback.
func listenURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	ip := tcp.IP
	if ip == nil || ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return "http://" + net.JoinHostPort(ip.String(), fmt.Sprint(tcp.Port))
}

// drainFor keeps a told to stop answering, draining, for grace (Options.
// DrainGrace) or until its server fails; serveErr is left for the caller.
func drainFor(a *Agent, grace time.Duration, serveErr chan error) {
	if grace <= 0 {
		return
	}
	a.Drain()
	a.log.Info("draining", "grace", grace.String())
	select {
	case <-time.After(grace):
	case err := <-serveErr:
		serveErr <- err
	}
}

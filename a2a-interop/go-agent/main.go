// Command go-agent is a small A2A v1.0 agent on the official Go SDK,
// github.com/a2aproject/a2a-go/v2 (the version go.mod pins), with the
// a2a-conform directive extension (docs/directive-extension.md). It is the
// second third-party agent a2a-conform's interop tests run the suites
// against: the SDK does the protocol (its JSON-RPC and HTTP+JSON handlers,
// the card handler, streams, the push sender and its SSRF guard, the
// in-memory task and push-config stores); this file scripts tasks, as a
// vendor's test build would (../README.md).
//
//	go-agent --port 8080 [--host 127.0.0.1] [--name NAME] [--card-version V]
//	         [--drain-ms N] [--allow-private-networks]
//
// The SDK's push sender refuses, at dial time, every webhook URL that
// resolves to a loopback, private, link-local or unspecified address (on by
// default since a2a-go v2.4.0); --allow-private-networks turns that guard
// off (push.HTTPSenderConfig.AllowPrivateNetworks), which is the only switch
// the SDK has: there is no allow-list.
//
// Tasks and push configs live in this process's memory (the SDK's stores
// as it ships them): several instances share nothing. SIGTERM drains: no new
// connections; the running scripts get --drain-ms to finish (default 4000,
// inside the 5 s the harness's process driver waits before SIGKILL), and a
// script still running then ends FAILED.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// sdkVersion is the SDK this agent is built on, named in its card; go.mod
// pins the same.
const sdkVersion = "github.com/a2aproject/a2a-go/v2 v2.4.0"

type options struct {
	host, name, cardVersion string
	port                    int
	drain                   time.Duration
	allowPrivate            bool
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("go-agent", flag.ContinueOnError)
	fs.IntVar(&o.port, "port", 0, "TCP port to serve on (required)")
	fs.StringVar(&o.host, "host", "127.0.0.1", "address to serve on, and the host the card names")
	fs.StringVar(&o.name, "name", "a2a-conform Go SDK agent", "the card's name")
	fs.StringVar(&o.cardVersion, "card-version", "1.0.0", "the card's version")
	drainMs := fs.Int("drain-ms", 4000, "on SIGTERM, how long running scripts get to finish (ms)")
	fs.BoolVar(&o.allowPrivate, "allow-private-networks", false,
		"turn the SDK's push SSRF guard off (push.HTTPSenderConfig.AllowPrivateNetworks): deliver webhooks to loopback and private addresses")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.port <= 0 || o.port > 65535 {
		return o, errors.New("--port N is required")
	}
	if *drainMs < 0 {
		return o, errors.New("--drain-ms wants a whole number of milliseconds")
	}
	o.drain = time.Duration(*drainMs) * time.Millisecond
	return o, nil
}

func card(o options, ext a2a.AgentExtension) *a2a.AgentCard {
	base := "http://" + net.JoinHostPort(o.host, strconv.Itoa(o.port))
	return &a2a.AgentCard{
		Name:        o.name,
		Description: "A2A v1.0 agent on " + sdkVersion + " with the a2a-conform directive extension (a2a-conform interop test)",
		SupportedInterfaces: []*a2a.AgentInterface{
			a2a.NewAgentInterface(base+"/a2a/jsonrpc", a2a.TransportProtocolJSONRPC),
			a2a.NewAgentInterface(base+"/a2a/rest", a2a.TransportProtocolHTTPJSON),
		},
		Provider: &a2a.AgentProvider{Org: "a2a-conform", URL: "https://a2a-conform.dev"},
		Version:  o.cardVersion,
		Capabilities: a2a.AgentCapabilities{
			Streaming:         true,
			PushNotifications: true,
			Extensions:        []a2a.AgentExtension{ext},
		},
		DefaultInputModes:  []string{"text/plain", "application/json"},
		DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{
			ID:          "directive",
			Name:        "scripted task",
			Description: "Runs the task a2a-conform's directive describes; echoes text otherwise",
			Tags:        []string{"test"},
		}},
	}
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "go-agent:", err)
		os.Exit(2)
	}

	ext := a2a.AgentExtension{
		URI:         directiveURI,
		Description: "a2a-conform directive: scripted task behaviour for conformance testing",
		Params:      map[string]any{"versions": directiveVersions},
	}
	agentCard := card(o, ext)

	// The SDK's own stores and sender, as it ships them; the task store is
	// made here (as the SDK would make it) only so that the directive check
	// can look a follow-up's task up.
	tasks := taskstore.NewInMemory(&taskstore.InMemoryStoreConfig{Authenticator: a2asrv.NewTaskStoreAuthenticator()})
	sender := push.NewHTTPPushSender(&push.HTTPSenderConfig{AllowPrivateNetworks: o.allowPrivate})
	executor := newScriptExecutor()
	handler := a2asrv.NewHandler(executor,
		a2asrv.WithTaskStore(tasks),
		a2asrv.WithPushNotifications(push.NewInMemoryStore(), sender),
		a2asrv.WithCapabilityChecks(&agentCard.Capabilities),
		a2asrv.WithCallInterceptors(&directiveCheck{store: tasks, ext: &ext}),
	)

	mux := http.NewServeMux()
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(agentCard))
	mux.Handle("/a2a/jsonrpc", a2asrv.NewJSONRPCHandler(handler))
	mux.Handle("/a2a/rest/", http.StripPrefix("/a2a/rest", a2asrv.NewRESTHandler(handler)))

	addr := net.JoinHostPort(o.host, strconv.Itoa(o.port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-agent: listen %s: %v\n", addr, err)
		os.Exit(1)
	}
	guard := "on (the SDK's default: no webhook to loopback or private addresses)"
	if o.allowPrivate {
		guard = "off (--allow-private-networks)"
	}
	slog.Info(o.name+": serving A2A v1.0", "url", "http://"+addr, "sdk", sdkVersion, "push SSRF guard", guard, "store", "memory")

	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case err := <-served:
		fmt.Fprintln(os.Stderr, "go-agent:", err)
		os.Exit(1)
	case <-sig:
	}

	// The drain: the listener closes at once; the scripts running here get
	// o.drain, then end FAILED (with a moment to be stored and pushed); then
	// open streams are cut.
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), o.drain)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}()
	deadline := time.Now().Add(o.drain)
	for executor.active.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := executor.active.Load(); n > 0 {
		slog.Info(o.name+": scripts still running after the drain; ending them FAILED", "count", n)
		executor.stop(500 * time.Millisecond)
	}
	_ = srv.Close()
}

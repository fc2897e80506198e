package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2agrpc"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/topology"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// EmbeddedTweak, when set, adjusts the options of every instance the
// embedded driver starts. No flag sets it: the runner's tests do, in the
// CLI child process they run, to make the embedded agent slow (StepDelay)
// for the specs they run on that driver (ROLL-007's previous build).
var EmbeddedTweak func(*fakes.Options)

// The rollout specs reach the drivers' controls by type assertion on
// Env.Topology: a method whose signature drifted from suites/topology.go
// would turn them could-not-run without a word, so the build checks it.
var (
	_ suites.SteppedRoller       = (*topology.Embedded)(nil)
	_ suites.SteppedRoller       = (*topology.Process)(nil)
	_ suites.Instances           = (*topology.Embedded)(nil)
	_ suites.Instances           = (*topology.Process)(nil)
	_ suites.InstanceRestarter   = (*topology.Embedded)(nil)
	_ suites.InstanceRestarter   = (*topology.Process)(nil)
	_ suites.StaleCard           = (*topology.Embedded)(nil)
	_ suites.CapabilityRoller    = (*topology.Embedded)(nil)
	_ suites.PreviousBuildRoller = (*topology.Embedded)(nil)
	_ suites.StaleCard           = (*topology.Process)(nil)
	_ suites.BuildRoller         = (*topology.Embedded)(nil)
	_ suites.BuildRoller         = (*topology.Process)(nil)
)

// Prepared is a target ready for specs.
type Prepared struct {
	Env    *suites.Env
	Driver string
	// Unreachable is set when no HTTP response could be had from the target.
	Unreachable error
	// Notes are facts of the start for the report's run notes: how long the
	// agent took to come up, against which bound.
	Notes []string
	// wary remembers the target's transport-level failures and tightens the
	// bounds of later requests (WaryAfter).
	wary    *wary
	closers []func() error
}

// Close stops whatever Prepare started.
func (p *Prepared) Close() error {
	var errs []error
	for i := len(p.closers) - 1; i >= 0; i-- {
		errs = append(errs, p.closers[i]())
	}
	return errors.Join(errs...)
}

// Readiness bounds how long Prepare waits for a starting agent's card: an
// agent answers 503 until it can honour what its card claims (scenario 2).
const Readiness = 15 * time.Second

// readyPause is the pause between attempts at the first card fetch: brisk
// while an agent starts, then once a second for a deployment that takes
// minutes (every attempt is a request to it).
func readyPause(waited time.Duration) time.Duration {
	if waited < 10*time.Second {
		return 200 * time.Millisecond
	}
	return time.Second
}

// FirstFetchTimeout bounds each attempt at the first card fetch, so that a
// target that accepts connections and never answers is reported unreachable
// rather than waited on.
const FirstFetchTimeout = 20 * time.Second

// AgentLog is the file in the report directory that receives the process
// driver's instances' output.
const AgentLog = "agent.log"

// HookLog is the file in the report directory that receives the hooks
// driver's commands, their output and their exit status.
const HookLog = "hooks.log"

// Prepare starts the vendor's agent command (--agent-cmd) or, when there is
// no target, the embedded agent; it builds the recorded HTTP client and
// fetches the card once.
func Prepare(ctx context.Context, cfg Config) (*Prepared, error) {
	hdr, err := cfg.HeaderSet()
	if err != nil {
		return nil, err
	}
	second, err := cfg.SecondHeaderSet()
	if err != nil {
		return nil, fmt.Errorf("second identity: %w", err)
	}
	tlsCfg, err := tlsConfig(cfg.CAFile)
	if err != nil {
		return nil, err
	}
	if err := removeStaleLogs(cfg.Out); err != nil {
		return nil, err
	}
	p := &Prepared{Env: &suites.Env{Headers: hdr, TLSConfig: tlsCfg}}
	if cfg.GRPCDescriptorSet != "" {
		if p.Env.GRPCSchema, err = loadDescriptorSet(cfg.GRPCDescriptorSet); err != nil {
			return nil, err
		}
	}
	p.Env.Options = suites.Options{
		Seed: cfg.Seed, SubscribeVerb: cfg.SubscribeVerb, RaceTrials: cfg.RaceTrials,
		Settle: 300 * time.Millisecond, Patience: cfg.Patience, Parallel: cfg.Parallel,
		PushRetryWait: cfg.PushRetryWait,
	}

	embedded := cfg.Target == "" && cfg.AgentCmd == ""
	if embedded && hdr.Get("Authorization") == "" {
		// The reference agent authenticates its extended card with any
		// Bearer token; give the run one so DISC-015 can check both halves.
		hdr.Set("Authorization", "Bearer a2a-conform-embedded-"+randomHex(8))
	}
	if embedded && bearer(second) == "" {
		// The embedded agent knows a second identity, so that the scoping
		// specs (LIFE-031, LIFE-032) run in the default run.
		second.Set("Authorization", "Bearer a2a-conform-embedded-second-"+randomHex(8))
	}
	if len(second) > 0 {
		p.Env.SecondHeaders = asIdentity(hdr, second)
	}
	var secondSecrets []string
	if p.Env.SecondHeaders != nil {
		// Only the values that differ from the run's own mark the second
		// identity.
		for _, v := range headerSecrets(second) {
			if !slices.Contains(headerSecrets(hdr), v) {
				secondSecrets = append(secondSecrets, v)
			}
		}
	}
	rec := newRecorder(headerSecrets(hdr), secondSecrets)
	p.Env.Transcript = rec
	p.wary = newWary(cfg.RequestTimeout, cfg.Patience)
	tlsSeen := newTLSLog()
	p.Env.TLS = tlsSeen
	base := baseTransport(cfg.RequestTimeout)
	if tlsCfg != nil {
		base.TLSClientConfig = tlsCfg
	}
	live := &liveness{next: client.Guard(tlsNoting{next: base, log: tlsSeen}, p.wary.limits, p.wary.observe), broken: p.wary.broken}
	p.Env.Health = live.Health
	p.Env.HTTP = rec.r.HTTPClient(live)
	p.Env.HTTP.CheckRedirect = sameOriginRedirects
	// The pace waits outside the recorder, so that a request's recorded
	// time is when it went, and counts every request the run sends
	// (--max-rps; the report's run.rate).
	p.Env.Pace = client.NewPace(float64(cfg.MaxRPS))
	p.Env.HTTP.Transport = p.Env.Pace.Transport(p.Env.HTTP.Transport)
	p.Env.RecordCall = func(ctx context.Context, method, target string, h http.Header, body []byte) client.CallLog {
		return rec.r.BeginCall(ctx, method, target, h, body)
	}
	// The receiver starts first, so that the embedded agent can be told
	// where it is: its SSRF allow-list admits the receiver and nothing else
	// internal (PUSH-010). It is closed last, after the agent stopped pushing.
	hook, err := webhook.Start(cfg.WebhookListen, cfg.WebhookURL, rec.r)
	if err != nil {
		return p, err
	}
	p.closers = append(p.closers, hook.Close)
	p.Env.Webhook = hook

	client.AllowPlaintext(cfg.GRPCPlaintextHosts...)
	if len(cfg.GRPCPlaintextHosts) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("gRPC: plaintext h2c allowed to %s besides loopback (--grpc-plaintext-host); A2A §10.1 secures gRPC with TLS, so these calls prove nothing about TLS",
			strings.Join(cfg.GRPCPlaintextHosts, ", ")))
	}
	if note := raceTrialsNote(cfg); note != "" {
		p.Notes = append(p.Notes, note)
	}

	switch {
	case cfg.Target != "":
		p.Driver = topology.DriverNone
		p.Env.BaseURL = cfg.Target
		if hooks := cfg.HookCommands(); len(hooks) > 0 {
			// The vendor's commands change the deployment; their output
			// goes next to the report, and the could-not-run reasons quote
			// its tail.
			if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
				return p, err
			}
			logFile, err := os.Create(filepath.Join(cfg.Out, HookLog))
			if err != nil {
				return p, err
			}
			p.closers = append(p.closers, logFile.Close)
			hk, err := topology.NewHooks(topology.HooksOptions{Target: cfg.Target, Commands: hooks, Timeout: cfg.HookTimeout,
				Log: redactingWriter{w: logFile, secrets: secretValues(cfg)}})
			if err != nil {
				return p, err
			}
			p.Driver = hk.Driver()
			p.Env.Topology = hk
			p.Env.Options.HookTimeout = cfg.HookTimeout + topology.ReadyTimeout
		}
	case cfg.AgentCmd != "":
		p.Driver = topology.DriverProcess
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return p, err
		}
		// The instances' output goes next to the report, so that a vendor can
		// read why their agent misbehaved.
		logFile, err := os.Create(filepath.Join(cfg.Out, AgentLog))
		if err != nil {
			return p, err
		}
		p.closers = append(p.closers, logFile.Close)
		// A vendor's command: as many instances as asked, one by default;
		// the balancer fronts them when rollout specs will use it.
		n, _ := embeddedInstances(cfg)
		balance := rolloutSelected(cfg)
		if cfg.Instances == 0 {
			n = 1
		}
		bound := cfg.StartTimeout
		if bound == 0 {
			bound = topology.ReadyTimeout
		}
		began := time.Now()
		proc, err := topology.StartProcess(ctx, topology.ProcessOptions{Cmd: cfg.AgentCmd, Next: cfg.AgentCmdNext, Instances: n,
			Balance: balance, ReadyTimeout: bound, Log: redactingWriter{w: logFile, secrets: secretValues(cfg)}})
		if err == nil {
			p.Notes = append(p.Notes, fmt.Sprintf("start: the %d --agent-cmd instance(s) served their card %s after the start (bound --start-timeout %s, also for every restart and roll)",
				n, time.Since(began).Round(10*time.Millisecond), bound))
		}
		var start *topology.StartError
		if errors.As(err, &start) {
			// The configuration was valid; the agent did not come up. That is
			// "could not reach the target", and the report says why.
			p.Env.BaseURL = start.URL
			p.Unreachable = err
			return p, nil
		}
		if err != nil {
			return p, err
		}
		p.closers = append(p.closers, proc.Close)
		p.Env.BaseURL = proc.URL()
		p.Env.Topology = proc
	default:
		// The reference agent authenticates every request with the run's
		// bearer token (set above unless --header gives one), as a
		// production agent would: the card declares the scheme, and the
		// authentication specs (DISC-019) have something to judge. The
		// extended card accepts the same token (DISC-015).
		// The second identity's token is the agent's second identity, whose
		// tasks the first may not see (LIFE-031, LIFE-032).
		token := bearer(hdr)
		var others []string
		if t := bearer(second); t != "" && t != token {
			others = append(others, t)
		}
		n, balance := embeddedInstances(cfg)
		emb, err := topology.StartEmbedded(ctx, topology.EmbeddedOptions{Faults: cfg.Faults, NoDirective: cfg.NoDirective,
			Instances: n, Balance: balance, WebhookAllow: []string{hook.Base() + "/hook/"}, RequireAuth: token, OtherTokens: others, Tweak: EmbeddedTweak})
		if err != nil {
			return p, err
		}
		p.closers = append(p.closers, emb.Close)
		p.Driver = emb.Driver()
		p.Env.BaseURL = emb.URL()
		p.Env.Topology = emb
		// The harness configured this agent to deliver to its receiver, on
		// loopback beside it: a config accepted and never delivered to is
		// the agent's doing, not the network's. Not so through a
		// --webhook-url the harness cannot vouch for.
		p.Env.WebhookReachable = cfg.WebhookURL == ""
	}

	p.Env.Pace.Route(paceRoute(p.Env.Topology))

	if cfg.JWKS != "" {
		b, err := os.ReadFile(cfg.JWKS)
		if err != nil {
			return p, fmt.Errorf("--jwks: %w", err)
		}
		if len(b) > 1<<20 || !json.Valid(b) {
			return p, fmt.Errorf("--jwks %s: want a JSON Web Key Set of at most 1 MiB", cfg.JWKS)
		}
		p.Env.Options.JWKS = b
	}

	// The first card fetch decides reachability; a 503 while an agent starts
	// is waited out, and so is a refused connection from the embedded agent.
	// With --wait-ready, a target still coming up (refused, 502, 503, 504)
	// is waited for up to that bound, and the wait is reported.
	began := time.Now()
	deadline := began.Add(Readiness)
	waitUp := cfg.Target != "" && cfg.WaitReady > 0
	if waitUp {
		deadline = began.Add(cfg.WaitReady)
	}
	attempts := 0
	for {
		attempts++
		fctx, cancel := context.WithTimeout(ctx, FirstFetchTimeout)
		resp, err := client.FetchCard(fctx, p.Env.HTTP, p.Env.BaseURL, withVersion(hdr))
		cancel()
		coming := err == nil && resp.Status == http.StatusServiceUnavailable
		if waitUp && !coming {
			coming = err != nil || resp.Status == http.StatusBadGateway || resp.Status == http.StatusGatewayTimeout
		}
		retry := time.Now().Before(deadline) &&
			((err != nil && p.Driver == topology.DriverEmbedded) || coming)
		if waitUp && attempts > 1 && !retry {
			what := "served its card"
			switch {
			case err != nil:
				what = "still refused: " + err.Error()
			case coming:
				what = fmt.Sprintf("still answered HTTP %d", resp.Status)
			}
			p.Notes = append(p.Notes, fmt.Sprintf("start: waited %s for the target (%d attempts, bound --wait-ready %s): it %s",
				time.Since(began).Round(10*time.Millisecond), attempts, cfg.WaitReady, what))
		}
		if retry {
			select {
			case <-ctx.Done():
				return p, ctx.Err()
			case <-time.After(readyPause(time.Since(began))):
			}
			continue
		}
		if err != nil {
			p.Unreachable = err
			return p, nil
		}
		p.Env.CardStatus, p.Env.CardHeader, p.Env.CardRaw, p.Env.Card = resp.Status, resp.Header, resp.Raw, resp.Card
		break
	}
	p.Env.Behaviour = chooseBehaviour(cfg, p.Env)
	if p.Env.Options.Parallel == 0 {
		p.Env.Options.Parallel = suites.ParallelFor(p.Env.Behaviour)
	}
	// Whether the agent reaches the receiver is one fact of the run, proved
	// here before any spec (reach.go), never by whichever spec decides first.
	proveWebhookReach(ctx, p.Env, p.Env.WebhookReachable)
	return p, nil
}

// RolloutInstances is how many embedded instances a run that selects the
// rollout suite starts when --instances does not say: enough for a task on
// one, a stream or cancel through a second, and a third left serving while
// one is replaced.
const RolloutInstances = 3

// embeddedInstances is how many instances the embedded driver starts, and
// whether its load balancer fronts them: --instances, else RolloutInstances
// when the run selects rollout specs, else one instance talked to directly,
// as before the rollout suite existed.
func embeddedInstances(cfg Config) (int, bool) {
	rollout := rolloutSelected(cfg)
	n := cfg.Instances
	if n == 0 && rollout {
		n = RolloutInstances
	}
	if n == 0 {
		n = 1
	}
	return n, rollout || n > 1
}

// rolloutSelected reports whether the run selects rollout specs (by suite,
// by focus, or by selecting everything).
func rolloutSelected(cfg Config) bool {
	rollout := len(cfg.Suites) == 0 && len(cfg.Focus) == 0
	for _, s := range cfg.Suites {
		rollout = rollout || s == suites.Rollout
	}
	for _, id := range cfg.Focus {
		if info, ok := suites.Lookup(id); ok && info.Suite == suites.Rollout {
			rollout = true
		}
	}
	return rollout
}

// bearer is the token of h's "Authorization: Bearer …", or "".
func bearer(h http.Header) string {
	if scheme, v, ok := strings.Cut(h.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(v)
	}
	return ""
}

// asIdentity is the header set the second identity sends: the run's headers
// (tenant, routing and the like), with every header the second identity
// names replaced by its values.
func asIdentity(run, second http.Header) http.Header {
	out := run.Clone()
	for name, vs := range second {
		out[name] = append([]string(nil), vs...)
	}
	return out
}

func withVersion(h http.Header) http.Header {
	out := h.Clone()
	out.Set("A2A-Version", "1.0")
	return out
}

// baseTransport bounds connection set-up and the wait for response headers
// (--request-timeout); each request is also bounded by its spec's context,
// and a stream's body may legitimately stay open for long.
func baseTransport(requestTimeout time.Duration) *http.Transport {
	return &http.Transport{
		Proxy:                  nil, // never send agent traffic through an ambient proxy
		DialContext:            (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  requestTimeout,
		MaxResponseHeaderBytes: MaxResponseHeaderBytes,
		MaxIdleConnsPerHost:    16,
		IdleConnTimeout:        30 * time.Second,
	}
}

// sameOriginRedirects follows a redirect only within the origin the request
// went to (at most 10), never to another: the run's requests and credentials
// stay with the target, and the spec sees the 3xx itself.
func sameOriginRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	from := via[0].URL
	if req.URL.Scheme != from.Scheme || req.URL.Host != from.Host {
		return http.ErrUseLastResponse
	}
	return nil
}

// chooseBehaviour prefers the directive extension, then the prompt map.
func chooseBehaviour(cfg Config, env *suites.Env) suites.Behaviour {
	if env.Card != nil && !cfg.NoDirective && env.Card.HasExtension(directiveURI) {
		return suites.DirectiveBehaviour{}
	}
	if len(cfg.PromptMap) > 0 {
		return suites.PromptMapBehaviour{Prompts: cfg.PromptMap}
	}
	return nil
}

// jsonOrString keeps a card as JSON when it is JSON, else as a JSON string of
// its (already capped) bytes, so a malformed card still reaches the report.
func jsonOrString(raw []byte) json.RawMessage {
	if json.Valid(raw) {
		return json.RawMessage(raw)
	}
	b, _ := json.Marshal(string(raw))
	return b
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// maxDescriptorSet bounds a --grpc-descriptor-set file (the official a2a.proto
// with its imports is a few tens of KiB).
const maxDescriptorSet = 16 << 20

func loadDescriptorSet(path string) (*a2agrpc.Schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--grpc-descriptor-set: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxDescriptorSet+1))
	if err != nil {
		return nil, fmt.Errorf("--grpc-descriptor-set: %w", err)
	}
	if len(b) > maxDescriptorSet {
		return nil, fmt.Errorf("--grpc-descriptor-set: %s is over %d MiB", path, maxDescriptorSet>>20)
	}
	s, err := a2agrpc.FromDescriptorSet(b, path)
	if err != nil {
		return nil, fmt.Errorf("--grpc-descriptor-set: %w", err)
	}
	return s, nil
}

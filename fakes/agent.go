// Package fakes is the reference A2A v1.0 agent: correct by default, with
// registered faults that each break one requirement on purpose. It proves the
// harness: every spec must pass against the clean agent and fail against the
// faults that break its invariant. It is also what `a2a-conform run` talks to
// when no --target is given.
//
// One listener serves the card, the JSON-RPC binding and the HTTP+JSON
// binding. State lives in a store (fakes/store): in memory for one instance,
// or a SQLite file shared by several instances, in-process or in separate
// processes. Any instance answers for any task; events reach streams on every
// instance through the store's event log; push deliveries are rows in the
// store, so they survive the restart of the instance that accepted them.
package fakes

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// InstanceHeader names the instance that produced a response or a push; the
// harness's recorder reads it to say which instance served what.
const InstanceHeader = "A2A-Conform-Instance"

// Paths of the two bindings under the listener's base URL. A rotation that
// moves the interfaces prefixes them with /g<generation>; every generation's
// paths keep working, so a task started through an old interface URL stays
// reachable through it.
const (
	JSONRPCPath = "/a2a/jsonrpc"
	RESTPath    = "/a2a/rest"
	// AdminPath is the opt-in admin endpoint (Options.Admin).
	AdminPath = "/_a2a-conform/"
)

// Store is the reference agent's state; see package fakes/store.
type Store = store.Store

// OpenMemoryStore returns a private in-memory store for one instance (or for
// several in-process instances given the same *Store).
func OpenMemoryStore() *Store { return store.OpenMemory() }

// OpenSQLiteStore opens a SQLite file that several processes may share.
func OpenSQLiteStore(path string) (*Store, error) { return store.OpenSQLite(path) }

// ExtendedCardMode says what GetExtendedAgentCard does (spec §3.1.11).
type ExtendedCardMode int

const (
	// ExtendedCardServed claims the capability and serves an extended card.
	ExtendedCardServed ExtendedCardMode = iota
	// ExtendedCardAbsent does not claim it: UnsupportedOperationError.
	ExtendedCardAbsent
	// ExtendedCardUnconfigured claims it without having one:
	// ExtendedAgentCardNotConfiguredError.
	ExtendedCardUnconfigured
)

// PushOptions bound push delivery. Zero fields take the defaults.
type PushOptions struct {
	// MaxAttempts per delivery, the first included (default 6). A delivery
	// that still fails is dropped and logged.
	MaxAttempts int
	// BaseDelay is the wait after the first failure; it doubles after each
	// further failure up to MaxDelay (defaults 250ms and 8s: six attempts
	// span about 8 s).
	BaseDelay, MaxDelay time.Duration
	// Timeout bounds one attempt (default 10s, the low end of the 10–30 s
	// spec §13.2 recommends).
	Timeout time.Duration
	// Late holds every delivery this long before its first attempt, as a
	// queue-backed dispatcher does: a correct agent whose pushes arrive
	// seconds late (fakes/variant_push_late.go).
	Late time.Duration
	// DialGuard accepts every webhook URL but refuses, when it delivers, to
	// connect to loopback, private, link-local or unspecified addresses, as
	// a2a-go's push sender does by default from v2.4.0
	// (fakes/variant_push_dialguard.go):
	// a correct agent that cannot reach a harness on 127.0.0.1.
	DialGuard bool
}

// Options configure one instance. The zero value is a correct agent with every
// capability: directive extension, streaming, push, extended card.
type Options struct {
	// Name identifies the instance in the A2A-Conform-Instance header (default
	// "reference").
	Name string
	// BaseURL is the absolute URL the card's interface URLs are built from.
	// Empty: each card request's scheme and Host (X-Forwarded-Proto and
	// X-Forwarded-Host win, for proxies that rewrite Host).
	BaseURL string
	// Store holds the state; nil gives a private in-memory store, closed by
	// Shutdown. A store passed in is never closed by the agent.
	Store *Store
	// Faults are the registered fault names to switch on.
	Faults []string
	// DisableDirective removes the directive extension from the card and
	// ignores directive parts.
	DisableDirective bool
	// PromptMap makes fixed text phrases trigger behaviours (see Prompts).
	PromptMap bool
	// Prompts maps phrases to behaviours; nil means DefaultPrompts().
	Prompts map[string]directive.Directive
	// DisablePush and DisableStreaming withdraw the capabilities: the card says
	// false and the operations answer the spec's "not supported" errors.
	DisablePush, DisableStreaming bool
	// ExtendedCard chooses the GetExtendedAgentCard behaviour.
	ExtendedCard ExtendedCardMode
	// CardMaxAge is the card's Cache-Control max-age (default 30s; negative
	// sends max-age=0).
	CardMaxAge time.Duration
	// StrictVersion rejects requests without A2A-Version (spec §3.6: absent
	// means 0.3, which this agent does not speak). Default: accept them as
	// 1.0, as most SDKs do.
	StrictVersion bool
	// Generation is the card generation to start at (default 1); process
	// drivers pass {generation}.
	Generation int
	// WarmUp delays readiness after Start begins, so that the 503 window of a
	// starting instance is observable (default 0).
	WarmUp time.Duration
	// DrainGrace keeps a served instance (Serve, ServeWithGRPC) answering
	// for this long after its context ends, draining (refusing new tasks,
	// answering the rest) before it shuts down, as a pod does between
	// SIGTERM and its exit during its termination grace period (default 0:
	// it shuts down at once, after its in-flight work).
	DrainGrace time.Duration
	// RefusePushConfigs answers the first N CreateTaskPushNotificationConfig
	// calls of this instance with 503 and Retry-After, as an instance that
	// cannot yet confirm a registration should (scenario 2: "return 503 with
	// Retry-After; do not accept and drop"): a correct agent whose refusals a
	// client must retry (`fake --refuse-push-configs N`).
	RefusePushConfigs int
	// RateLimit answers every binding request above this many a second
	// with 429 and Retry-After (gRPC RESOURCE_EXHAUSTED), and ShedOneIn
	// one binding request in this many with 503 and Retry-After (gRPC
	// UNAVAILABLE): a busy instance whose refusals clients retry
	// (variant_busy.go; `fake --rate-limit N`, `fake --shed-one-in N`).
	RateLimit, ShedOneIn int
	// CancelLatency makes CancelTask wait this long before it acts, as an
	// agent whose cancels go through a queue does: a correct agent on
	// which a cancel sent at once can still lose the race to a short task.
	CancelLatency time.Duration
	// AnswerLatency makes a non-blocking SendMessage answer this long
	// after it created the task, as a loaded agent (or machine) does: a
	// short task may have ended by the time its client first looks at it.
	AnswerLatency time.Duration
	// RefuseEndedConfigs refuses a push config for a task already in a
	// terminal state with UnsupportedOperationError, as an agent may that
	// has no transition left to push: a correct agent on which a config
	// given to a short task after it ended is refused, not accepted.
	RefuseEndedConfigs bool
	// PollInterval bounds how late an instance sees another process's writes:
	// events for its streams, due deliveries, orphaned tasks (default 20ms).
	// Writes through the same *Store are seen at once.
	PollInterval time.Duration
	// LeaseTTL bounds how long a task whose instance died waits before
	// another instance carries on with it (default 3s).
	LeaseTTL time.Duration
	// Push bounds webhook delivery.
	Push PushOptions
	// MaxBodyBytes caps request bodies (default 1 MiB); larger ones get 413.
	MaxBodyBytes int64
	// RequiredExtension marks an extension URI required on the card and
	// refuses requests that do not declare it (ExtensionSupportRequiredError).
	RequiredExtension string
	// PreviousBuild makes the instance an older build, one that still has
	// what its successor dropped (fakes/previousbuild.go): a second
	// HTTP+JSON interface at PreviousBuildRESTPath and the required
	// extension PreviousBuildExtension, both declared on its card. The
	// embedded driver rolls to it and away from it to set up the stale card
	// of ROLL-007. Without it the instance serves neither.
	PreviousBuild bool
	// StepDelay is the least time every task step takes (and a Message reply),
	// whatever the directive or prompt asked: a slow agent, for proving the
	// harness fair to agents whose tasks take seconds (`fake --delay`).
	StepDelay time.Duration
	// PlainInputRequired answers every message that carries neither a
	// directive nor a prompt-map phrase with INPUT_REQUIRED instead of
	// completing it: an LLM agent asking a clarifying question of an
	// unscripted "please acknowledge" is correct (spec §4.1.3: interrupted
	// states are a turn's legitimate end), and the specs that send plain
	// messages must not fail it.
	PlainInputRequired bool
	// Admin enables POST /_a2a-conform/rotate, for drivers that can only
	// reach the agent over HTTP (hooks mode self-tests).
	Admin bool
	// GRPCURL is the URL of the listener serving GRPCServer (e.g.
	// "http://127.0.0.1:7001": plaintext h2c, loopback only, or https://…);
	// the card declares it as the GRPC interface, after the two HTTP ones.
	// Empty: no GRPC interface is declared.
	GRPCURL string
	// Logger receives the agent's logs (default: discarded).
	Logger *slog.Logger

	// Variants: correct agents that read the spec another allowed way
	// (fakes/variants.go). No spec may fail them.

	// EmptySkills publishes "skills": [], as the spec's own §8.4.1 example
	// card does; §5.7 would want one element (the spec leaves it open).
	EmptySkills bool
	// OmitETag sends the card without an ETag, revalidated by Last-Modified
	// alone: an ETag is a SHOULD (§8.6.1), Last-Modified a MAY.
	OmitETag bool
	// CardContentType, when set, is the card response's Content-Type (e.g.
	// text/plain): no sentence of the spec names the card's media type.
	CardContentType string
	// PatchVersionInterfaces declares every interface's protocolVersion as
	// "1.0.0": the field is described as Major.Minor, a SHOULD at most.
	PatchVersionInterfaces bool
	// RefuseAuthRequiredMessages answers a message to a task in
	// TASK_STATE_AUTH_REQUIRED with UnsupportedOperationError: agents SHOULD
	// accept them (§7.6.1), a SHOULD only, so LIFE-030 warns.
	RefuseAuthRequiredMessages bool
	// ServeAnyMediaType serves parts of media types the card's input modes
	// do not cover (and ignores them), as a2a-go and the JS SDK do: refusing
	// them is a MAY (docs/levels.md, LIFE-028).
	ServeAnyMediaType bool
	// CloseStreamAtAuthRequired closes a SendStreamingMessage stream once the
	// task is in TASK_STATE_AUTH_REQUIRED, as for INPUT_REQUIRED: §11.7 says
	// streams close on interrupted states, §7.6.1 that the agent SHOULD keep
	// them in AUTH_REQUIRED (A2A v1.0 §3.1.6, UNSURE). Both readings are correct;
	// LIFE-033 records which one it saw.
	CloseStreamAtAuthRequired bool
	// OneStreamPerTask refuses a SubscribeToTask with UnsupportedOperationError
	// while another stream of the task is open on the instance: A2A v1.0.1
	// §3.5.2 lets an agent serve several concurrent streams of one task
	// (MAY). A correct variant, not a fault.
	OneStreamPerTask bool
	// DeleteGoneNotFound answers a delete of a push config that is already
	// gone with TaskNotFoundError ("Push notification config not found"),
	// as HTTP DELETE conventionally does: the second delete has the same
	// effect as the first, which is what A2A v1.0.1 §3.1.10 asks of a
	// repeated delete. A correct variant, not a fault.
	DeleteGoneNotFound bool
	// PurgedOnSecondCancel answers a cancel of a task already canceled with
	// TaskNotFoundError, as an agent that purges canceled tasks may (A2A
	// v1.0.1 §3.3.1: a duplicate cancel MAY get TaskNotFoundError once the
	// task was canceled and purged). A correct variant, not a fault.
	PurgedOnSecondCancel bool
	// AsyncCancel answers CancelTask at once with the task as it stands
	// (WORKING) and applies the cancel this long later, unless the task
	// ended first (fakes/variant_cancel_async.go): an asynchronous cancel,
	// which A2A v1.0.1 §3.1.5 allows. A correct variant, not a fault.
	AsyncCancel time.Duration
	// LateDelay is how long after an acknowledged cancel the late
	// cancel-then-complete faults strike (default DefaultLateDelay;
	// fakes/fault_cancel_then_complete_late.go).
	LateDelay time.Duration
	// RequireAuth is a bearer token every binding request must carry
	// (Authorization: Bearer <token>); without it the request gets 401 with
	// WWW-Authenticate on HTTP+JSON and code -31401 (HTTP 401) on JSON-RPC.
	// The card declares the scheme and requires it. The card itself stays
	// public (§8.2).
	RequireAuth string
	// OtherTokens are further bearer tokens the agent accepts (with
	// RequireAuth set), each a separate identity. A task belongs to the
	// identity that created it; to every other identity it does not exist
	// (spec §13.1, §3.3.2: the same TaskNotFoundError as an unknown id, and
	// never listed). fakes/identity.go.
	OtherTokens []string
	// V03WithoutVersion sends HTTP+JSON requests that carry no A2A-Version to
	// a v0.3 handler (§3.6.2: absent means 0.3): v0.3 routes under /v1,
	// problem+json errors, "kind" in results. JSON-RPC requests are served
	// as 1.0 as before.
	V03WithoutVersion bool
	// ValidateWebhooks refuses push configs whose URL can never be delivered
	// to (not http(s), or a host under a reserved TLD such as .invalid) with
	// InvalidParams, as §13.2 advises agents to validate webhook URLs.
	ValidateWebhooks bool
	// WebhookAllow, when set, is the SSRF allow-list (§13.2): a webhook URL
	// whose host is loopback, private, link-local or unspecified (an IP
	// literal, or localhost) is refused with InvalidParams unless it starts
	// with one of these prefixes. The embedded driver sets it to the
	// harness's receiver; `fake --webhook-allow` sets it by hand. Empty: every
	// http(s) URL is delivered to, loopback included, so that a harness on
	// 127.0.0.1 can receive without configuring the agent.
	WebhookAllow []string
	// DispatcherWarmUp starts the push dispatcher of an instance that had a
	// warm-up (Options.WarmUp) this long after it became ready: pushes
	// accepted meanwhile wait in the store and go out late, never lost
	// (fakes/variant_rollout_push.go).
	DispatcherWarmUp time.Duration
	// PushDelay makes the dispatcher deliver each push this long after the
	// event that caused it, as a queue-backed dispatcher acknowledges first
	// and delivers later (fakes/variant_push.go; `fake --push-delay`). Each
	// config's pushes keep their order. Default 0: due at once.
	PushDelay time.Duration
	// DuplicatePushes delivers every push twice, one after the other: push
	// delivery is at least once and receivers dedupe (A2A v1.0 §4.3.3;
	// `fake --push-twice`).
	DuplicatePushes bool
	// ForwardToOwner makes an instance that does not run a task pass every
	// HTTP request about it to the instance that does, at the address that
	// instance registered in the shared store, and relay the answer,
	// streams included (fakes/variant_forward.go; `fake --forward-to-owner`):
	// replicas that forward to the owner, a correct way to serve a task from
	// any replica.
	ForwardToOwner bool
	// TerminalPushesOnly pushes only the event that makes a task terminal:
	// what triggers a push is up to the agent and the spec does not
	// guarantee a push for every event (A2A v1.0 §4.3.3; `fake
	// --push-terminal-only`).
	TerminalPushesOnly bool
}

const (
	defaultName         = "reference"
	defaultCardMaxAge   = 30 * time.Second
	defaultPollInterval = 20 * time.Millisecond
	defaultLeaseTTL     = 3 * time.Second
	defaultMaxBody      = 1 << 20
	// retryAfterSeconds is sent with every 503 (warm-up, drain).
	retryAfterSeconds = "1"
	// maxBlockingWait bounds a blocking SendMessage whose task never settles.
	maxBlockingWait = 15 * time.Minute
)

// Agent is one reference-agent instance; it is an http.Handler serving the
// card and both bindings.
type Agent struct {
	opts   Options
	name   string
	owner  string // unique per Agent value: leases survive name reuse across restarts
	log    *slog.Logger
	st     *store.Store
	ownsSt bool
	faults faultSet
	// capability flags as advertised and as honoured; they differ only under
	// the card-overclaims-* faults.
	claimStreaming, doStreaming bool
	claimPush, doPush           bool
	directiveOn                 bool
	prompts                     []prompt

	hub    *hub
	client *http.Client

	startOnce sync.Once
	stopOnce  sync.Once
	ready     atomic.Bool
	draining  atomic.Bool
	// startedAt is when this instance came to be (lose-tasks-on-restart).
	startedAt time.Time

	// workCtx stops workers and the delivery loop; tailCtx stops the tailer
	// and ends open streams, last.
	workCtx, tailCtx   context.Context
	stopWork, stopTail context.CancelFunc
	loops              sync.WaitGroup
	// workers are running task scripts, served are API requests in progress
	// (streams and blocking sends included), inflight are push attempts.
	workers, served, inflight tracker

	cardMu sync.Mutex
	card   cardState

	// memConfigs holds push configs in instance memory (push-config-not-durable).
	memMu      sync.Mutex
	memConfigs map[[2]string]memConfig
	// refusedPush counts the registrations refused under RefusePushConfigs.
	refusedPush atomic.Int64
	// shed counts binding requests under ShedOneIn; limiter is RateLimit's
	// bucket (variant_busy.go).
	shed    atomic.Int64
	limiter bucket
	// snapshot is the set of configs known at start-up (push-dispatcher-snapshot).
	snapshot map[[2]string]bool
	// unindexed are configs this instance's dispatcher never learnt of
	// (card-before-ready); under memMu.
	unindexed map[[2]string]bool
	// readyAt is when the instance became ready (set before ready).
	readyAt time.Time
	// copies are the tasks as this instance last wrote them (the stale-copy
	// faults only).
	copies copies
	// selfURL is this instance's own base URL (set by Serve) and forwarder
	// the client that relays requests to another instance (ForwardToOwner).
	selfURL   string
	forwarder *http.Client
}

// New builds an instance; it answers 503 until Start has loaded its state.
func New(opts Options) (*Agent, error) {
	faults, err := newFaultSet(opts.Faults)
	if err != nil {
		return nil, err
	}
	if opts.Name == "" {
		opts.Name = defaultName
	}
	if opts.CardMaxAge == 0 {
		opts.CardMaxAge = defaultCardMaxAge
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = defaultPollInterval
	}
	if opts.LeaseTTL <= 0 {
		opts.LeaseTTL = defaultLeaseTTL
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = defaultMaxBody
	}
	if opts.Generation <= 0 {
		opts.Generation = 1
	}
	p := &opts.Push
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 6
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 250 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 8 * time.Second
	}
	if p.Timeout <= 0 {
		p.Timeout = 10 * time.Second
	}
	if opts.BaseURL != "" {
		opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	a := &Agent{
		opts:        opts,
		name:        opts.Name,
		owner:       opts.Name + "/" + newID()[:8],
		log:         log.With("instance", opts.Name),
		st:          opts.Store,
		faults:      faults,
		directiveOn: !opts.DisableDirective,
		hub:         newHub(),
		memConfigs:  map[[2]string]memConfig{},
		startedAt:   time.Now(),
	}
	if a.st == nil {
		a.st = store.OpenMemory()
		a.ownsSt = true
	}
	a.limiter.rate = float64(opts.RateLimit)
	a.claimStreaming, a.doStreaming = !opts.DisableStreaming, !opts.DisableStreaming
	a.claimPush, a.doPush = !opts.DisablePush, !opts.DisablePush
	if faults.has(faultCardOverclaimsStreaming) {
		a.claimStreaming, a.doStreaming = true, false
	}
	if faults.has(faultCardOverclaimsPush) {
		a.claimPush, a.doPush = true, false
	}
	if opts.DisableStreaming && faults.has(faultNextBuildClaimsDroppedStreaming) {
		a.claimStreaming = true
	}
	if opts.DisablePush && faults.has(faultNextBuildClaimsDroppedPush) {
		a.claimPush = true
	}
	if opts.PromptMap {
		a.prompts = compilePrompts(opts.Prompts)
	}
	a.card.gen = opts.Generation
	a.card.modAt = a.startedAt
	a.client = &http.Client{
		Timeout: opts.Push.Timeout,
		// A webhook's redirect is not followed: it would send the task's
		// credentials to a URL the client never registered.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	if opts.ForwardToOwner {
		a.forwarder = newForwarder()
	}
	a.workCtx, a.stopWork = context.WithCancel(context.Background())
	a.tailCtx, a.stopTail = context.WithCancel(context.Background())
	return a, nil
}

// Name is the instance name.
func (a *Agent) Name() string { return a.name }

// Store is the instance's store.
func (a *Agent) Store() *Store { return a.st }

// Ready reports whether the instance serves (Start finished, not draining).
func (a *Agent) Ready() bool { return a.ready.Load() && !a.draining.Load() }

// Start loads the instance's state and starts its background work: the event
// tailer (streams on this instance see every instance's events), the push
// dispatcher (pending deliveries from any instance, including ones left by an
// instance that died) and the adopter (tasks whose instance died). It returns
// once the instance is ready; until then every request gets 503 with
// Retry-After, because a card served before the dispatcher runs is a promise
// the instance cannot keep (scenario 2).
func (a *Agent) Start(ctx context.Context) error {
	err := errors.New("fakes: Start called twice")
	a.startOnce.Do(func() { err = a.start(ctx) })
	return err
}

func (a *Agent) start(ctx context.Context) error {
	last, err := a.st.LastSeq(ctx)
	if err != nil {
		return fmt.Errorf("fakes: loading the event position: %w", err)
	}
	if a.faults.has(faultPushDispatcherSnapshot) {
		keys, err := a.st.ConfigKeys(ctx)
		if err != nil {
			return fmt.Errorf("fakes: loading push configs: %w", err)
		}
		a.snapshot = map[[2]string]bool{}
		for _, k := range keys {
			a.snapshot[k] = true
		}
	}
	wake, unsub := a.st.Notify()
	a.loops.Add(1)
	go a.tail(last, wake, unsub)
	if a.opts.WarmUp > 0 {
		select {
		case <-time.After(a.opts.WarmUp):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if !a.losesTasks() {
		if err := a.adoptOrphans(ctx); err != nil {
			return fmt.Errorf("fakes: adopting orphaned tasks: %w", err)
		}
	}
	if err := a.advertise(ctx); err != nil {
		return fmt.Errorf("fakes: registering the instance's address: %w", err)
	}
	dwake, dunsub := a.st.Notify()
	a.loops.Add(1)
	go a.background(dwake, dunsub)
	a.readyAt = time.Now()
	a.ready.Store(true)
	a.log.Info("ready", "store", a.st.Path(), "faults", a.faults.names())
	return nil
}

// Shutdown drains the instance: new work gets 503; running tasks are handed
// back to the store for another instance (or this one's next start) to carry
// on; push attempts in progress finish, the others stay pending in the store;
// open streams and blocking calls keep being served until they end or ctx
// expires, then they are cut. A private memory store is closed.
func (a *Agent) Shutdown(ctx context.Context) error {
	err := errors.New("fakes: Shutdown called twice")
	a.stopOnce.Do(func() { err = a.shutdown(ctx) })
	return err
}

// Drain begins what Shutdown does first: new work gets 503, the workers hand
// their tasks back and the dispatcher stops claiming deliveries; the
// instance keeps answering on its listener until Shutdown. A drain that
// lasts (a pod's terminationGracePeriod) is how an instance looks to clients
// while it goes away; the embedded driver holds it open while a spec acts
// on the old instance (suites.SteppedRoller).
func (a *Agent) Drain() {
	if !a.draining.Swap(true) {
		a.withdraw()
	}
	a.stopWork()
}

func (a *Agent) shutdown(ctx context.Context) error {
	a.Drain()
	err := a.workers.wait(ctx)
	if err == nil {
		err = a.inflight.wait(ctx)
	}
	if err == nil {
		err = a.served.wait(ctx)
	}
	a.stopTail()
	a.hub.closeAll()
	a.loops.Wait()
	// Leases are released after the loops stop, so that nothing re-claims them.
	rctx, cancel := context.WithTimeout(context.Background(), store.BusyTimeout)
	defer cancel()
	if rerr := a.st.ReleaseDeliveries(rctx, a.owner); rerr != nil && err == nil {
		err = rerr
	}
	if a.ownsSt {
		a.st.Close()
	}
	a.ready.Store(false)
	a.log.Info("stopped")
	return err
}

// background runs the push dispatcher and the orphan adopter on one ticker.
func (a *Agent) background(wake <-chan struct{}, unsub func()) {
	defer a.loops.Done()
	defer unsub()
	tick := time.NewTicker(a.opts.PollInterval)
	defer tick.Stop()
	for {
		ticked := false
		select {
		case <-a.workCtx.Done():
			return
		case <-wake:
		case <-tick.C:
			ticked = true
		}
		a.dispatch()
		// Orphans appear only when a lease runs out or is handed back, never
		// because of a local write: the ticker is enough.
		if ticked && !a.losesTasks() {
			if err := a.adoptOrphans(a.workCtx); err != nil && a.workCtx.Err() == nil {
				a.log.Warn("adopting orphaned tasks", "err", err)
			}
		}
	}
}

// ServeHTTP routes the card, the two bindings and the admin endpoint.
func (a *Agent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set(InstanceHeader, a.name)
	rw := &respWriter{ResponseWriter: w}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			a.log.Error("panic serving request", "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if !rw.wrote {
				a.writeError(rw, r, errInternal("internal error"))
			}
		}
	}()
	path := stripGeneration(r.URL.Path)
	switch {
	case path == "/.well-known/agent-card.json":
		a.serveCard(rw, r)
	case path == JWKSPath:
		a.serveJWKS(rw, r)
	case a.opts.Admin && strings.HasPrefix(path, AdminPath):
		a.serveAdmin(rw, r, strings.TrimPrefix(path, AdminPath))
	case path == JSONRPCPath:
		a.serveJSONRPCBinding(rw, r)
	case path == RESTPath || strings.HasPrefix(path, RESTPath+"/"):
		a.serveRESTBinding(rw, r)
	case path == PreviousBuildRESTPath || strings.HasPrefix(path, PreviousBuildRESTPath+"/"):
		a.servePreviousBuildREST(rw, r)
	default:
		a.notFound(rw, r)
	}
}

// serveBinding serves one binding request as every one is served:
// extensions echoed, the warm-up gate, authentication (which tags the
// request with the caller's identity), then the call, counted in flight.
func (a *Agent) serveBinding(rw http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request)) {
	a.echoExtensions(rw, r)
	if !a.gate(rw, r) || a.refuseBusy(rw, r) {
		return
	}
	if r, ok := a.authenticate(rw, r); ok {
		a.served.add()
		defer a.served.done()
		if a.forwarded(rw, r) {
			return
		}
		serve(rw, r)
	}
}

// serveRESTBinding serves one HTTP+JSON request (or a v0.3 one, for the
// faults that speak it).
func (a *Agent) serveRESTBinding(rw http.ResponseWriter, r *http.Request) {
	a.serveBinding(rw, r, func(rw http.ResponseWriter, r *http.Request) {
		if a.servesV03REST(r) {
			a.serveV03REST(rw, r)
			return
		}
		a.serveREST(rw, r)
	})
}

// serveJSONRPCBinding serves one JSON-RPC call.
func (a *Agent) serveJSONRPCBinding(rw http.ResponseWriter, r *http.Request) {
	a.serveBinding(rw, r, a.serveJSONRPC)
}

// notFound answers a path no binding of this build serves.
func (a *Agent) notFound(rw http.ResponseWriter, r *http.Request) {
	writeJSON(rw, http.StatusNotFound, "application/json",
		errMethodNotFound(r.Method+" "+truncate(r.URL.Path, 200)).restBody(true))
}

// echoExtensions lists, in the A2A-Extensions response header, the requested
// extensions this agent activated (docs/topics/extensions.md SHOULD): the
// directive extension, when on, and a previous build's own extension.
func (a *Agent) echoExtensions(w http.ResponseWriter, r *http.Request) {
	var active []string
	for _, v := range r.Header.Values("A2A-Extensions") {
		for _, uri := range strings.Split(v, ",") {
			switch uri = strings.TrimSpace(uri); {
			case uri == directive.URI && a.directiveOn,
				uri == PreviousBuildExtension && a.activatesPreviousExtension():
				if !slices.Contains(active, uri) {
					active = append(active, uri)
				}
			}
		}
	}
	if len(active) > 0 {
		w.Header().Set("A2A-Extensions", strings.Join(active, ", "))
	}
}

// gate answers 503 before readiness (unless card-before-ready). A draining
// instance still answers reads; operations that start new work refuse it.
func (a *Agent) gate(w http.ResponseWriter, r *http.Request) bool {
	if !a.ready.Load() && !a.faults.has(faultCardBeforeReady) {
		w.Header().Set("Retry-After", retryAfterSeconds)
		a.writeError(w, r, errUnavailable("the agent instance is starting"))
		return false
	}
	return true
}

// writeError renders an error in the binding the request was made to.
func (a *Agent) writeError(w http.ResponseWriter, r *http.Request, e *opError) {
	if stripGeneration(r.URL.Path) == JSONRPCPath {
		a.writeRPC(w, e.httpStatusForRPC(), nil, nil, e)
		return
	}
	a.writeRESTError(w, e)
}

// httpStatusForRPC: JSON-RPC errors travel with HTTP 200, except transport
// failures the HTTP layer itself reports (503, 413, 415, 405).
func (e *opError) httpStatusForRPC() int {
	switch e.httpStatus {
	case http.StatusServiceUnavailable, http.StatusTooManyRequests, http.StatusRequestEntityTooLarge,
		http.StatusUnsupportedMediaType, http.StatusMethodNotAllowed, http.StatusUnauthorized:
		return e.httpStatus
	}
	return http.StatusOK
}

// stripGeneration removes a leading /g<N> segment (interfaces moved by a
// rotation).
func stripGeneration(p string) string {
	if len(p) < 3 || p[0] != '/' || p[1] != 'g' {
		return p
	}
	i := 2
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		i++
	}
	if i == 2 || i >= len(p) || p[i] != '/' {
		return p
	}
	return p[i:]
}

// tracker counts running things and lets Shutdown wait for none with a
// deadline (a WaitGroup cannot be waited on with a context, and must not be
// added to while waited on).
type tracker struct {
	mu   sync.Mutex
	n    int
	zero chan struct{}
}

func (t *tracker) add() {
	t.mu.Lock()
	if t.n == 0 {
		t.zero = make(chan struct{})
	}
	t.n++
	t.mu.Unlock()
}

func (t *tracker) done() {
	t.mu.Lock()
	t.n--
	if t.n == 0 {
		close(t.zero)
	}
	t.mu.Unlock()
}

func (t *tracker) wait(ctx context.Context) error {
	t.mu.Lock()
	if t.n == 0 {
		t.mu.Unlock()
		return nil
	}
	ch := t.zero
	t.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type respWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *respWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *respWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *respWriter) Flush() {
	w.wrote = true
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *respWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func writeJSON(w http.ResponseWriter, status int, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// newID returns a random UUID (version 4): task, context, message, artifact
// and config ids are all server-generated and unguessable.
func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

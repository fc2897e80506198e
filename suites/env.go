package suites

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/a2agrpc"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Env is what every spec runs against: the target, its card as first fetched,
// the recorded HTTP client, and the facilities the run has (scripted
// behaviour, topology control, a webhook receiver). The runner builds it
// before RunSpecs; specs only read it.
type Env struct {
	// BaseURL is the origin the card was fetched from.
	BaseURL string
	// Card is the card as first fetched (nil if it did not decode); CardRaw and
	// CardHeader are the bytes and headers of that response.
	Card       *a2a.AgentCard
	CardRaw    []byte
	CardHeader http.Header
	CardStatus int
	// HTTP sends every request through the recorder.
	HTTP *http.Client
	// RecordCall records gRPC calls into the same transcript (nil: not
	// recorded).
	RecordCall client.CallRecorder
	// GRPCSchema is the lf.a2a.v1 descriptor set in use (nil: the built-in
	// one, internal/a2agrpc/a2a.proto).
	GRPCSchema *a2agrpc.Schema
	// Headers are added to every request to the agent (auth); their values are
	// secrets and are redacted from every report.
	Headers http.Header
	// SecondHeaders are the whole header set of a second identity of the
	// agent: the run's headers with those the config's second-header names
	// replaced (nil: the run has no second identity). Secrets, redacted like
	// Headers. The scoping specs (LIFE-031, LIFE-032) call as this identity.
	SecondHeaders http.Header
	// TLSConfig is the TLS configuration of every connection (the trusted
	// roots, with --ca-file's); nil: the system's defaults.
	TLSConfig *tls.Config
	// TLS remembers the TLS sessions the run negotiated (nil: not kept).
	TLS TLSLog
	// Transcript gives each spec the exchanges it caused.
	Transcript Transcript
	// Behaviour scripts timing-dependent tasks (directive extension or prompt
	// map); nil when neither is available.
	Behaviour Behaviour
	// Health reports a target that stopped answering (nil while it answers);
	// specs that start after that end indeterminate at once.
	Health func() error
	// Webhook receives push deliveries (nil when the run has none).
	Webhook *webhook.Receiver
	// WebhookReachable says the run knows the agent can reach Webhook
	// without having seen a delivery: the embedded driver, whose agents the
	// harness configured with the receiver on their allow-list. Otherwise
	// only a delivery (Webhook.Reached) shows it.
	WebhookReachable bool
	// WebhookReach is the run-level fact of whether the agent reaches
	// Webhook, proved once before the specs run (internal/runner's probe):
	// every spec reads the same fact, whatever the order it runs in. Nil
	// when no probe ran (a spec then falls back to WebhookReachable).
	WebhookReach *WebhookReach
	// Topology controls instances, rotations and the stale-CDN proxy; nil when
	// the run has no control over the deployment (driver "none").
	Topology Topology
	// Options are the run's tunables.
	Options Options
	// Timing is what the run learned of the agent's pace (nil: made on first use).
	Timing *Timing
	// Pace bounds (--max-rps) and counts the run's gRPC calls; HTTP's
	// calls are paced by HTTP's transport (nil: neither).
	Pace *client.Pace
}

// TLSLog remembers, per authority (host:port, client.AuthorityOf), the TLS
// version and cipher suite of the last session the run negotiated with it,
// so that specs can report them (AUTH-TLS-002 is a deployment matter the
// harness observes, never judges).
type TLSLog interface {
	Note(authority string, st tls.ConnectionState)
	// Seen describes the session, e.g. "TLS 1.3, TLS_AES_128_GCM_SHA256";
	// false when the run spoke no TLS to that authority.
	Seen(authority string) (string, bool)
}

// Options are the knobs specs read.
type Options struct {
	Seed int64
	// SubscribeVerb is the HTTP verb for REST SubscribeToTask (POST by default;
	// the proto says GET, the spec prose POST: A2A v1.0 §5.3).
	SubscribeVerb string
	// Parallel is how many specs the run has in flight at once (--parallel).
	Parallel int
	// RaceTrials is how many cancel-then-complete trials the race spec runs.
	RaceTrials int
	// Settle is how long "Consistently" checks watch a value that must not change.
	Settle time.Duration
	// JWKS is the configured JSON Web Key Set for card signatures (may be nil).
	JWKS []byte
	// Patience is the least time "Eventually" waits for the agent to reach a
	// state (DefaultPatience when zero); T.Patience stretches it to the
	// agent's observed pace.
	Patience time.Duration
	// HookTimeout is the most one hook of the hooks driver may take, the
	// wait for the target to serve again included (0 without hooks): the
	// rollout specs' timeouts grow by it.
	HookTimeout time.Duration
	// PushRetryWait is how long PUSH-007 waits for the retry of the push
	// its receiver refused, counted from the refusal (DefaultPushRetryWait
	// when zero; --push-retry-wait).
	PushRetryWait time.Duration
}

// DefaultPushRetryWait is how long PUSH-007 (suites/webhook) waits by
// default for the retry of a refused push, counted from the refused
// attempt (or the patience after the task ended, when later);
// --push-retry-wait sets another. A2A leaves the
// schedule to the agent: it "MAY retry with exponential backoff", §13.2
// makes retrying a SHOULD, and 10–30 s is the recommended timeout of one
// webhook call (A2A v1.0 §4.3.3). Since the receiver refuses only one
// attempt (suites/webhook's failFirst), the retry it acknowledges is the first one: 25 s
// waits for a first retry at 15 s with 10 s to spare (such an agent must
// not warn), and for the push-backoff variant's 5 s
// (internal/cli/matrix_variants.go) five times over. The wait ends as soon
// as the retry is acknowledged, so an agent that retries at once costs no
// more. An agent that never retries holds the spec for this long, which is
// why the scheduler starts PUSH-007 among the first (suites.Info.Long): the
// wait overlaps the rest of the run.
//
// No wait proves that a retry will never come (the text sets no bound), so
// a verdict that rests on its absence is looked at again when every spec
// of the run has ended (suites.T.Later): a retry that came meanwhile makes
// the spec pass, and a warn that stands names the wait and the flag that
// lengthens it, for an agent whose first retry comes later still.
const DefaultPushRetryWait = 25 * time.Second

// RetryWait is the run's wait for a push retry: Options.PushRetryWait, or
// DefaultPushRetryWait.
func (o Options) RetryWait() time.Duration {
	if o.PushRetryWait > 0 {
		return o.PushRetryWait
	}
	return DefaultPushRetryWait
}

// Transcript is the recorder as specs see it.
type Transcript interface {
	// Owned returns the exchanges made on behalf of one spec: every request
	// sent with a context that recorder.WithOwner tagged with its ID, and the
	// webhook deliveries to the tokens it claimed.
	Owned(owner string) []reports.Exchange
	// AddSecret redacts values the harness invents (push credentials) from
	// every exchange, past and future.
	AddSecret(values ...string)
}

// Behaviour builds messages that make the agent behave as a spec needs: the
// directive extension when the card advertises it, else the config's prompt map.
type Behaviour interface {
	// Kind is "directive" or "prompt-map".
	Kind() string
	// Message builds the user message for a script; an error means this
	// behaviour cannot be produced (the spec then could not run).
	Message(s Script) (a2a.Message, error)
	// Extensions are A2A-Extensions values to send with such messages.
	Extensions() []string
}

// Topology is the deployment control a driver offers.
type Topology interface {
	// Driver is "embedded", "process", "hooks" or "none".
	Driver() string
}

// Restarter is a Topology that can restart the agent: stop every instance
// and start it again on the same address and store (embedded, process).
// A spec that uses it must be Exclusive.
type Restarter interface {
	Restart(ctx context.Context) error
}

var (
	envMu   sync.RWMutex
	current *Env
)

// SetEnv installs the environment; the runner calls it once before RunSpecs.
func SetEnv(e *Env) {
	envMu.Lock()
	defer envMu.Unlock()
	current = e
}

// CurrentEnv returns the installed environment (nil before SetEnv).
func CurrentEnv() *Env {
	envMu.RLock()
	defer envMu.RUnlock()
	return current
}

// Reach is what the run knows of whether the agent reaches the harness's
// receiver.
type Reach string

const (
	// ReachUnknown: the probe could not run (no push on the card, no
	// receiver, no scripted behaviour, no task) or has not finished.
	ReachUnknown Reach = "unknown"
	// ReachProven: a push for the probe's config arrived (trusted or not: a
	// POST to its secret URL shows the path works).
	ReachProven Reach = "proven"
	// ReachRefused: the agent refused the receiver's URL as a webhook
	// (RefusesWebhookURL).
	ReachRefused Reach = "refused-url"
	// ReachUnreachable: the agent accepted the probe's config and nothing
	// arrived within the probe's wait. A push that arrives later still
	// upgrades the fact to ReachProven.
	ReachUnreachable Reach = "unreachable"
)

// WebhookReach is the run-level fact of whether the agent reaches the
// harness's receiver (Env.WebhookReach). It is decided once, before the
// specs, by a throwaway task with a config of its own, and only ever
// upgraded afterwards (a late push of that task): a spec never decides from
// what other specs happened to see before it. Safe for concurrent use.
type WebhookReach struct {
	mu      sync.Mutex
	state   Reach
	reason  string
	vouched bool
	// registered is when the probe's config was acknowledged; latency is
	// its first push's arrival after that (0 until one came).
	registered time.Time
	latency    time.Duration
	delivered  bool
}

// NewWebhookReach starts the fact as unknown. vouched says the harness
// itself configured the agent to reach the receiver (the embedded driver
// without --webhook-url): the network path is the harness's, not in doubt.
func NewWebhookReach(vouched bool) *WebhookReach {
	return &WebhookReach{state: ReachUnknown, vouched: vouched}
}

// Decide sets the fact (the probe's verdict) unless a push already proved
// reach.
func (w *WebhookReach) Decide(state Reach, reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state == ReachProven {
		return
	}
	w.state, w.reason = state, reason
}

// Registered records when the probe's config was acknowledged.
func (w *WebhookReach) Registered(at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.registered = at
}

// Arrived records a POST to the probe's config: reach is proven, whenever
// it came (late is not lost).
func (w *WebhookReach) Arrived(at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.delivered {
		return
	}
	w.delivered = true
	if !w.registered.IsZero() {
		w.latency = at.Sub(w.registered)
	}
	late := ""
	if w.state == ReachUnreachable {
		late = " (after the probe had stopped waiting)"
	}
	w.state = ReachProven
	w.reason = fmt.Sprintf("a push for the probe's config arrived %s after it was registered%s", w.latency.Round(time.Millisecond), late)
}

// State is the fact and why.
func (w *WebhookReach) State() (Reach, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state, w.reason
}

// Vouched reports whether the harness configured the agent to reach the
// receiver (the embedded driver).
func (w *WebhookReach) Vouched() bool { return w.vouched }

// Delivered reports whether the probe's config got a push, and its latency.
func (w *WebhookReach) Delivered() (bool, time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.delivered, w.latency
}

// Since is how long ago the probe's config was registered (0 when it was
// not).
func (w *WebhookReach) Since() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.registered.IsZero() {
		return 0
	}
	return time.Since(w.registered)
}

// String is the fact as the report shows it.
func (w *WebhookReach) String() string {
	state, reason := w.State()
	s := "webhook reach: " + string(state)
	if w.vouched {
		s += " (the harness configured the agent to reach its receiver)"
	}
	if reason != "" {
		s += ": " + reason
	}
	return s
}

package suites

import (
	"context"
	"crypto/tls"
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
	// Topology controls instances, rotations and the stale-CDN proxy; nil when
	// the run has no control over the deployment (driver "none").
	Topology Topology
	// Options are the run's tunables.
	Options Options
	// Timing is what the run learned of the agent's pace (nil: made on first use).
	Timing *Timing
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
	// the proto says GET, the spec prose POST: a2a-v1.md §1.1).
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

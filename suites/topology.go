package suites

import (
	"context"
	"net/http"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/client"
)

// The controls a driver may offer beyond Topology.Driver, each a small
// interface that a spec type-asserts on Env.Topology. A spec whose control
// is missing ends could-not-run, naming the drivers that offer it
// (DriversFor), never pass.

// Instances is a deployment of several instances behind the harness's load
// balancer (embedded and process drivers).
type Instances interface {
	// BalancerURL is the balancer's base URL.
	BalancerURL() string
	// InstanceNames names the instances by slot; "" for a stopped slot.
	InstanceNames() []string
	// InstanceURL is slot k's own base URL, bypassing the balancer.
	InstanceURL(k int) string
	// Pin is the client option that sends calls to slot k through the
	// balancer, whatever its policy.
	Pin(k int) client.Option
}

// InstanceOrigins is a deployment whose instances may name their own
// addresses in the card, and which knows those addresses, past generations
// included (the process driver: an agent knows only its {port}). A client
// built from such a card is sent through the balancer instead (ClientFor):
// the instance it names may have been replaced, and a client of a
// deployment reaches it through its load balancer.
type InstanceOrigins interface {
	Instances
	// IsInstanceOrigin reports whether origin (scheme://host:port) is, or
	// was, one instance's own address.
	IsInstanceOrigin(origin string) bool
}

// PinHeader is the request header the harness's balancer routes by: a
// request carrying "k" goes to slot k (Instances.Pin sets it on a client).
const PinHeader = "A2A-Conform-Pin"

// Roller replaces every instance, one at a time, by the next generation:
// start the new one, wait until it serves its card, switch the balancer to
// it, drain the old one (SIGTERM) and stop it. step is told before each slot.
type Roller interface {
	Roll(ctx context.Context, step func(k int)) (generation int, err error)
}

// SteppedRoller is a Roller that lets a spec act between the steps of each
// slot's replacement: RollStepped calls at, and waits for it to return, at
// every stage below for slot k, with the old and the new instance's own base
// URLs (bypassing the balancer). The embedded and process drivers offer it.
type SteppedRoller interface {
	Roller
	RollStepped(ctx context.Context, at func(ctx context.Context, stage string, k int, oldURL, newURL string)) (generation int, err error)
}

// The stages of a stepped roll (SteppedRoller), per slot, in this order.
const (
	// RollBefore: nothing has changed yet for the slot; newURL is "".
	RollBefore = "before"
	// RollReady: the new instance serves its card; the old one still holds
	// the slot and has not been told to drain, so calls pinned to the slot
	// reach the old one.
	RollReady = "ready"
	// RollDraining: the slot points at the new instance (pinned calls reach
	// it); the old one has been told to drain (SIGTERM) and is not stopped
	// yet. It answers at oldURL for as long as its drain lasts: the embedded
	// driver holds the drain open until at returns; a process drains as its
	// own code does, within the driver's stop grace.
	RollDraining = "draining"
)

// InstanceRestarter stops an instance and starts it again.
type InstanceRestarter interface {
	RestartInstance(ctx context.Context, k int) error
	StopInstance(ctx context.Context, k int) error
	// StartInstance starts a stopped slot; without wait it returns at once,
	// while the instance starts.
	StartInstance(ctx context.Context, k int, wait bool) error
}

// EnableTopology is the Enable text of the specs that change the deployment.
const EnableTopology = "Run without --target so that the harness starts the embedded reference agent (driver embedded, " +
	"3 instances by default for the rollout suite, --instances N), or give --agent-cmd TEMPLATE --instances N " +
	"(driver process; --agent-cmd-next for the next build) so that the harness starts, drains and replaces your " +
	"agent's instances behind its own load balancer."

// StaleCard is the harness's CDN in front of the balancer (scenario 3): it
// caches the card and, held, keeps serving the copy it has while the
// instances behind it move on, never past the card's Cache-Control max-age.
// Every other request passes through it to the balancer.
type StaleCard interface {
	// CDNURL is the CDN's base URL; a card fetched there names it in its
	// interface URLs.
	CDNURL() string
	// HoldCard fetches the card now (with header) and keeps serving that
	// copy; it returns the copy's ETag and the window (max-age) it may be
	// served for. A card that no cache may keep is an error.
	HoldCard(ctx context.Context, header http.Header) (etag string, maxAge time.Duration, err error)
	// ReleaseCard ends the hold; expired says it had ended by itself.
	ReleaseCard() (expired bool)
}

// CapabilityRoller rolls (Roller) to a generation that withdraws streaming
// and/or push notifications from its card and refuses them, as a build that
// dropped the capability; both false restores the run's own. It never rolls
// to the previous build (PreviousBuildRoller).
type CapabilityRoller interface {
	RollWithout(ctx context.Context, streaming, push bool, step func(k int)) (generation int, err error)
}

// Hook points of the hooks driver: the commands a vendor gives for a
// deployment the harness does not run (--hook-rotate-card, …).
const (
	HookRotateCard      = "rotate-card"
	HookRestartInstance = "restart-instance"
	HookRolloutStep     = "rollout-step"
)

// HookRunner changes a deployment the harness neither runs nor sees into
// (driver hooks: a staging endpoint behind the vendor's own balancer) by
// running the vendor's command for a hook point. It offers no Instances: a
// spec that must address, pin or stop one instance cannot run under it, and
// a spec that runs under it judges only what it sees through the target.
type HookRunner interface {
	// HookPoints lists the points that have a command.
	HookPoints() []string
	// RunHook runs point's command, with the spec's ID, the ids of the
	// tasks it has running and the instance that served them ("" when
	// unknown) in the command's environment, and returns once the command
	// has and the target serves its card again. It returns the generation
	// the deployment is at afterwards and a one-line account of the run
	// (exit status, time, the tail of its output) for the spec to record. A
	// command that exits non-zero or outlives its timeout, or a target that
	// does not serve its card afterwards, is an error carrying the exit
	// status and the output's tail: the spec could not run.
	RunHook(ctx context.Context, point, spec string, taskIDs []string, instance string) (generation int, account string, err error)
}

// EnableHooks is added to the Enable text of the rollout specs that run
// under the hooks driver.
const EnableHooks = " Against a deployment you run (--target), give the hooks driver the commands that change it " +
	"(--hook-rotate-card, --hook-rollout-step, --hook-restart-instance; which ones this spec runs, and in which order " +
	"it prefers them, is in docs/config-reference.md), each returning once its change is done."

// PreviousBuildRoller rolls (Roller) to an older build: the run's own, plus
// an interface and an extension of its own that every later build dropped.
// Its card lists both and its instances serve both (the reference agent:
// fakes.PreviousBuildRESTPath, an HTTP+JSON interface declared last, and
// the required extension fakes.PreviousBuildExtension). The embedded
// driver's BuildRoller rolls to it as the old build, whose card the CDN
// holds, then on (CapabilityRoller), so that the held card claims an
// interface and an extension the live build lacks.
type PreviousBuildRoller interface {
	RollPrevious(ctx context.Context, step func(k int)) (generation int, err error)
}

// BuildRoller rolls the deployment between two builds of the agent for the
// stale CDN (scenario 3, ROLL-007): the old build, whose card the harness's
// CDN holds (StaleCard), and the new build, which drops whatever it drops.
// A spec learns what the new build dropped by comparing the two builds'
// cards, never from the driver. The embedded driver's old build is the
// reference agent's previous build (PreviousBuildRoller: an interface and an
// extension of its own) and its new build the run's own without streaming
// and push (CapabilityRoller); the process driver's are the vendor's own
// builds, --agent-cmd and --agent-cmd-next.
type BuildRoller interface {
	// Builds describes the two builds for the report; newBuild is "" when
	// the driver has no build distinct from the old one to roll to (the
	// process driver without --agent-cmd-next).
	Builds() (oldBuild, newBuild string)
	// NewBuildRunning says whether every instance runs the new build now
	// (a roll before left them there: the process driver's other rollout
	// specs roll to --agent-cmd-next), so that its card can be read before
	// the spec rolls back to the old build; false when they do not, or it
	// is not known.
	NewBuildRunning() bool
	// RollOldBuild rolls (Roller) to the old build unless every instance
	// runs it already; rolled says whether it did.
	RollOldBuild(ctx context.Context) (generation int, rolled bool, err error)
	// RollNewBuild rolls to the new build.
	RollNewBuild(ctx context.Context) (generation int, err error)
	// RestoreBuild rolls back to the build the run began with, unless every
	// instance runs it already, so that the specs after see the deployment
	// as it was.
	RestoreBuild(ctx context.Context) (generation int, rolled bool, err error)
}

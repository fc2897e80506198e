package rollout

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// staleTrials bounds each round of ROLL-007's seeded cancel race (a second
// round only when the first left a side short): it must fit, with the
// rollout and the refusals, inside the card's max-age (30 s on the
// reference agent), while the CDN still serves the old card.
const staleTrials = 16

// maxStaleClaims bounds how many dropped interfaces, and how many dropped
// extensions, ROLL-007 acts on: the card is the agent's, so its lists are
// untrusted in length.
const maxStaleClaims = 4

// restoreTimeout bounds ROLL-007's roll back to the run's own build, after
// its verdict: long enough for a vendor's instances (the process driver
// waits up to ReadyTimeout, 30 s, for each new one to serve its card) and
// bounded, so that an agent that no longer starts cannot hold the run.
const restoreTimeout = 2 * time.Minute

// newBuildNeeded tells a vendor what ROLL-007's new build must be.
const newBuildNeeded = "ROLL-007 needs a new build that drops something the old build's card claims: streaming, push notifications, " +
	"a JSONRPC or HTTP+JSON interface, or an extension. Under the process driver the old build is --agent-cmd and the new one " +
	"--agent-cmd-next; every rollout spec rolls to --agent-cmd-next, so give ROLL-007 its own run " +
	"(--focus ROLL-007 --agent-cmd-next 'your next build, without one of those …')."

// processNewBuild tells an --agent-cmd user what to change: they gave the
// process driver its builds already, so the spec's Enable text (give
// --agent-cmd, --agent-cmd-next) would only repeat it.
const processNewBuild = "ROLL-007 needs --agent-cmd-next to start a build whose card claims less than --agent-cmd's: " +
	"no streaming, no push notifications, a JSONRPC or HTTP+JSON interface fewer, or an extension fewer. Every rollout spec " +
	"rolls to --agent-cmd-next, so give ROLL-007 such a build in a run of its own (--focus ROLL-007 --agent-cmd-next '…')."

// newBuildAdvice is what ROLL-007's could-not-run reason ends with when the
// deployment has no new build that dropped anything, and whether the spec's
// Enable text should follow it (not for the process driver, whose user
// already did what it says).
func newBuildAdvice(driver string) (advice string, enable bool) {
	if driver == "process" {
		return processNewBuild, false
	}
	return newBuildNeeded, true
}

// noNewBuild ends ROLL-007 could-not-run: the reason, then newBuildAdvice.
func noNewBuild(t *suites.T, format string, args ...any) {
	advice, enable := newBuildAdvice(driverName(t))
	if enable {
		t.CouldNotRun(format+" "+advice, args...)
	}
	t.CouldNotRunAsSaid(format+" "+advice, args...)
}

// ROLL-007 (§3.3.4, §4.6.3, §5.3, §8.6; scenario 3, stale CDN-served
// cards): the harness's CDN keeps serving the old build's card
// while the instances roll to a new build (suites.BuildRoller), and the new
// build dropped whatever its card no longer claims of the held card's:
// streaming, push, an interface, an extension. The embedded driver's builds
// are the reference agent's previous build (an interface and a required
// extension of its own) and its own without streaming and push; the process
// driver's are the vendor's --agent-cmd and --agent-cmd-next. The spec never
// asks which: it compares the held card with the live one and acts on each
// stale claim as a client holding that card would:
//
//   - a dropped capability, through the stale card's own interface URL (the
//     CDN, then the balancer, then the new build): refused with the error
//     §3.3.4 names, never accepted;
//   - a dropped interface (JSONRPC or HTTP+JSON; the CDN fronts no other),
//     SendMessage on its URL: refused in any honest way (no connection, an
//     HTTP error status, the binding's own error) or, if the build still
//     serves it, answered as the binding the card declared; never accepted
//     and answered as something else (another binding's envelope);
//   - a dropped extension, named in A2A-Extensions on a SendMessage: refused
//     (§4.6.3 MUST, reading "the AgentCard" as the card the client holds,
//     which marks it required) or served without it (SHOULD, reading it as
//     the live card, which no longer lists it); UNSURE, so both pass and the
//     one seen is recorded. Served while claiming it activated (A2A-Extensions
//     in the answer, or the agent's own message or artifact naming it) fails:
//     under the first reading the error was owed, under the second the agent
//     activated an extension its live card says it does not support.
//
// A part the run cannot act on (nothing of that kind dropped) is unchecked,
// never passed; a new build that dropped nothing at all makes the spec
// could-not-run, saying what the new build must be. When a roll before the
// spec left the instances on the new build (BuildRoller.NewBuildRunning),
// its card is read before the roll back to the old build, and a new build
// that dropped nothing is known once the old card is held: the spec then
// does not roll to the new build and back only to find that out. During the same overlap
// the cancel-then-complete race runs, its bound stated as in LIFE-014. The
// run's own build is rolled back afterwards.
var _ = suites.Spec("ROLL-007", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 1)
	cdn, ok := t.Env.Topology.(suites.StaleCard)
	if !ok {
		t.CouldNotRun("driver %q has no CDN of the harness's in front of its instances; the embedded and process drivers have one (run with the rollout suite selected).", driverName(t))
	}
	builds, ok := t.Env.Topology.(suites.BuildRoller)
	if !ok {
		t.CouldNotRun("driver %q cannot roll from one build to the next while the CDN holds the card; the embedded and process (--agent-cmd-next) drivers can.", driverName(t))
	}
	oldBuild, newBuild := builds.Builds()
	if newBuild == "" {
		why := fmt.Sprintf("driver %q", driverName(t))
		if driverName(t) == "process" {
			why = "--agent-cmd-next is not given, or starts the same command as --agent-cmd"
		}
		noNewBuild(t, "the deployment has no new build to roll to (%s), so nothing can have dropped what the held card claims.", why)
	}
	// A roll before this spec may have left the instances on the new build
	// (the process driver's other rollout specs roll to --agent-cmd-next):
	// its card is read now, so that a new build that dropped nothing is
	// known once the old build's card is held, without rolling to the new
	// build and back only to find it out.
	var newCard *a2a.AgentCard
	if builds.NewBuildRunning() {
		if cr, err := fetchCard(ctx, t, inst.BalancerURL(), nil); err == nil && cr.Status == http.StatusOK && cr.Card != nil {
			newCard = cr.Card
		}
	}
	rolled := false
	defer func() {
		cdn.ReleaseCard()
		if !rolled {
			return
		}
		rctx, cancel := context.WithTimeout(context.Background(), restoreTimeout)
		defer cancel()
		began := time.Now()
		gen, back, err := builds.RestoreBuild(rctx)
		switch {
		case err != nil:
			t.Observe("restore", fmt.Sprintf("rolling back to the run's own build failed after %s: %v; the specs after this one may meet the new build", since(began), err))
		case back:
			t.Observe("restore", fmt.Sprintf("generation %d, the run's own build again, in %s", gen, since(began)))
		}
	}()
	began := time.Now()
	rolled = true
	gen, back, err := builds.RollOldBuild(ctx)
	if err != nil {
		t.Indeterminate("the rollout to the old build, %s, failed: %v", oldBuild, err)
	}
	if back {
		t.Changed(reports.Step{Kind: "stage", Point: "previous-build", Generation: gen}, began, time.Now())
		t.Observe("previous-build", fmt.Sprintf("generation %d, %s, rolled to in %s before the hold", gen, oldBuild, since(began)))
	} else {
		t.Observe("previous-build", fmt.Sprintf("generation %d, %s, already running: the hold needed no roll", gen, oldBuild))
	}
	h := http.Header{}
	for k, vs := range t.Env.Headers {
		h[k] = vs
	}
	h.Set("A2A-Version", "1.0")
	heldAt := time.Now()
	etag, window, err := cdn.HoldCard(ctx, h)
	t.Changed(reports.Step{Kind: "stage", Point: "hold-card"}, heldAt, time.Now())
	if err != nil {
		t.CouldNotRunAsSaid("the CDN cannot keep the card (%v): an agent whose card no cache may keep cannot be served stale through a conforming cache.", err)
	}
	t.Observe("cdn.window", fmt.Sprintf("%s (the card's max-age): the CDN serves its copy for at most that long after the origin produced it", window))
	held, err := fetchCard(ctx, t, cdn.CDNURL(), nil)
	if err != nil || held.Card == nil || held.Header.Get("ETag") != etag {
		t.Indeterminate("the CDN did not serve the card it holds (%s)", cardText(held, err))
	}
	stale := *held.Card
	if _, ok := httpInterface(stale, nil); !ok {
		t.CouldNotRun("the held card declares no JSONRPC or HTTP+JSON interface, the bindings the CDN passes through.")
	}
	// A card that drops nothing is not yet a build that drops nothing: a
	// capability both cards claim is tried on the new build (probeDrops),
	// so only a new build that claims none of the held card's capabilities
	// is known to drop nothing from its card alone.
	shared := newCard != nil && (stale.Streaming() && newCard.Streaming() || stale.PushNotifications() && newCard.PushNotifications())
	if newCard != nil && !shared {
		if d := dropsOf(stale, *newCard); len(d.names()) == 0 {
			t.Observe("rollout", fmt.Sprintf("not rolled to %s: its card, as its instances served it before this spec rolled back to %s (version %s), dropped nothing from the held card (version %s)",
				newBuild, oldBuild, newCard.Version, stale.Version))
			noNewBuild(t, "the new build, %s, dropped nothing the held card claims (its card, read while it ran before this spec: streaming %v, push notifications %v, its JSONRPC and HTTP+JSON interfaces and extensions are all on it too), so there is no stale claim to act on, and the spec did not roll to it only to find that out.",
				newBuild, newCard.Streaming(), newCard.PushNotifications())
		}
	}

	began = time.Now()
	gen, err = builds.RollNewBuild(ctx)
	t.Changed(reports.Step{Kind: "stage", Point: "next-build", Generation: gen}, began, time.Now())
	if err != nil {
		t.Indeterminate("the rollout to the new build, %s, failed: %v", newBuild, err)
	}
	live, lerr := fetchCard(ctx, t, inst.BalancerURL(), nil)
	now, nerr := fetchCard(ctx, t, cdn.CDNURL(), nil)
	if lerr != nil || live.Card == nil {
		t.Indeterminate("the new build's card could not be read through the balancer after the rollout (%s)", cardText(live, lerr))
	}
	if nerr != nil || now.Header.Get("ETag") != etag || !bytes.Equal(now.Raw, held.Raw) {
		t.Indeterminate("the CDN no longer served the held card after the rollout (%s; window %s, %s since the hold, the rollout took %s)", cardText(now, nerr), window, since(heldAt), since(began))
	}
	// What the new build dropped is what the held card claims and the live
	// card no longer does: the spec acts on that, whatever the driver.
	d := dropsOf(stale, *live.Card)
	// And what it dropped in behaviour while its card still claims it.
	if iface, ok := httpInterface(stale, live.Card); ok {
		if byBehaviour := probeDrops(ctx, t, t.ClientFor(iface), stale, *live.Card, &d); len(byBehaviour) > 0 {
			t.Observe("dropped-by-behaviour", strings.Join(byBehaviour, ", ")+": refused by the new build, though its own card still claims it")
		}
	}
	streaming, push, goneIfaces, otherIfaces, goneExts := d.streaming, d.push, d.ifaces, d.other, d.exts
	gone := d.names()
	t.Observe("rollout", fmt.Sprintf("generation %d, %s, in %s; dropped from the held card: %s", gen, newBuild, since(began), orNothing(strings.Join(gone, ", "))))
	if len(gone) == 0 {
		noNewBuild(t, "the new build, %s, dropped nothing the held card claims (streaming %v, push notifications %v, its JSONRPC and HTTP+JSON interfaces and extensions are all on the live card too), so there is no stale claim to act on.",
			newBuild, live.Card.Streaming(), live.Card.PushNotifications())
	}
	t.Observe("overlap", fmt.Sprintf("CDN: card %s (ETag %s, Age %ss, streaming %v, push %v, %s, %s); instances: card %s (streaming %v, push %v)",
		stale.Version, etag, now.Header.Get("Age"), stale.Streaming(), stale.PushNotifications(), plural(len(goneIfaces), "interface")+" the live card dropped",
		plural(len(goneExts), "extension")+" the live card dropped", live.Card.Version, live.Card.Streaming(), live.Card.PushNotifications()))
	// The stale card's interface that the live build still declares: the
	// capability claims and the race go through it.
	iface, ok := httpInterface(stale, live.Card)
	if !ok {
		t.Indeterminate("the live card keeps none of the held card's JSONRPC or HTTP+JSON interfaces, so no stale interface URL reaches a live one")
	}
	old := t.ClientFor(iface)

	// The stale capability claims, acted on through the stale card's interface.
	script := slowScript(crossStep)
	switch {
	case !stale.Streaming() && !stale.PushNotifications():
		t.Observe("claims.capabilities", "not applicable: the held card advertises neither streaming nor push notifications, so no build can drop one")
	case !streaming && !push:
		t.Unchecked("the stale card's capability claims", fmt.Sprintf("the new build, %s, still claims what the held card claims of streaming (%v) and push notifications (%v)",
			newBuild, stale.Streaming(), stale.PushNotifications()))
	}
	var task *a2a.Task
	if streaming || push {
		task, _ = start(ctx, t, old, script, nil)
	}
	if streaming {
		s, err := onceMore(func() (*client.Stream, error) {
			msg := t.Scripted(script)
			return old.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
		})
		refusedBy(t, "SendStreamingMessage through the stale card's "+iface.ProtocolBinding+" interface", s, err, a2a.ErrUnsupportedOperation, "UnsupportedOperationError")
		s, err = onceMore(func() (*client.Stream, error) {
			return old.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID})
		})
		refusedBy(t, "SubscribeToTask "+task.ID+" through the stale card's "+iface.ProtocolBinding+" interface", s, err, a2a.ErrUnsupportedOperation, "UnsupportedOperationError")
	}
	if push {
		// A config of the spec's own, with credentials of its own: should
		// the build accept it, every push to it is still checked.
		cfg := &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "https://push.invalid/a2a-conform"}
		var h *suites.PushHook
		if t.Env.Webhook != nil {
			h = t.NewPushHook("Bearer")
			cfg = h.For(task.ID)
		}
		got, err := onceMore(func() (*a2a.TaskPushNotificationConfig, error) { return old.CreateTaskPushNotificationConfig(ctx, cfg) })
		where := "CreateTaskPushNotificationConfig for task " + task.ID + " through the stale card's " + iface.ProtocolBinding + " interface"
		if h != nil && err == nil {
			h.Accepted(task.ID, got)
			defer func() {
				t.Record(t.PushBodies(h, task.ID, task.ContextID, "push config accepted by the build without push notifications")...)
			}()
		}
		switch {
		case isTransport(err):
			t.Unchecked(where, "no answer, twice: "+suites.ErrText(err))
		case suites.RefusesWebhookURL(err) && !isKind(err, a2a.ErrPushNotificationNotSupported):
			// One rule for a refused receiver URL: the agent judged the URL
			// before the capability, so the claim went untested.
			t.Unchecked(where, t.WebhookURLRefused(cfg.URL, "CreateTaskPushNotificationConfig", err))
		case err == nil:
			t.Record(invariants.Violation{Invariant: "stale-card-claim-refused", Where: where,
				Expected: "PushNotificationNotSupportedError: the live build no longer advertises pushNotifications (§3.3.4)",
				Actual:   "accepted (config " + got.ID + "): a config the live card says it cannot deliver"})
		case !isKind(err, a2a.ErrPushNotificationNotSupported):
			t.Record(invariants.Violation{Invariant: "stale-card-claim-refused", Where: where,
				Expected: "PushNotificationNotSupportedError (§3.3.4)", Actual: suites.ErrText(err)})
		}
	}

	// The stale interface claims: SendMessage on each interface the live
	// card dropped, at the URL the stale card gives it.
	if len(otherIfaces) > 0 {
		t.Observe("claims.interfaces.not-acted-on", strings.Join(otherIfaces, "; ")+": the harness's CDN fronts only JSONRPC and HTTP+JSON")
	}
	if len(goneIfaces) == 0 {
		t.Unchecked("the stale card's interface claims", "the held card lists no JSONRPC or HTTP+JSON interface that the live card dropped (the builds the driver rolled between do not differ in interfaces)")
	}
	for i, gone := range goneIfaces[:min(len(goneIfaces), maxStaleClaims)] {
		seen, v := actOnDroppedInterface(ctx, t, gone, script)
		t.Observe(fmt.Sprintf("claims.interface.%d", i+1), gone.ProtocolBinding+" "+gone.URL+": "+seen)
		if v != nil {
			t.Record(*v)
		}
	}

	// The stale extension claims: SendMessage through the surviving
	// interface, naming each extension the live card dropped.
	if len(goneExts) == 0 {
		t.Unchecked("the stale card's extension claims", "the held card lists no extension that the live card dropped (the builds the driver rolled between do not differ in extensions)")
	}
	for i, x := range goneExts[:min(len(goneExts), maxStaleClaims)] {
		seen, v := actOnDroppedExtension(ctx, t, iface, x, script)
		t.Observe(fmt.Sprintf("claims.extension.%d", i+1), suites.Cut(x.URI, 200)+fmt.Sprintf(" (required on the held card: %v): ", x.Required)+seen)
		if v != nil {
			// No MUST forbids it: the echo that names an extension is the
			// extensions topic doc's SHOULD, so a false one warns.
			t.Should(*v)
		}
	}

	// The race, during the same overlap: each task created through the
	// stale card's interface, its cancel through one instance after another;
	// a second round, as ROLL-006's, when the first went one way too often
	// (a loaded machine or a slow agent stretches the tasks past the
	// offsets).
	var slots []int
	for k, name := range inst.InstanceNames() {
		if name != "" {
			slots = append(slots, k)
		}
	}
	clients := []*client.Client{old}
	for _, k := range slots {
		clients = append(clients, via(t, inst, k))
	}
	expected := t.Expected(ctx, old, script)
	trials := min(staleTrials, max(t.Env.Options.RaceTrials, 1))
	need := 3
	results, rounds := seededRace(ctx, t, clients, trials, need, func(i int) (int, int) { return 0, 1 + i%(len(clients)-1) }, script, expected)
	tally := invariants.TallyRace(results)
	t.Record(tally.Violations...)
	canceled, completed, unknown := tally.Canceled, tally.CompletedFirst, tally.Unknown
	vs := tally.Violating
	end, eerr := fetchCard(ctx, t, cdn.CDNURL(), nil)
	t.Observe("race", fmt.Sprintf("%d trials during the overlap: %d canceled, %d completed first, %d unknown; %s; the CDN still served the old card at the end: %v",
		len(results), canceled, completed, unknown, strings.Join(rounds, "; then "), eerr == nil && end.Header.Get("ETag") == etag))
	t.Observe("race.bound", invariants.RaceBound(canceled+completed, vs))
	if canceled < need || completed < need {
		t.Unchecked("the cancel race during the overlap", fmt.Sprintf("it did not go both ways often enough (%d canceled, %d completed first, %d needed on each side)", canceled, completed, need))
	}
})

// drops is what a new build's card no longer claims of the held card's.
type drops struct {
	streaming, push bool
	ifaces          []a2a.AgentInterface
	// other names the dropped interfaces the harness's CDN does not front.
	other []string
	exts  []a2a.AgentExtension
}

func dropsOf(stale, live a2a.AgentCard) drops {
	d := drops{streaming: stale.Streaming() && !live.Streaming(), push: stale.PushNotifications() && !live.PushNotifications()}
	d.ifaces, d.other = droppedInterfaces(stale, live)
	d.exts = droppedExtensions(stale, live)
	return d
}

// names says what was dropped that the spec can act on; none when the new
// build dropped nothing of it.
func (d drops) names() []string {
	var gone []string
	if d.streaming || d.push {
		gone = append(gone, dropped(d.streaming, d.push))
	}
	if len(d.ifaces) > 0 {
		gone = append(gone, plural(len(d.ifaces), "JSONRPC or HTTP+JSON interface"))
	}
	if len(d.exts) > 0 {
		gone = append(gone, plural(len(d.exts), "extension"))
	}
	return gone
}

// refusedBy records a violation unless the operation was refused with kind;
// no answer at all (after onceMore) leaves the claim unchecked.
func refusedBy(t *suites.T, where string, s *client.Stream, err error, kind a2a.ErrorKind, name string) {
	if err == nil {
		s.Close()
		t.Record(invariants.Violation{Invariant: "stale-card-claim-refused", Where: where,
			Expected: name + ": the live build no longer advertises streaming (§3.3.4)", Actual: "a stream opened"})
		return
	}
	switch {
	case isTransport(err):
		t.Unchecked(where, "no answer, twice: "+suites.ErrText(err))
	case !isKind(err, kind):
		t.Record(invariants.Violation{Invariant: "stale-card-claim-refused", Where: where,
			Expected: name + " (§3.3.4)", Actual: suites.ErrText(err)})
	}
}

// onceMore repeats a call whose first try got no answer at all: a
// connection lost on the way says nothing about the agent, and the claims
// are judged on an answer. (It was added while the balancer still cut
// streams, a harness defect since fixed in readWholeBody; it stays for
// agents behind real networks. Every call it repeats is a refusal probe
// whose second task, if one were created, is judged the same way.)
func onceMore[V any](call func() (V, error)) (V, error) {
	v, err := call()
	if isTransport(err) {
		v, err = call()
	}
	return v, err
}

// isTransport reports an error that carries no answer of the agent's.
func isTransport(err error) bool {
	ce, ok := client.AsError(err)
	return ok && ce.Class == client.Transport
}

// httpInterface is the card's first JSONRPC or HTTP+JSON interface the
// harness speaks (the stale card's gRPC interface names an instance's own
// listener, which the CDN does not front); with live, the first that live
// still declares (same binding and path: the two cards name different
// origins, the CDN and the balancer).
func httpInterface(card a2a.AgentCard, live *a2a.AgentCard) (a2a.AgentInterface, bool) {
	var keep map[string]bool
	if live != nil {
		keep = interfaceKeys(*live)
	}
	for _, i := range card.SupportedInterfaces {
		if (i.ProtocolBinding == "JSONRPC" || i.ProtocolBinding == "HTTP+JSON") && suites.Supported(i.ProtocolBinding) &&
			(keep == nil || keep[interfaceKey(i)]) {
			return i, true
		}
	}
	return a2a.AgentInterface{}, false
}

// interfaceKey names an interface independently of the origin it is
// published under: binding, URL path and tenant.
func interfaceKey(i a2a.AgentInterface) string {
	path := i.URL
	if u, err := url.Parse(i.URL); err == nil {
		path = strings.TrimSuffix(u.EscapedPath(), "/")
	}
	return i.ProtocolBinding + " " + path + " " + i.Tenant
}

func interfaceKeys(card a2a.AgentCard) map[string]bool {
	out := map[string]bool{}
	for _, i := range card.SupportedInterfaces {
		out[interfaceKey(i)] = true
	}
	return out
}

// droppedInterfaces lists the stale card's JSONRPC and HTTP+JSON interfaces
// that the live card no longer declares, and names the others it dropped
// (gRPC, custom bindings), which the harness's CDN does not front.
func droppedInterfaces(stale, live a2a.AgentCard) (gone []a2a.AgentInterface, other []string) {
	keep := interfaceKeys(live)
	for _, i := range stale.SupportedInterfaces {
		if keep[interfaceKey(i)] {
			continue
		}
		if (i.ProtocolBinding == "JSONRPC" || i.ProtocolBinding == "HTTP+JSON") && suites.Supported(i.ProtocolBinding) {
			gone = append(gone, i)
		} else if i.ProtocolBinding != a2a.BindingGRPC {
			// A gRPC interface names an instance's own listener, which a
			// rollout replaces: its URL always differs, dropped or not.
			other = append(other, suites.Cut(i.ProtocolBinding+" "+i.URL, 200))
		}
	}
	return gone, other
}

// droppedExtensions lists the stale card's extensions the live card no
// longer declares.
func droppedExtensions(stale, live a2a.AgentCard) []a2a.AgentExtension {
	var out []a2a.AgentExtension
	for _, x := range stale.Capabilities.Extensions {
		if x.URI != "" && !live.HasExtension(x.URI) {
			out = append(out, x)
		}
	}
	return out
}

func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

func dropped(streaming, push bool) string {
	var out []string
	if streaming {
		out = append(out, "streaming")
	}
	if push {
		out = append(out, "push notifications")
	}
	return strings.Join(out, " and ")
}

func cardText(r *client.CardResponse, err error) string {
	switch {
	case err != nil:
		return suites.ErrText(err)
	case r.Card == nil:
		return fmt.Sprintf("HTTP %d, no card", r.Status)
	default:
		return fmt.Sprintf("HTTP %d, card %s, ETag %s, Age %q", r.Status, r.Card.Version, r.Header.Get("ETag"), r.Header.Get("Age"))
	}
}

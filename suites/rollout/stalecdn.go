package rollout

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// staleTrials bounds ROLL-007's seeded cancel race: it must fit, with the
// rollout and the refusals, inside the card's max-age (30 s on the
// reference agent), while the CDN still serves the old card.
const staleTrials = 16

// ROLL-007 (§3.3.4, §8.6, a2a-v1.md §11 "Stale CDN-served cards", scenario
// 3): the harness's CDN keeps serving the previous generation's card while
// the instances roll to a generation that dropped streaming and push. The
// harness acts on the stale card's claims through the stale card's own
// interface URL (the CDN, then the balancer, then the new build): each must
// be refused with the error §3.3.4 names, never accepted. During the same
// overlap the cancel-then-complete race runs, its bound stated as in
// LIFE-014. The run's capabilities are rolled back afterwards.
var _ = suites.Spec("ROLL-007", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 1)
	cdn, ok := t.Env.Topology.(suites.StaleCard)
	if !ok {
		t.CouldNotRun("driver %q has no CDN of the harness's in front of its instances; the embedded driver has one (run without --target, with the rollout suite selected).", driverName(t))
	}
	roll, ok := t.Env.Topology.(suites.CapabilityRoller)
	if !ok {
		t.CouldNotRun("driver %q cannot roll to a build that drops a capability; the embedded driver can.", driverName(t))
	}
	h := http.Header{}
	for k, vs := range t.Env.Headers {
		h[k] = vs
	}
	h.Set("A2A-Version", "1.0")
	etag, window, err := cdn.HoldCard(ctx, h)
	if err != nil {
		t.CouldNotRun("the CDN cannot keep the card (%v): an agent whose card no cache may keep cannot be served stale through a conforming cache.", err)
	}
	defer cdn.ReleaseCard()
	t.Observe("cdn.window", fmt.Sprintf("%s (the card's max-age): the CDN serves its copy for at most that long after the origin produced it", window))
	held, err := fetchCard(ctx, t, cdn.CDNURL(), nil)
	if err != nil || held.Card == nil || held.Header.Get("ETag") != etag {
		t.Indeterminate("the CDN did not serve the card it holds (%s)", cardText(held, err))
	}
	stale := *held.Card
	streaming, push := stale.Streaming(), stale.PushNotifications()
	if !streaming && !push {
		t.NotApplicable("the card advertises neither streaming nor push notifications, so no build can drop one (DISC-013 and DISC-014 judge the refusals)")
	}
	iface, ok := httpInterface(stale)
	if !ok {
		t.CouldNotRun("the held card declares no JSONRPC or HTTP+JSON interface, the bindings the CDN passes through.")
	}
	old := t.ClientFor(iface)

	began := time.Now()
	gen, err := roll.RollWithout(ctx, streaming, push, nil)
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cdn.ReleaseCard()
		roll.RollWithout(rctx, false, false, nil)
	}()
	if err != nil {
		t.Indeterminate("the rollout to a build without %s failed: %v", dropped(streaming, push), err)
	}
	t.Observe("rollout", fmt.Sprintf("generation %d without %s, in %s", gen, dropped(streaming, push), since(began)))
	live, lerr := fetchCard(ctx, t, inst.BalancerURL(), nil)
	now, nerr := fetchCard(ctx, t, cdn.CDNURL(), nil)
	if lerr != nil || live.Card == nil || (streaming && live.Card.Streaming()) || (push && live.Card.PushNotifications()) {
		t.Indeterminate("the instances did not drop %s in the rollout (%s)", dropped(streaming, push), cardText(live, lerr))
	}
	if nerr != nil || now.Header.Get("ETag") != etag {
		t.Indeterminate("the CDN no longer served the held card after the rollout (%s; window %s, %s since the hold)", cardText(now, nerr), window, since(began))
	}
	t.Observe("overlap", fmt.Sprintf("CDN: card %s (ETag %s, Age %ss, streaming %v, push %v); instances: card %s (streaming %v, push %v)",
		stale.Version, etag, now.Header.Get("Age"), streaming, push, live.Card.Version, live.Card.Streaming(), live.Card.PushNotifications()))

	// The stale claims, acted on through the stale card's interface.
	script := slowScript(crossStep)
	task, _ := start(ctx, t, old, script, nil)
	if streaming {
		msg := t.Scripted(script)
		s, err := old.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
		refusedBy(t, "SendStreamingMessage through the stale card's "+iface.ProtocolBinding+" interface", s, err, a2a.ErrUnsupportedOperation, "UnsupportedOperationError")
		s, err = old.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID})
		refusedBy(t, "SubscribeToTask "+task.ID+" through the stale card's "+iface.ProtocolBinding+" interface", s, err, a2a.ErrUnsupportedOperation, "UnsupportedOperationError")
	}
	if push {
		cfg := &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "https://push.invalid/a2a-conform"}
		if t.Env.Webhook != nil {
			cfg.URL = t.Env.Webhook.URL(t.WebhookToken())
		}
		got, err := old.CreateTaskPushNotificationConfig(ctx, cfg)
		where := "CreateTaskPushNotificationConfig for task " + task.ID + " through the stale card's " + iface.ProtocolBinding + " interface"
		switch {
		case err == nil:
			t.Record(invariants.Violation{Invariant: "stale-card-claim-refused", Where: where,
				Expected: "PushNotificationNotSupportedError: the live build no longer advertises pushNotifications (§3.3.4)",
				Actual:   "accepted (config " + got.ID + "): a config the live card says it cannot deliver"})
		case !isKind(err, a2a.ErrPushNotificationNotSupported):
			t.Record(invariants.Violation{Invariant: "stale-card-claim-refused", Where: where,
				Expected: "PushNotificationNotSupportedError (§3.3.4)", Actual: suites.ErrText(err)})
		}
	}

	// The race, during the same overlap: each task created through the
	// stale card's interface, its cancel through one instance after another.
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
	rng := rand.New(rand.NewSource(t.Env.Options.Seed))
	results := make([]invariants.TrialResult, trials)
	sem := make(chan struct{}, crossParallel)
	var wg sync.WaitGroup
	for i := range results {
		offset := time.Duration(rng.Int63n(int64(2*expected) + 1))
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = crossTrial(ctx, t, clients, 0, 1+i%(len(clients)-1), offset, script, expected)
		}()
	}
	wg.Wait()
	tally := invariants.TallyRace(results)
	t.Record(tally.Violations...)
	canceled, completed, unknown := tally.Canceled, tally.CompletedFirst, tally.Unknown
	vs := tally.Violating
	end, eerr := fetchCard(ctx, t, cdn.CDNURL(), nil)
	t.Observe("race", fmt.Sprintf("%d trials during the overlap: %d canceled, %d completed first, %d unknown; offsets 0..%s after creation (task takes about %s); the CDN still served the old card at the end: %v",
		trials, canceled, completed, unknown, (2*expected).Round(time.Millisecond), expected.Round(time.Millisecond), eerr == nil && end.Header.Get("ETag") == etag))
	t.Observe("race.bound", invariants.RaceBound(canceled+completed, vs))
	if need := 3; canceled < need || completed < need {
		t.Unchecked("the cancel race during the overlap", fmt.Sprintf("it did not go both ways often enough (%d canceled, %d completed first, %d needed on each side)", canceled, completed, need))
	}
})

// refusedBy records a violation unless the operation was refused with kind.
func refusedBy(t *suites.T, where string, s *client.Stream, err error, kind a2a.ErrorKind, name string) {
	if err == nil {
		s.Close()
		t.Record(invariants.Violation{Invariant: "stale-card-claim-refused", Where: where,
			Expected: name + ": the live build no longer advertises streaming (§3.3.4)", Actual: "a stream opened"})
		return
	}
	if !isKind(err, kind) {
		t.Record(invariants.Violation{Invariant: "stale-card-claim-refused", Where: where,
			Expected: name + " (§3.3.4)", Actual: suites.ErrText(err)})
	}
}

// httpInterface is the card's first JSONRPC or HTTP+JSON interface the
// harness speaks: the stale card's gRPC interface names an instance's own
// listener, which the CDN does not front.
func httpInterface(card a2a.AgentCard) (a2a.AgentInterface, bool) {
	for _, i := range card.SupportedInterfaces {
		if (i.ProtocolBinding == "JSONRPC" || i.ProtocolBinding == "HTTP+JSON") && suites.Supported(i.ProtocolBinding) {
			return i, true
		}
	}
	return a2a.AgentInterface{}, false
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

package rollout

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// The capabilities a rotation spec (ROLL-001, ROLL-002, ROLL-008) asks of
// the deployment, whatever the driver (DESIGN.md "Topology": a spec asks for
// the capabilities it needs and judges once). Two questions:
//
//   - What can it read through? Its views: one exact view per live instance
//     when the driver gives the harness instances it can pin a request to
//     (suites.Instances: embedded, process), else one inexact view, the
//     target, read several times at each moment (hookSamples) because each
//     read may reach another instance behind the vendor's balancer (hooks).
//   - What change can it make, and how does it know the change happened?
//     The harness's own rolling replacement (suites.Roller), which replaced
//     every instance when it returns and whose length the harness bounds;
//     or the vendor's command for a hook point (suites.HookRunner), in the
//     order of points the spec prefers, whose length is unknown and whose
//     exit status vouches for nothing, so that the change must show from
//     outside (changeEvidence).
//
// A spec judges with one set of rules over its views; the parts of its title
// that need single instances are unchecked on an inexact view, saying why.

// view is one way the spec reads the deployment: an exact view reaches one
// instance on every read (pinned through the harness's balancer); the
// inexact view is the target, where each read may reach another instance.
type view struct {
	// name says what the view reads, for the report: "instance 0
	// (agent-0)", "the target"; through says how a read got there: "on
	// instance 0 (agent-0)", "through the target".
	name    string
	through string
	exact   bool
	// reads is how many reads give the view's state at one moment: one for
	// an exact view, hookSamples for the target.
	reads int
	base  string
	// pin is the request header that keeps a card read on the view's
	// instance (nil for the target).
	pin map[string]string
	c   *client.Client
}

// views returns the spec's views of the deployment: one per live instance
// when the driver offers instances (ending could-not-run when none is
// running), else the target.
func views(t *suites.T) []view {
	inst, ok := t.Env.Topology.(suites.Instances)
	if !ok {
		return []view{{name: "the target", through: "through the target", reads: hookSamples, base: t.Env.BaseURL, c: t.Client()}}
	}
	var out []view
	for k, name := range inst.InstanceNames() {
		if name == "" {
			continue
		}
		vname := fmt.Sprintf("instance %d (%s)", k, name)
		out = append(out, view{name: vname, through: "on " + vname, exact: true, reads: 1,
			base: inst.BalancerURL(), pin: pinned(k), c: via(t, inst, k)})
	}
	if len(out) == 0 {
		t.CouldNotRun("the spec needs at least one instance behind the harness's load balancer and driver %q runs none.", driverName(t))
	}
	return out
}

// front is the client for the deployment as its clients reach it: the
// harness's balancer, which spreads calls over the instances, or the target.
func front(t *suites.T) *client.Client {
	if inst, ok := t.Env.Topology.(suites.Instances); ok {
		return via(t, inst, -1)
	}
	return t.Client()
}

// inexact says why an inexact view cannot judge what needs single
// instances, for the reasons of the parts it leaves unchecked.
func inexact(t *suites.T) string {
	return fmt.Sprintf("driver %q cannot address single instances: through the target a deployment that is changing rightly answers from old and new instances alike, and which one answered a read cannot be told (the embedded and process drivers read each instance)", driverName(t))
}

func pinned(k int) map[string]string { return map[string]string{suites.PinHeader: strconv.Itoa(k)} }

// tryCard reads the card through v once, with extra request headers.
func (v view) tryCard(ctx context.Context, t *suites.T, extra map[string]string) (*client.CardResponse, error) {
	h := map[string]string{}
	for a, b := range v.pin {
		h[a] = b
	}
	for a, b := range extra {
		h[a] = b
	}
	return fetchCard(ctx, t, v.base, h)
}

// card reads the card through v, ending the spec indeterminate when it does
// not come back 200 (or 304, with allow304): the generations could not be
// compared. when says at which moment of the spec.
func (v view) card(ctx context.Context, t *suites.T, extra map[string]string, allow304 bool, when string) *client.CardResponse {
	cr, err := v.tryCard(ctx, t, extra)
	if err != nil {
		t.Indeterminate("the card could not be fetched through %s %s: %s", v.name, when, suites.ErrText(err))
	}
	if cr.Status != http.StatusOK && !(allow304 && cr.Status == http.StatusNotModified) {
		t.Indeterminate("the card answered HTTP %d through %s %s, so its generations cannot be compared (DISC-001 judges the card itself)", cr.Status, v.name, when)
	}
	return cr
}

// cards reads the card through v n times (card).
func (v view) cards(ctx context.Context, t *suites.T, n int, when string) []*client.CardResponse {
	out := make([]*client.CardResponse, 0, n)
	for range n {
		out = append(out, v.card(ctx, t, nil, false, when))
	}
	return out
}

// readName names read i (1-based) of the view at one moment.
func (v view) readName(i int) string {
	if v.reads == 1 {
		return v.through
	}
	return fmt.Sprintf("%s (read %d of %d)", v.through, i, v.reads)
}

// change is the change a spec makes to the deployment: the harness's own
// rolling replacement by the next generation, or the vendor's command for
// one hook point.
type change struct {
	roller suites.Roller
	hooks  suites.HookRunner
	point  string
	// points are the hook points the spec takes, in its order (recorded
	// with the change, so that a replay may run any of them).
	points []string
}

// changeFor returns the change the driver offers: its rolling replacement,
// else its command for the first of points (the spec's order of
// preference). Without either the spec ends could-not-run, naming what
// would enable it.
func changeFor(t *suites.T, points ...string) change {
	if r, ok := t.Env.Topology.(suites.Roller); ok {
		return change{roller: r, points: points}
	}
	if hk, point, ok := hooksFor(t, points...); ok {
		return change{hooks: hk, point: point, points: points}
	}
	if _, ok := t.Env.Topology.(suites.Instances); ok {
		t.CouldNotRun("driver %q cannot replace instances by the next generation; the embedded driver can, and the process driver can with --agent-cmd-next.", driverName(t))
	}
	t.CouldNotRun("driver %q gives the harness no instances of its own behind its load balancer to roll, and runs no command of yours that changes the deployment; the embedded and process drivers roll their instances, and the hooks driver runs your commands.", driverName(t))
	return change{}
}

func (c change) String() string {
	if c.hooks != nil {
		return "the " + c.point + " hook"
	}
	return "the harness's rolling replacement"
}

// what names the change as something a task or a card crosses: "the roll
// to the next generation", "a card rotation", "a restart-instance".
func (c change) what() string {
	switch {
	case c.hooks == nil:
		return "the roll to the next generation"
	case c.point == suites.HookRotateCard:
		return "a card rotation"
	}
	return "a " + c.point
}

// bounded says whether the harness bounds how long the change takes: its
// own roll of instances it starts does (within the spec's patience); a
// vendor's hook may take minutes (a staging rollout), bounded only by the
// hook timeout.
func (c change) bounded() bool { return c.hooks == nil }

// rotates says whether the change is meant to change the card, so that one
// whose card stayed the same was not seen to happen at all (rotate-card):
// a restart or a rollout may keep the card.
func (c change) rotates() bool { return c.hooks != nil && c.point == suites.HookRotateCard }

// pace is the pause between the reads a spec makes while the change runs,
// elapsed after it began: the harness's roll takes a few hundred
// milliseconds to seconds, a hook may take minutes, and every read is
// recorded.
func (c change) pace(elapsed time.Duration) time.Duration {
	switch {
	case c.bounded():
		return suites.Poll
	case elapsed > hookPollSlow:
		return hookPollLate
	}
	return hookPoll
}

// run makes the change and returns the generation the deployment is at
// afterwards (recorded as the observation generation); taskIDs and the
// instance that serves them are told to a hook. A change that did not
// complete ends the spec (failed).
func (c change) run(ctx context.Context, t *suites.T, taskIDs []string, instance string) int {
	return c.finish(t, c.begin(ctx, t, taskIDs, instance))
}

// pending is a change under way (begin).
type pending struct {
	done    chan struct{}
	gen     int
	account string
	err     error
	began   time.Time
	at      time.Time
	taskIDs []string
}

// begin starts the change and returns at once.
func (c change) begin(ctx context.Context, t *suites.T, taskIDs []string, instance string) *pending {
	p := &pending{done: make(chan struct{}), began: time.Now(), taskIDs: taskIDs}
	go func() {
		defer close(p.done)
		if c.hooks != nil {
			p.gen, p.account, p.err = c.hooks.RunHook(ctx, c.point, t.Info.ID, taskIDs, instance)
		} else {
			p.gen, p.err = c.roller.Roll(ctx, nil)
		}
		p.at = time.Now()
	}()
	return p
}

// step is the change as a replay bundle performs it (reports.Step).
func (c change) step(p *pending) reports.Step {
	s := reports.Step{Kind: "roll", Point: suites.HookRolloutStep, Accepts: c.points, TaskIDs: p.taskIDs, Generation: p.gen}
	if c.hooks != nil {
		s.Kind, s.Point = "hook", c.point
	}
	if p.err != nil {
		s.Error = p.err.Error()
	}
	return s
}

// over says whether the change has returned.
func (p *pending) over() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// finish waits for the change, records how it went, and ends the spec when
// it failed: a roll that failed leaves the outcome unknown (indeterminate);
// a hook that failed leaves the deployment in a state nobody knows, and
// nothing about the agent follows from it (could-not-run).
func (c change) finish(t *suites.T, p *pending) int {
	<-p.done
	if p.account != "" {
		t.Observe("hook."+c.point, p.account)
	}
	t.Changed(c.step(p), p.began, p.at)
	switch {
	case p.err != nil && c.hooks != nil:
		t.CouldNotRun("the %s hook did not complete, so the deployment's state after it is unknown and nothing was judged on it: %v.", c.point, p.err)
	case p.err != nil:
		t.Indeterminate("the rolling replacement failed: %v", p.err)
	}
	t.Observe("generation", strconv.Itoa(p.gen))
	return p.gen
}

// witness is what the spec saw of the deployment before a change, to tell
// afterwards whether the change showed: the card and the instances that
// named themselves in the spec's exchanges.
type witness struct {
	c          change
	cardBefore *client.CardResponse
	cardAfter  *client.CardResponse
	names      []string
	mark       int
}

// watch notes what a change must be seen to alter. The harness's own roll
// is known to have replaced every instance, and needs no witness.
func (c change) watch(ctx context.Context, t *suites.T) *witness {
	w := &witness{c: c}
	if c.bounded() {
		return w
	}
	w.cardBefore, _ = fetchCard(ctx, t, t.Env.BaseURL, nil)
	w.names, w.mark = instancesSeen(t, 0)
	return w
}

// after reads the card again, right after the change.
func (w *witness) after(ctx context.Context, t *suites.T) {
	if w.c.bounded() {
		return
	}
	w.cardAfter, _ = fetchCard(ctx, t, t.Env.BaseURL, nil)
	if w.cardBefore != nil && w.cardAfter != nil {
		same := "the same card: a hook's exit status vouches for nothing, so the change must show otherwise (change-seen, or the part left unchecked)"
		if !bytes.Equal(w.cardBefore.Raw, w.cardAfter.Raw) {
			same = "the card changed"
		}
		t.Observe("card", fmt.Sprintf("through the target, version %s before %s and %s after: %s", version(w.cardBefore), w.c, version(w.cardAfter), same))
	}
}

// shown judges whether the change was seen to happen, once the spec has
// read what it reads (lost: reads that answered TaskNotFoundError, itself a
// sign): it observes change-seen with the evidence, or marks part (what
// needs the change) unchecked, saying what was missing. gen is the
// generation the change reported.
func (w *witness) shown(t *suites.T, part string, gen, lost int) {
	if w.c.bounded() {
		t.Observe("change-seen", fmt.Sprintf("the harness replaced every instance by generation %d", gen))
		return
	}
	if w.c.rotates() {
		switch {
		case w.cardBefore == nil || w.cardAfter == nil:
			when := "after"
			if w.cardBefore == nil {
				when = "before"
			}
			t.Unchecked(part, fmt.Sprintf("the card could not be read through the target %s %s, so whether the card rotated was not seen", when, w.c))
		case bytes.Equal(w.cardBefore.Raw, w.cardAfter.Raw):
			// A rotation that leaves the card byte for byte the same gave
			// the spec nothing to cross.
			t.Unchecked(part, fmt.Sprintf(
				"%s exited 0 but the card read through the target is the same before and after it (version %s), so no rotation was seen to happen; a hook that changes the card (its version, say) exercises it",
				w.c, version(w.cardAfter)))
		default:
			t.Observe("change-seen", fmt.Sprintf("the card changed (version %s → %s)", version(w.cardBefore), version(w.cardAfter)))
		}
		return
	}
	namesAfter, _ := instancesSeen(t, w.mark)
	ev := changeEvidence(w.cardBefore, w.cardAfter, w.names, namesAfter, lost)
	if len(ev) == 0 {
		t.Unchecked(part, fmt.Sprintf(
			"%s exited 0, but nothing seen through the target changed: the card (body and ETag) is the same, the instances that answered after it (%s) are among those before it (%s), and the task is still there; without evidence that the deployment changed, there was nothing to cross. Let the agent name its process in the A2A-Conform-Instance response header (a pod name, or a name with its start time) so that a restart shows, or give a hook that changes the card",
			w.c, orNoneSeen(namesAfter), orNoneSeen(w.names)))
		return
	}
	t.Observe("change-seen", strings.Join(ev, "; "))
}

// answered reads the task through v, reading again while the answer is not
// the agent's (a transport error, or an HTTP error without an A2A body, such
// as a gateway's 502 while the deployment settles), within the spec's
// patience; the spec is indeterminate when none came.
func answered(ctx context.Context, t *suites.T, v view, id, after string) (*a2a.Task, error) {
	deadline := time.Now().Add(t.Patience())
	for {
		got, err := t.Get(ctx, v.c, id)
		ce, ok := client.AsError(err)
		if err == nil || !ok || (ce.Class != client.Transport && ce.Class != client.HTTP) {
			return got, err
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Indeterminate("GetTask %s through %s got no answer from the agent within %s after %s: %s", id, v.name, t.Patience(), after, suites.ErrText(err))
		}
		select {
		case <-ctx.Done():
		case <-time.After(suites.Poll * 5):
		}
	}
}

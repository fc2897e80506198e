package rollout

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// The rotation specs (scenario 1) ask the deployment for a change and for
// views to read it through (deployment.go), and judge once, whatever the
// driver: the harness's roll read on each instance (embedded, process) and
// the vendor's hook read through the target (hooks) go through the same
// rules, and what an inexact view cannot show is unchecked, saying why.

func version(cr *client.CardResponse) string {
	if cr == nil || cr.Card == nil {
		return "?"
	}
	return cr.Card.Version
}

// ROLL-001 (§8.6.1, scenario 1): the card's ETag is its generation. After
// the deployment changes (the harness's rolling replacement by the next
// generation; under the hooks driver the rotate-card command, else
// rollout-step), in each view (each instance, or the target), the ETag
// changed if the card's bytes changed (and stayed if they did not), and a
// conditional GET with the ETag held from before gets 200 and the new card,
// never 304.
//
// A card after the change that differs from one before under the same ETag
// is a violation whichever instances served them (a strong validator names
// one representation). Revalidating is judged only where every read after
// the change, and one after the conditional GET, show the one new card:
// while the target still answers with both, a 304 may come from an instance
// that still serves the old one, which is correct for it (unchecked).
var _ = suites.Spec("ROLL-001", func(ctx context.Context, t *suites.T) {
	ch := changeFor(t, suites.HookRotateCard, suites.HookRolloutStep)
	vs := views(t)
	before := make([][]*client.CardResponse, len(vs))
	for i, v := range vs {
		before[i] = distinctCards(v.cards(ctx, t, v.reads, "before "+ch.String()))
	}
	gen := ch.run(ctx, t, nil, "")
	const revalidates = "revalidating with the old ETag gets the new card"
	changedAny, etags := false, false
	var obs []string
	for i, v := range vs {
		// One read more than before: a card read twice shows whether its
		// ETag is stable.
		reads := v.cards(ctx, t, v.reads+1, "after "+ch.String())
		after := distinctCards(reads)
		obs = append(obs, fmt.Sprintf("%s: before %s; after %s", v.name, describeCards(before[i]), describeCards(after)))
		where := fmt.Sprintf("card %s after %s (generation %d)", v.through, ch, gen)
		changed := false
		for _, now := range after {
			changed = changed || !hasBody(before[i], now.Raw)
			newTag := now.Header.Get("ETag")
			for _, old := range before[i] {
				oldTag := old.Header.Get("ETag")
				if oldTag == "" || newTag == "" {
					continue
				}
				etags = true
				same := bytes.Equal(old.Raw, now.Raw)
				if !same && newTag == oldTag {
					t.Record(invariants.Violation{Invariant: "etag-tracks-card", Where: where,
						Expected: "a new ETag: the card changed (version " + version(old) + " → " + version(now) + ")",
						Actual:   "the same ETag " + newTag})
				}
				if same && newTag != oldTag {
					t.Should(invariants.Violation{Invariant: "etag-stable", Where: where,
						Expected: "the ETag " + oldTag + " kept: the card's bytes did not change", Actual: newTag})
				}
			}
		}
		changedAny = changedAny || changed
		if a, b, ok := unstableTag(reads); ok {
			t.Should(invariants.Violation{Invariant: "etag-stable", Where: where + ", fetched twice",
				Expected: "the same ETag for the same card", Actual: a + " then " + b})
		}
		switch {
		case changed && len(after) == 1:
			now := after[0]
			for _, old := range before[i] {
				oldTag := old.Header.Get("ETag")
				if oldTag == "" {
					continue
				}
				at := where + ", If-None-Match: " + oldTag
				cond := v.card(ctx, t, map[string]string{"If-None-Match": oldTag}, true, "with the ETag held from before "+ch.String())
				// The view must still serve the new card alone, or the
				// answer may have come from an instance that never left the
				// old one.
				if again := v.card(ctx, t, nil, false, "after the conditional GET"); !bytes.Equal(again.Raw, now.Raw) {
					t.Unchecked(revalidates, fmt.Sprintf("%s served another card again after %s (version %s), so which generation answered the conditional GET cannot be told", v.name, ch, version(again)))
					continue
				}
				switch {
				case cond.Status == http.StatusNotModified:
					t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card", Where: at,
						Expected: "200 with the new card (version " + version(now) + "), which every read " + v.through + " now serves: the held ETag is from before " + ch.String(),
						Actual:   "304 Not Modified: a revalidating client keeps the card of version " + version(old)})
				case bytes.Equal(cond.Raw, now.Raw) || version(cond) == version(now):
				case v.exact && cond.Status == http.StatusOK && cond.Card != nil:
					// Every read without validators got now; the
					// revalidation got a card after it.
					t.Record(freshReadViolation(where, oldTag, cond, now, ch.String()))
				case v.exact:
					t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card", Where: at,
						Expected: "200 with the new card (version " + version(now) + ")", Actual: fmt.Sprintf("HTTP %d with version %s", cond.Status, version(cond))})
				default:
					t.Unchecked(revalidates, fmt.Sprintf("the conditional GET %s got version %s while every other read after %s got %s: another instance answered it, and %s", v.through, version(cond), ch, version(now), inexact(t)))
				}
			}
		case !changed && len(after) == 1 && v.exact:
			// The card a read without validators got did not change. An
			// origin that still serves the previous generation to such
			// reads shows it when asked to revalidate the ETag held: a
			// 200 with another card is the card this instance now serves.
			if staleFreshRead(ctx, t, v, before[i], after[0], where, ch.String()) {
				changedAny = true
			}
		case changed:
			t.Unchecked(revalidates, fmt.Sprintf(
				"after %s the reads %s still gave %d different cards (%s), so which of them would answer a conditional GET cannot be told, and one still serving the old card rightly answers 304; %s",
				ch, v.through, len(after), describeCards(after), inexact(t)))
		}
	}
	t.Observe("cards", strings.Join(obs, "; "))
	if !etags {
		t.Unchecked("ETag follows the card", "the card carries no ETag (a SHOULD, judged by DISC-004); there was no generation to compare")
	}
	if !changedAny {
		t.Unchecked("a changed card gets a new ETag", fmt.Sprintf("every card read after %s (generation %d) is one read before it; a change whose card differs (e.g. its version) exercises it", ch, gen))
	}
})

// staleFreshRead revalidates, through an instance whose card read the same
// after the change as before, the ETag held from before. A 200 with another
// card, while a read without validators again gets the held one, is an
// instance serving two cards at once: the one a revalidating client gets,
// and the previous generation's to every client without a cached copy (an
// origin, not only a CDN, can be stale). It records the violation and says
// whether it found one.
func staleFreshRead(ctx context.Context, t *suites.T, v view, before []*client.CardResponse, now *client.CardResponse, where, change string) bool {
	for _, old := range before {
		oldTag := old.Header.Get("ETag")
		if oldTag == "" || !bytes.Equal(old.Raw, now.Raw) {
			continue
		}
		cond := v.card(ctx, t, map[string]string{"If-None-Match": oldTag}, true, "with the ETag held from before "+change)
		if cond.Status != http.StatusOK || cond.Card == nil || bytes.Equal(cond.Raw, now.Raw) {
			return false
		}
		again := v.card(ctx, t, nil, false, "without validators, after the revalidation")
		if !bytes.Equal(again.Raw, now.Raw) {
			t.Unchecked("a read without validators gets the current card", fmt.Sprintf("%s served version %s to a read without validators, then %s to a revalidation, then %s: the generations were still changing", v.name, version(now), version(cond), version(again)))
			return true
		}
		t.Record(freshReadViolation(where, oldTag, cond, now, change))
		return true
	}
	return false
}

// freshReadViolation: the instance served now to every read without
// validators and another card, cond, to a revalidation of the held ETag.
func freshReadViolation(where, oldTag string, cond, now *client.CardResponse, change string) invariants.Violation {
	return invariants.Violation{Invariant: "fresh-read-gets-current-card", Where: where + ", without validators and with If-None-Match: " + oldTag,
		Expected: "the card a revalidation of the held ETag gets (version " + version(cond) + ", ETag " + orDash(cond.Header.Get("ETag")) + ") to a read without validators too",
		Actual: "version " + version(now) + " (ETag " + orDash(now.Header.Get("ETag")) + ") to every read without validators, after " + change +
			": a client with no cached card gets a generation the instance no longer serves to a revalidating one"}
}

// unstableTag finds two reads of the same card bytes under different ETags.
func unstableTag(reads []*client.CardResponse) (string, string, bool) {
	for i, a := range reads {
		for _, b := range reads[i+1:] {
			ta, tb := a.Header.Get("ETag"), b.Header.Get("ETag")
			if ta != tb && (ta != "" || tb != "") && bytes.Equal(a.Raw, b.Raw) {
				return orDash(ta), orDash(tb), true
			}
		}
	}
	return "", "", false
}

// ROLL-002 (§3.1.1, §3.1.3, scenario 1): a task running while the
// deployment changes (the harness's rolling replacement; under the hooks
// driver the rollout-step command, else rotate-card, else
// restart-instance) is, in every view afterwards (each instance, or the
// target read several times), either the same task (state not gone back,
// the first message still in its history) or TaskNotFound; it never comes
// back as a fresh task under its id. When a view lost it on every read, a
// follow-up message naming it, through that view, gets TaskNotFound, not a
// new task; a task that survived reaches the state its script set.
//
// The task must be in progress for as long as the change takes. A change
// whose length the harness bounds (its own roll) crosses a task that works
// for a while, calibrated first; one whose length is unknown (a hook: a
// staging rollout takes minutes) crosses a task that asked for input, which
// stays in progress however long it takes. The change must be seen to have
// happened: the harness's roll replaced every instance; a hook that exits 0
// vouches for nothing, so a rotate-card hook must change the card, and
// another must show some change from outside (changeEvidence), or the spec
// is unchecked. A task lost is allowed by A2A, and is reported as a
// finding: it is scenario 1's orphan.
var _ = suites.Spec("ROLL-002", func(ctx context.Context, t *suites.T) {
	ch := changeFor(t, suites.HookRolloutStep, suites.HookRotateCard, suites.HookRestartInstance)
	vs := views(t)
	c := front(t)
	script := suites.Script{Outcome: directive.OutcomeInputRequired}
	var expected time.Duration
	if ch.bounded() {
		script = slowScript(step)
		// Calibrate first: on a prompt-map agent it runs a whole task, which
		// would otherwise outlast the spec's own task before the change.
		expected = t.Expected(ctx, c, script)
	}
	task, msg := start(ctx, t, c, script, nil)
	created := time.Now()
	last := task.Status.State
	defer func() {
		// Best effort: a task still in progress (one waiting for input
		// waits for ever) is ended, so that it does not stay in the
		// vendor's store.
		if last.Terminal() {
			return
		}
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_, _ = c.CancelTask(cctx, &a2a.CancelTaskRequest{ID: task.ID})
	}()
	var first *a2a.Task
	if script.Settles().Interrupted() {
		first = t.WaitFor(ctx, c, task.ID, string(script.Settles()), suites.TerminalOrInterrupted)
		t.Showed(script, first, "no task was in progress when the deployment changed")
	} else {
		first = t.WaitFor(ctx, c, task.ID, "working", func(s a2a.TaskState) bool { return s != a2a.TaskStateSubmitted })
		t.ShowedRunning(script, first, "no task was running when the deployment changed")
	}
	last = first.Status.State
	instance := instanceOf(t, task.ID)
	w := ch.watch(ctx, t)
	began := time.Now()
	gen := ch.run(ctx, t, []string{task.ID}, instance)
	t.Observe("rotation", fmt.Sprintf("%s to generation %d, task %s was %s when it began (served by %s), it took %s",
		ch, gen, task.ID, first.Status.State, orUnknown(instance), since(began)))
	w.after(ctx, t)

	reads, lost, found := 0, 0, 0
	var gone *view // a view that lost the task on every read
	for i := range vs {
		v := vs[i]
		lostHere := 0
		for r := 1; r <= v.reads; r++ {
			reads++
			where := fmt.Sprintf("GetTask %s %s after %s", task.ID, v.readName(r), ch)
			got, err := answered(ctx, t, v, task.ID, ch.String())
			switch {
			case isKind(err, a2a.ErrTaskNotFound):
				lost++
				lostHere++
			case err != nil:
				t.Record(invariants.Violation{Invariant: "task-survives-rotation", Where: where,
					Expected: "the task, or TaskNotFoundError", Actual: suites.ErrText(err)})
			default:
				found++
				if got.Status.State == a2a.TaskStateSubmitted {
					t.Record(invariants.Violation{Invariant: "task-survives-rotation", Where: where,
						Expected: "the task as it was (" + string(first.Status.State) + " or later)", Actual: "TASK_STATE_SUBMITTED: a fresh task under the same id"})
				}
				if !got.HasMessage(msg.MessageID) {
					t.Record(invariants.Violation{Invariant: "task-survives-rotation", Where: where,
						Expected: "its history to hold the first message " + msg.MessageID, Actual: fmt.Sprintf("%d history messages without it", len(got.History))})
				}
			}
		}
		if lostHere == v.reads && gone == nil {
			gone = &vs[i]
		}
	}
	t.Observe("lost-on", fmt.Sprintf("%d of %d reads answered TaskNotFound (%s)", lost, reads, readsOf(t, vs)))
	w.shown(t, "the task crosses "+ch.what(), gen, lost)
	if lost > 0 {
		how := fmt.Sprintf("%d of %d reads (%s; the others found it)", lost, reads, readsOf(t, vs))
		if found == 0 {
			how = fmt.Sprintf("every read (%s)", readsOf(t, vs))
		}
		lostTaskFinding(t, task.ID, ch.String(), how)
		if gone == nil {
			t.Unchecked("a follow-up to a lost task gets TaskNotFound", fmt.Sprintf(
				"the task was found on %d reads and not on %d, and no view lost it on every read: behind the target some instance still has it, and a follow-up may rightly reach that one", found, lost))
			return
		}
		followUpLostTask(ctx, t, gone.c, lostTask{id: task.ID, contextID: task.ContextID, firstMessage: msg.MessageID})
		return
	}
	// The task survived: it goes on to where its script leaves it. After
	// the harness's roll, which stopped every instance the task could run
	// on, a task that never moves again is orphaned by the roll, as
	// ROLL-003 says: found, yet neither carried on nor reported absent.
	var end *a2a.Task
	if seen, err := t.Get(ctx, c, task.ID); err == nil && ch.bounded() && !seen.Status.State.Terminal() && !seen.Status.State.Interrupted() {
		got, f := awaitOrphan(ctx, t, c, seen, time.Now(), created.Add(expected))
		switch {
		case f.lost():
			// Found after the change, then answered TaskNotFoundError:
			// lost in the roll, which A2A allows; a follow-up must then
			// get TaskNotFoundError too.
			last = got.Status.State
			lostTaskFinding(t, task.ID, ch.String(), fmt.Sprintf("%d of %d reads while it was awaited after it was found", f.notFound, f.reads))
			followUpLostTask(ctx, t, c, lostTask{id: task.ID, contextID: task.ContextID, firstMessage: msg.MessageID})
			return
		case !f.ended:
			last = got.Status.State
			t.Violated(invariants.Violation{Invariant: "task-survives-rotation", Where: fmt.Sprintf("task %s after %s", task.ID, ch),
				Expected: "the task carried on to the end its script set, " + string(script.Settles()) + ", or reported absent (TaskNotFoundError)",
				Actual:   f.diagnosis(t.Patience()) + "; the roll stopped every instance it replaced, the one running the task among them"})
		}
		end = got
	} else {
		end = t.WaitFor(ctx, c, task.ID, string(script.Settles()), suites.TerminalOrInterrupted)
	}
	last = end.Status.State
	t.Showed(script, end, "the task's end after the change could not be judged")
	if expected > 0 {
		t.Observe("task-end", fmt.Sprintf("%s %s after creation (expected about %s)", end.Status.State, since(created), expected.Round(time.Millisecond)))
	}
	t.Record(invariants.TerminalImmutable(invariants.ForTask(t.History().Observations(), task.ID))...)
})

// readsOf says what the reads of the views were, for the report.
func readsOf(t *suites.T, vs []view) string {
	if len(vs) == 1 && !vs[0].exact {
		return fmt.Sprintf("%d through the target; which instance answered each is not known under driver %q", vs[0].reads, driverName(t))
	}
	return "one on each instance"
}

// ROLL-008 (§8.6.1, scenario 1): while the deployment changes (the
// harness's rolling replacement; under the hooks driver the rollout-step
// command, else rotate-card), a client that holds the card of each view
// (each instance, or the target) and revalidates it (If-None-Match) sees the
// new generation within the time measured (reported as a distribution over
// the views) and never an older generation again.
//
// It fails when a view's revalidation keeps confirming the old card after
// the change, while every fresh read of the view serves a new one, or when
// an instance goes back to an older generation. Through the target a
// changing deployment rightly answers from both generations until it is
// done, so there "each instance's" time and "never an older generation
// again" are unchecked, and the spec never passes.
var _ = suites.Spec("ROLL-008", func(ctx context.Context, t *suites.T) {
	ch := changeFor(t, suites.HookRolloutStep, suites.HookRotateCard)
	vs := views(t)
	// holder is a client that holds the card of one view and revalidates it.
	type holder struct {
		v       view
		cached  *client.CardResponse
		old     string
		seen    []string
		newAt   time.Duration
		flipped string
		flips   int
	}
	cs := make([]*holder, len(vs))
	for i, v := range vs {
		cr := v.card(ctx, t, nil, false, "before "+ch.String())
		cs[i] = &holder{v: v, cached: cr, old: version(cr), seen: []string{version(cr)}, newAt: -1}
	}
	began := time.Now()
	run := ch.begin(ctx, t, nil, "")
	var mu sync.Mutex
	revalidate := func(c *holder) {
		h := map[string]string{}
		if tag := c.cached.Header.Get("ETag"); tag != "" {
			h["If-None-Match"] = tag
		}
		cr, err := c.v.tryCard(ctx, t, h)
		if err != nil || (cr.Status != http.StatusOK && cr.Status != http.StatusNotModified) {
			return // the deployment is changing: a balancer may answer 502/503 for a moment
		}
		mu.Lock()
		defer mu.Unlock()
		if cr.Status == http.StatusOK {
			c.cached = cr
		}
		ver := version(c.cached)
		if c.seen[len(c.seen)-1] != ver {
			if c.newAt >= 0 && ver == c.old {
				c.flips++
				if c.flipped == "" {
					c.flipped = fmt.Sprintf("back to %s at %s", ver, since(began))
				}
			}
			c.seen = append(c.seen, ver)
		}
		if ver != c.old && c.newAt < 0 {
			c.newAt = time.Since(began)
		}
	}
	round := func() {
		var wg sync.WaitGroup
		for _, c := range cs {
			wg.Add(1)
			go func() { defer wg.Done(); revalidate(c) }()
		}
		wg.Wait()
	}
	// A change the harness bounds gets the spec's patience; a hook is
	// bounded by its own timeout, and the spec's.
	deadline := time.Now().Add(t.Patience())
	for ctx.Err() == nil {
		over := run.over()
		round()
		if over && (run.err != nil || time.Since(run.at) > 2*t.Settle()) {
			break
		}
		if !over && ch.bounded() && time.Now().After(deadline) {
			t.Indeterminate("%s did not finish within %s", ch, t.Patience())
		}
		select {
		case <-ctx.Done():
		case <-time.After(ch.pace(time.Since(began))):
		}
	}
	gen := ch.finish(t, run)
	changeTook := run.at.Sub(began).Round(time.Millisecond)
	var times []time.Duration
	var seen []string
	for _, c := range cs {
		v := c.v
		seen = append(seen, fmt.Sprintf("%s: %s", v.name, strings.Join(c.seen, " → ")))
		where := fmt.Sprintf("card revalidated %s during and after %s (generation %d)", v.through, ch, gen)
		switch {
		case c.flipped != "" && v.exact:
			t.Record(invariants.Violation{Invariant: "no-flip-back", Where: where,
				Expected: "once the new generation is served, never the older one again", Actual: c.flipped + " (" + strings.Join(c.seen, " → ") + ")"})
		case c.flips > 0:
			seen[len(seen)-1] += fmt.Sprintf(" (%d return(s) to %s after a newer version, allowed through one endpoint while the deployment changes)", c.flips, c.old)
		}
		if c.newAt >= 0 {
			times = append(times, c.newAt)
			continue
		}
		fresh := distinctCards(v.cards(ctx, t, v.reads, "after "+ch.String()))
		var versions []string
		allNew := true
		for _, cr := range fresh {
			versions = append(versions, version(cr))
			allNew = allNew && version(cr) != c.old
		}
		sort.Strings(versions)
		if !allNew {
			t.Unchecked("time to consistency", fmt.Sprintf("%s still serves version %s after %s (%d fresh read(s): %s); a change whose card has another version exercises it",
				v.name, c.old, ch, v.reads, strings.Join(versions, ", ")))
			continue
		}
		// The client never saw a new card, and every fresh read shows one:
		// one more revalidation, now, settles it.
		revalidate(c)
		if c.newAt < 0 {
			t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card", Where: where,
				Expected: "the revalidating client to see version " + strings.Join(versions, "/") + ", which every fresh read " + v.through + " serves",
				Actual:   fmt.Sprintf("still version %s %s after the change ended: revalidation kept confirming the old card", c.old, time.Since(run.at).Round(time.Millisecond))})
		}
	}
	t.Observe("versions", strings.Join(seen, "; "))
	if len(times) > 0 {
		sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
		dist := fmt.Sprintf("after %s", times[0].Round(time.Millisecond))
		if len(cs) > 1 {
			dist = fmt.Sprintf("after min %s, median %s, max %s (n=%d of %d views)", times[0].Round(time.Millisecond),
				times[len(times)/2].Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond), len(times), len(cs))
		}
		t.Observe("time-to-consistency", fmt.Sprintf("%s, the revalidating client first saw a new version %s from the start of %s (which took %s)",
			viewsOf(vs), dist, ch, changeTook))
	}
	if len(vs) == 1 && !vs[0].exact {
		t.Unchecked("each instance's new card, and never an older generation again", inexact(t)+", so per-instance order and times cannot be judged")
	}
})

// viewsOf names the views, for the report.
func viewsOf(vs []view) string {
	if len(vs) == 1 && !vs[0].exact {
		return "through the target"
	}
	return fmt.Sprintf("on each of %d instances", len(vs))
}

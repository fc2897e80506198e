package rollout

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

func pinned(k int) map[string]string { return map[string]string{suites.PinHeader: strconv.Itoa(k)} }

// cardAt fetches the card of instance k through the balancer, ending the
// spec indeterminate when it does not come back 200.
func cardAt(ctx context.Context, t *suites.T, inst suites.Instances, k int, extra map[string]string, allow304 bool) *client.CardResponse {
	h := pinned(k)
	for a, b := range extra {
		h[a] = b
	}
	cr, err := fetchCard(ctx, t, inst.BalancerURL(), h)
	if err != nil {
		t.Indeterminate("the card of instance %d could not be fetched: %s", k, suites.ErrText(err))
	}
	if cr.Status != http.StatusOK && !(allow304 && cr.Status == http.StatusNotModified) {
		t.Indeterminate("the card of instance %d answered HTTP %d, so its generation cannot be compared (DISC-001 judges the card itself)", k, cr.Status)
	}
	return cr
}

func version(cr *client.CardResponse) string {
	if cr == nil || cr.Card == nil {
		return "?"
	}
	return cr.Card.Version
}

// ROLL-001 (§8.6.1, scenario 1): the card's ETag is its generation. After a
// rolling replacement by the next generation, on each instance, the ETag
// changed if the card's bytes changed (and stayed if they did not), and a
// conditional GET with the ETag held from before the rotation gets 200 and
// the new card, never 304.
//
// Under the hooks driver the rotation is the vendor's rotate-card command
// (else rollout-step), and the cards are read through the target
// (rotationByHook).
var _ = suites.Spec("ROLL-001", func(ctx context.Context, t *suites.T) {
	if hk, point, ok := hooksFor(t, suites.HookRotateCard, suites.HookRolloutStep); ok {
		rotationByHook(ctx, t, hk, point)
		return
	}
	inst := instances(t, 1)
	r := roller(t)
	n := len(inst.InstanceNames())
	before := make([]*client.CardResponse, n)
	for k := range before {
		if inst.InstanceNames()[k] != "" {
			before[k] = cardAt(ctx, t, inst, k, nil, false)
		}
	}
	gen, err := r.Roll(ctx, nil)
	if err != nil {
		t.Indeterminate("the rolling replacement failed: %v", err)
	}
	t.Observe("generation", strconv.Itoa(gen))
	changedAny, etags := false, false
	var obs []string
	for k, old := range before {
		if old == nil || inst.InstanceNames()[k] == "" {
			continue
		}
		now := cardAt(ctx, t, inst, k, nil, false)
		again := cardAt(ctx, t, inst, k, nil, false)
		oldTag, newTag := old.Header.Get("ETag"), now.Header.Get("ETag")
		changed := !bytes.Equal(old.Raw, now.Raw)
		changedAny = changedAny || changed
		obs = append(obs, fmt.Sprintf("instance %d: version %s → %s, ETag %s → %s", k, version(old), version(now), oldTag, newTag))
		if oldTag == "" || newTag == "" {
			continue
		}
		etags = true
		where := fmt.Sprintf("card of instance %d after the rotation to generation %d", k, gen)
		if changed && newTag == oldTag {
			t.Record(invariants.Violation{Invariant: "etag-tracks-card", Where: where,
				Expected: "a new ETag: the card changed (version " + version(old) + " → " + version(now) + ")",
				Actual:   "the same ETag " + newTag})
		}
		if !changed && newTag != oldTag {
			t.Should(invariants.Violation{Invariant: "etag-stable", Where: where,
				Expected: "the ETag " + oldTag + " kept: the card's bytes did not change", Actual: newTag})
		}
		if again.Header.Get("ETag") != newTag && bytes.Equal(again.Raw, now.Raw) {
			t.Should(invariants.Violation{Invariant: "etag-stable", Where: where + ", fetched twice",
				Expected: "the same ETag for the same card", Actual: newTag + " then " + again.Header.Get("ETag")})
		}
		cond := cardAt(ctx, t, inst, k, map[string]string{"If-None-Match": oldTag}, true)
		switch {
		case changed && cond.Status == http.StatusNotModified:
			t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card", Where: where + ", If-None-Match: " + oldTag,
				Expected: "200 with the new card (version " + version(now) + "): the held ETag is from before the rotation",
				Actual:   "304 Not Modified: a revalidating client keeps the card of version " + version(old)})
		case changed && version(cond) != version(now):
			t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card", Where: where + ", If-None-Match: " + oldTag,
				Expected: "200 with the new card (version " + version(now) + ")", Actual: fmt.Sprintf("HTTP %d with version %s", cond.Status, version(cond))})
		}
	}
	t.Observe("cards", strings.Join(obs, "; "))
	if !etags {
		t.Unchecked("ETag follows the card", "the card carries no ETag (a SHOULD, judged by DISC-004); there was no generation to compare")
	}
	if !changedAny {
		t.Unchecked("a changed card gets a new ETag", fmt.Sprintf("the next generation (%d) serves the same card bytes on every instance; a next build whose card differs (e.g. its version) exercises it", gen))
	}
})

// ROLL-002 (§3.1.1, §3.1.3, scenario 1): a task running while the
// deployment rolls to the next generation is, on every instance afterwards,
// either the same task (state not gone back, the first message still in its
// history) or TaskNotFound; it never comes back as a fresh task under its
// id. When it is lost, a follow-up message naming it gets TaskNotFound, not
// a new task.
//
// Under the hooks driver the rotation is the vendor's rollout-step command
// (else rotate-card, else restart-instance), and the task is read through
// the target (taskAcrossHook).
var _ = suites.Spec("ROLL-002", func(ctx context.Context, t *suites.T) {
	if hk, point, ok := hooksFor(t, suites.HookRolloutStep, suites.HookRotateCard, suites.HookRestartInstance); ok {
		taskAcrossHook(ctx, t, hk, point)
		return
	}
	inst := instances(t, 1)
	r := roller(t)
	c := via(t, inst, -1)
	script := slowScript(step)
	// Calibrate first: on a prompt-map agent it runs a whole task, which
	// would otherwise outlast the spec's own task before the roll.
	expected := t.Expected(ctx, c, script)
	task, msg := start(ctx, t, c, script, nil)
	created := time.Now()
	first := t.WaitFor(ctx, c, task.ID, "working", func(s a2a.TaskState) bool { return s != a2a.TaskStateSubmitted })
	t.ShowedRunning(script, first, "no task was running when the card rotated")
	gen, err := r.Roll(ctx, nil)
	if err != nil {
		t.Indeterminate("the rolling replacement failed: %v", err)
	}
	rolled := time.Now()
	t.Observe("rotation", fmt.Sprintf("generation %d, task %s was %s when it began, roll took %s", gen, task.ID, first.Status.State, rolled.Sub(created).Round(time.Millisecond)))
	lost := 0
	names := inst.InstanceNames()
	for k, name := range names {
		if name == "" {
			continue
		}
		ck := via(t, inst, k)
		where := fmt.Sprintf("GetTask %s on instance %d (%s) after the rotation", task.ID, k, name)
		got, err := t.Get(ctx, ck, task.ID)
		switch {
		case isKind(err, a2a.ErrTaskNotFound):
			lost++
		case err != nil:
			t.Record(invariants.Violation{Invariant: "task-survives-rotation", Where: where,
				Expected: "the task, or TaskNotFoundError", Actual: suites.ErrText(err)})
		default:
			if got.Status.State == a2a.TaskStateSubmitted {
				t.Record(invariants.Violation{Invariant: "task-survives-rotation", Where: where,
					Expected: "the task as it was (" + string(first.Status.State) + " or later)", Actual: "TASK_STATE_SUBMITTED: a fresh task under the same id"})
			}
			if !hasMessage(got, msg.MessageID) {
				t.Record(invariants.Violation{Invariant: "task-survives-rotation", Where: where,
					Expected: "its history to hold the first message " + msg.MessageID, Actual: fmt.Sprintf("%d history messages without it", len(got.History))})
			}
		}
	}
	t.Observe("lost-on", fmt.Sprintf("%d of %d instances answered TaskNotFound", lost, live(inst)))
	if lost > 0 {
		lostTaskFinding(t, task.ID, fmt.Sprintf("the roll to generation %d", gen), fmt.Sprintf("%d of %d instances", lost, live(inst)))
		followUpLostTask(ctx, t, c, task.ID)
		return
	}
	// The task survived: it must go on to the end its script set.
	end := t.WaitFor(ctx, c, task.ID, "terminal", suites.Terminal)
	t.Showed(script, end, "the task's end after the rotation could not be judged")
	t.Observe("task-end", fmt.Sprintf("%s %s after creation (expected about %s)", end.Status.State, since(created), expected.Round(time.Millisecond)))
	t.Record(invariants.TerminalImmutable(invariants.ForTask(t.History().Observations(), task.ID))...)
})

// ROLL-008 (§8.6.1, scenario 1): during and after a rolling replacement, a
// client that revalidates its cached card of each instance (If-None-Match)
// sees the new generation within the time measured (reported as a
// distribution over the instances) and never an older generation again.
//
// Under the hooks driver the rollout is the vendor's rollout-step command
// (else rotate-card) and the client revalidates through the target
// (consistencyByHook), which checks only part of the title.
var _ = suites.Spec("ROLL-008", func(ctx context.Context, t *suites.T) {
	if hk, point, ok := hooksFor(t, suites.HookRolloutStep, suites.HookRotateCard); ok {
		consistencyByHook(ctx, t, hk, point)
		return
	}
	inst := instances(t, 1)
	r := roller(t)
	names := inst.InstanceNames()
	type view struct {
		cached  *client.CardResponse
		old     string
		seen    []string
		newAt   time.Duration
		flipped string
	}
	views := make([]*view, len(names))
	for k, name := range names {
		if name != "" {
			cr := cardAt(ctx, t, inst, k, nil, false)
			views[k] = &view{cached: cr, old: version(cr), newAt: -1}
		}
	}
	began := time.Now()
	done := make(chan error, 1)
	var gen int
	go func() {
		var err error
		gen, err = r.Roll(ctx, nil)
		done <- err
	}()
	var mu sync.Mutex
	poll := func(k int, v *view) {
		h := map[string]string{}
		if tag := v.cached.Header.Get("ETag"); tag != "" {
			h["If-None-Match"] = tag
		}
		hh := pinned(k)
		for a, b := range h {
			hh[a] = b
		}
		cr, err := fetchCard(ctx, t, inst.BalancerURL(), hh)
		if err != nil || (cr.Status != http.StatusOK && cr.Status != http.StatusNotModified) {
			return // an instance being replaced; the balancer may answer 502/503 for a moment
		}
		mu.Lock()
		defer mu.Unlock()
		if cr.Status == http.StatusOK {
			v.cached = cr
		}
		ver := version(v.cached)
		if len(v.seen) == 0 || v.seen[len(v.seen)-1] != ver {
			v.seen = append(v.seen, ver)
		}
		if ver != v.old && v.newAt < 0 {
			v.newAt = time.Since(began)
		}
		if ver == v.old && v.newAt >= 0 && v.flipped == "" {
			v.flipped = fmt.Sprintf("back to %s at %s", ver, since(began))
		}
	}
	var rollErr error
	rollDone := time.Time{}
	deadline := time.Now().Add(t.Patience())
	for time.Now().Before(deadline) && ctx.Err() == nil {
		select {
		case rollErr = <-done:
			rollDone = time.Now()
			done = nil
		default:
		}
		var wg sync.WaitGroup
		for k, v := range views {
			if v != nil {
				wg.Add(1)
				go func() { defer wg.Done(); poll(k, v) }()
			}
		}
		wg.Wait()
		if !rollDone.IsZero() && time.Since(rollDone) > 2*t.Settle() {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(suites.Poll):
		}
	}
	if rollErr != nil {
		t.Indeterminate("the rolling replacement failed: %v", rollErr)
	}
	if rollDone.IsZero() {
		t.Indeterminate("the rolling replacement did not finish within %s", t.Patience())
	}
	var times []time.Duration
	var seen []string
	for k, v := range views {
		if v == nil {
			continue
		}
		seen = append(seen, fmt.Sprintf("instance %d: %s", k, strings.Join(v.seen, " → ")))
		where := fmt.Sprintf("revalidated card of instance %d during the rotation to generation %d", k, gen)
		if v.flipped != "" {
			t.Record(invariants.Violation{Invariant: "no-flip-back", Where: where,
				Expected: "once the new generation is served, never the older one again", Actual: v.flipped + " (" + strings.Join(v.seen, " → ") + ")"})
		}
		if v.newAt < 0 {
			fresh := cardAt(ctx, t, inst, k, nil, false)
			if version(fresh) != v.old {
				t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card", Where: where,
					Expected: "the revalidating client to see version " + version(fresh) + ", which the instance serves to a fresh GET",
					Actual:   fmt.Sprintf("still version %s %s after the rollout ended: revalidation kept confirming the old card", v.old, time.Since(rollDone).Round(time.Millisecond))})
			} else {
				t.Unchecked("time to consistency", fmt.Sprintf("instance %d serves the same card version (%s) after the rotation; a next build with another version exercises it", k, v.old))
			}
			continue
		}
		times = append(times, v.newAt)
	}
	t.Observe("versions", strings.Join(seen, "; "))
	if len(times) > 0 {
		sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
		t.Observe("time-to-consistency", fmt.Sprintf("per instance from the start of the rollout: min %s, median %s, max %s (n=%d; rollout took %s)",
			times[0].Round(time.Millisecond), times[len(times)/2].Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond), len(times), rollDone.Sub(began).Round(time.Millisecond)))
	}
})

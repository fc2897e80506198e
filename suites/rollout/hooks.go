package rollout

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Under the hooks driver the harness changes a deployment it cannot see
// into: its own requests go to the target, behind which the vendor's
// balancer picks an instance the harness cannot name. A spec that runs there
// judges only what a client of that one endpoint sees, and says what it
// could not check; the specs that must address an instance cannot run
// (instanceNeeds says why, per spec).

// hookSamples is how many times a spec under the hooks driver reads the
// card or a task through the target at one moment: each read may reach
// another instance, and a few show whether they agree.
const hookSamples = 4

// hookPoll is the pause between the card revalidations ROLL-008 sends while
// a hook runs, and hookPollLate the pause once it has run for a while: a
// staging rollout takes minutes, and every request is recorded.
const (
	hookPoll     = 250 * time.Millisecond
	hookPollLate = time.Second
	hookPollSlow = 20 * time.Second
)

// instanceNeeds says, per spec, what it needs single instances for: the
// could-not-run reason under the hooks driver, which has none.
var instanceNeeds = map[string]string{
	"ROLL-003": "it starts tasks on each instance and registers each task's push config through another instance than the one running it",
	"ROLL-004": "it stops every instance, starts one, and polls that instance's own card while it starts",
	"ROLL-005": "it subscribes through one instance to a task running on another",
	"ROLL-006": "it cancels through one instance a task running on another, then reads the task back from every instance",
	"ROLL-007": "it holds the card in the harness's own CDN while it rolls the instances behind it from a previous build to one without a capability, an interface and an extension that card claims",
	"ROLL-009": "it registers push configs through an old instance once its successor is ready and again on the old instance's own URL while it drains, and through the new one",
}

// hooksFor returns the hooks driver and the first of points it has a
// command for; ok is false when the run's driver is not hooks. Under hooks
// without any of the points the spec ends could-not-run, naming the flags.
func hooksFor(t *suites.T, points ...string) (suites.HookRunner, string, bool) {
	hk, ok := t.Env.Topology.(suites.HookRunner)
	if !ok {
		return nil, "", false
	}
	have := hk.HookPoints()
	for _, p := range points {
		for _, h := range have {
			if h == p {
				return hk, p, true
			}
		}
	}
	var flags []string
	for _, p := range points {
		flags = append(flags, "--hook-"+p)
	}
	t.CouldNotRun("driver %q has no command for the change this spec makes: it runs %s, and the run gives %s.",
		driverName(t), strings.Join(flags, " or "), orNone(have))
	return nil, "", false
}

func orNone(points []string) string {
	if len(points) == 0 {
		return "none"
	}
	var out []string
	for _, p := range points {
		out = append(out, "--hook-"+p)
	}
	return "only " + strings.Join(out, ", ")
}

// runHook runs the hook, records its account as the observation
// hook.POINT, and ends the spec could-not-run when it failed: the
// deployment is then in a state nobody knows, and nothing about the agent
// follows from it.
func runHook(ctx context.Context, t *suites.T, hk suites.HookRunner, point string, taskIDs []string, instance string) int {
	gen, account, err := hk.RunHook(ctx, point, t.Info.ID, taskIDs, instance)
	if account != "" {
		t.Observe("hook."+point, account)
	}
	if err != nil {
		t.CouldNotRun("the %s hook did not complete, so the deployment's state after it is unknown and nothing was judged on it: %v.", point, err)
	}
	t.Observe("generation", fmt.Sprint(gen))
	return gen
}

// instanceOf is the instance that answered the request that created task,
// as the agent named itself in its A2A-Conform-Instance header ("" when it
// did not): the hook is told, so that a vendor's restart-instance command
// can restart that one.
func instanceOf(t *suites.T, taskID string) string {
	for _, ex := range t.Env.Transcript.Owned(t.Info.ID) {
		if ex.Instance != "" && strings.Contains(ex.RespBody, taskID) {
			return ex.Instance
		}
	}
	return ""
}

// targetCards fetches the card through the target n times, ending the spec
// indeterminate when one does not come back 200.
func targetCards(ctx context.Context, t *suites.T, n int, when string) []*client.CardResponse {
	out := make([]*client.CardResponse, 0, n)
	for i := 0; i < n; i++ {
		cr, err := fetchCard(ctx, t, t.Env.BaseURL, nil)
		if err != nil {
			t.Indeterminate("the card could not be fetched through the target %s: %s", when, suites.ErrText(err))
		}
		if cr.Status != http.StatusOK {
			t.Indeterminate("the card answered HTTP %d through the target %s, so its generations cannot be compared (DISC-001 judges the card itself)", cr.Status, when)
		}
		out = append(out, cr)
	}
	return out
}

// distinctCards keeps one response per distinct card body, in order.
func distinctCards(crs []*client.CardResponse) []*client.CardResponse {
	var out []*client.CardResponse
	for _, cr := range crs {
		if !hasBody(out, cr.Raw) {
			out = append(out, cr)
		}
	}
	return out
}

func hasBody(crs []*client.CardResponse, raw []byte) bool {
	for _, cr := range crs {
		if bytes.Equal(cr.Raw, raw) {
			return true
		}
	}
	return false
}

func describeCards(crs []*client.CardResponse) string {
	var out []string
	for _, cr := range crs {
		out = append(out, fmt.Sprintf("version %s ETag %s", version(cr), orDash(cr.Header.Get("ETag"))))
	}
	return strings.Join(out, "; ")
}

func orDash(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// rotationByHook is ROLL-001 under the hooks driver: the card through the
// target, sampled before and after the hook that changes it. A card after
// the hook that differs from one before under the same ETag is a violation
// whichever instances served them (a strong validator names one
// representation). Revalidating with a held ETag is judged only once every
// sample after the hook shows the one new card: while the target still
// answers with both, a 304 may come from an instance that still serves the
// old one, which is correct for it.
func rotationByHook(ctx context.Context, t *suites.T, hk suites.HookRunner, point string) {
	before := distinctCards(targetCards(ctx, t, hookSamples, "before the hook"))
	gen := runHook(ctx, t, hk, point, nil, "")
	after := distinctCards(targetCards(ctx, t, hookSamples, "after the hook"))
	t.Observe("cards", fmt.Sprintf("through the target, %d reads each: before the %s hook %s; after it (generation %d) %s",
		hookSamples, point, describeCards(before), gen, describeCards(after)))
	changed, etags := false, false
	for _, now := range after {
		if !hasBody(before, now.Raw) {
			changed = true
		}
		newTag := now.Header.Get("ETag")
		for _, old := range before {
			oldTag := old.Header.Get("ETag")
			if oldTag == "" || newTag == "" {
				continue
			}
			etags = true
			where := fmt.Sprintf("card through the target after the %s hook (generation %d)", point, gen)
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
	converged := len(after) == 1 && changed
	switch {
	case converged:
		now := after[0]
		for _, old := range before {
			oldTag := old.Header.Get("ETag")
			if oldTag == "" || oldTag == now.Header.Get("ETag") {
				continue // no ETag to revalidate with, or a violation recorded above
			}
			cond, err := fetchCard(ctx, t, t.Env.BaseURL, map[string]string{"If-None-Match": oldTag})
			if err != nil {
				t.Indeterminate("the conditional GET through the target could not be made: %s", suites.ErrText(err))
			}
			// The target must still serve the new card alone, or the 304
			// may have come from an instance that never left the old one.
			again := targetCards(ctx, t, 1, "after the conditional GET")[0]
			if !bytes.Equal(again.Raw, now.Raw) {
				t.Unchecked("revalidating with the old ETag gets the new card", "the target served another card again after the hook (version "+version(again)+"), so which generation answered the conditional GET cannot be told")
				continue
			}
			if cond.Status == http.StatusNotModified {
				t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card",
					Where:    fmt.Sprintf("card through the target after the %s hook (generation %d), If-None-Match: %s", point, gen, oldTag),
					Expected: "200 with the new card (version " + version(now) + "), which every read through the target now serves: the held ETag is from before the hook",
					Actual:   "304 Not Modified: a revalidating client keeps the card of version " + version(old)})
			}
		}
	case changed:
		t.Unchecked("revalidating with the old ETag gets the new card", fmt.Sprintf(
			"after the hook the target still served %d different cards (%s); under driver %q the harness cannot tell which instance answers a conditional GET, and one still serving the old card rightly answers 304",
			len(after), describeCards(after), driverName(t)))
	}
	if !etags {
		t.Unchecked("ETag follows the card", "the card carries no ETag (a SHOULD, judged by DISC-004); there was no generation to compare")
	}
	if !changed {
		t.Unchecked("a changed card gets a new ETag", fmt.Sprintf("the card read through the target is the same after the %s hook (generation %d) as before; a hook whose card differs (e.g. its version) exercises it", point, gen))
	}
}

// taskAcrossHook is ROLL-002 under the hooks driver. The task waits for
// input rather than working for a while: a hook's length is unknown (a
// staging rollout takes minutes), and a task that asked for input stays in
// progress however long it takes. After the hook the task is read through
// the target several times; each answer must be the same task (not
// SUBMITTED again, its first message in its history) or TaskNotFound, and
// when every answer was TaskNotFound, a follow-up naming it must get
// TaskNotFound, never a new task. A hook that exits 0 proves no change: a
// rotate-card hook must change the card, and a restart-instance or
// rollout-step hook must show some change from outside (changeEvidence: the
// card, the instances that answer, the task lost), or the part is
// unchecked. A task lost is allowed by A2A, and is reported as a finding:
// it is scenario 1's orphan.
func taskAcrossHook(ctx context.Context, t *suites.T, hk suites.HookRunner, point string) {
	c := t.Client()
	script := suites.Script{Outcome: directive.OutcomeInputRequired}
	task, msg := start(ctx, t, c, script, nil)
	defer func() {
		// Best effort: a task still waiting for input is ended, so that it
		// does not wait in the vendor's store for ever.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_, _ = c.CancelTask(cctx, &a2a.CancelTaskRequest{ID: task.ID})
	}()
	first := t.WaitFor(ctx, c, task.ID, "input-required", suites.TerminalOrInterrupted)
	t.Showed(script, first, "no task was waiting when the hook ran")
	instance := instanceOf(t, task.ID)
	cardBefore, _ := fetchCard(ctx, t, t.Env.BaseURL, nil)
	namesBefore, mark := instancesSeen(t, 0)
	began := time.Now()
	gen := runHook(ctx, t, hk, point, []string{task.ID}, instance)
	t.Observe("rotation", fmt.Sprintf("%s hook to generation %d, task %s was %s when it began (served by %s), hook took %s",
		point, gen, task.ID, first.Status.State, orUnknown(instance), since(began)))
	// Whether instances were replaced cannot be seen through the target;
	// the card is the one outward sign, recorded for the reader.
	cardAfter, _ := fetchCard(ctx, t, t.Env.BaseURL, nil)
	if point == suites.HookRotateCard && (cardBefore == nil || cardAfter == nil) {
		when := "after"
		if cardBefore == nil {
			when = "before"
		}
		t.Unchecked("the task crosses a card rotation", fmt.Sprintf(
			"the card could not be read through the target %s the %s hook, so whether the card rotated under the task was not seen", when, point))
	}
	if cardBefore != nil && cardAfter != nil {
		same := "the same card: a hook's exit status vouches for nothing, so the change must show otherwise (change-seen, or the part left unchecked)"
		if !bytes.Equal(cardBefore.Raw, cardAfter.Raw) {
			same = "the card changed"
		}
		t.Observe("card", fmt.Sprintf("through the target, version %s before the hook and %s after: %s", version(cardBefore), version(cardAfter), same))
		if point == suites.HookRotateCard && bytes.Equal(cardBefore.Raw, cardAfter.Raw) {
			// A restart or a rollout step may keep the card; a rotation that
			// leaves it byte for byte the same gave the task nothing to cross.
			t.Unchecked("the task crosses a card rotation", fmt.Sprintf(
				"the %s hook exited 0 but the card read through the target is the same before and after it (version %s), so no rotation was seen to happen under the task; a hook that changes the card (its version, say) exercises it",
				point, version(cardAfter)))
		}
	}
	lost, found := 0, 0
	for i := 1; i <= hookSamples; i++ {
		where := fmt.Sprintf("GetTask %s through the target after the %s hook (read %d of %d)", task.ID, point, i, hookSamples)
		got, err := answered(ctx, t, c, task.ID)
		switch {
		case isKind(err, a2a.ErrTaskNotFound):
			lost++
		case err != nil:
			t.Record(invariants.Violation{Invariant: "task-survives-rotation", Where: where,
				Expected: "the task, or TaskNotFoundError", Actual: suites.ErrText(err)})
		default:
			found++
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
	t.Observe("lost-on", fmt.Sprintf("%d of %d reads through the target answered TaskNotFound (driver %q: which instance answered each is not known)", lost, hookSamples, driverName(t)))
	namesAfter, _ := instancesSeen(t, mark)
	if point != suites.HookRotateCard {
		// A hook that exits 0 vouches for nothing: the task crossed a
		// change only if one was seen from outside.
		ev := changeEvidence(cardBefore, cardAfter, namesBefore, namesAfter, lost)
		if len(ev) == 0 {
			t.Unchecked("the task crosses a "+point, fmt.Sprintf(
				"the %s hook exited 0, but nothing seen through the target changed: the card (body and ETag) is the same, the instances that answered after it (%s) are among those before it (%s), and the task is still there; without evidence that the deployment changed under the task, there was nothing to cross. Let the agent name its process in the A2A-Conform-Instance response header (a pod name, or a name with its start time) so that a restart shows, or give a hook that changes the card",
				point, orNoneSeen(namesAfter), orNoneSeen(namesBefore)))
		} else {
			t.Observe("change-seen", strings.Join(ev, "; "))
		}
	}
	if lost > 0 {
		how := "every read through the target"
		if found > 0 {
			how = fmt.Sprintf("%d of %d reads through the target (the others found it)", lost, hookSamples)
		}
		lostTaskFinding(t, task.ID, "the "+point+" hook", how)
	}
	switch {
	case lost > 0 && found > 0:
		t.Unchecked("a follow-up to a lost task gets TaskNotFound", fmt.Sprintf(
			"the task was found on %d reads and not on %d: behind the target some instance still has it, and a follow-up may rightly reach that one", found, lost))
	case lost > 0:
		followUpLostTask(ctx, t, c, task.ID)
	default:
		// The task survived: it is still where its script left it.
		end := t.WaitFor(ctx, c, task.ID, "input-required", suites.TerminalOrInterrupted)
		t.Showed(script, end, "the task's state after the hook could not be judged")
		t.Record(invariants.TerminalImmutable(invariants.ForTask(t.History().Observations(), task.ID))...)
	}
}

// lostTaskFinding reports a task lost across a change of the deployment
// (how: which reads answered TaskNotFoundError). A2A allows it, so it
// changes no verdict; it is scenario 1's orphan, which whoever runs the
// deployment should see in the run's summary rather than in a quiet pass.
func lostTaskFinding(t *suites.T, taskID, change, how string) {
	t.Finding("task %s was lost across %s: %s answered TaskNotFoundError. A2A allows it, but its client, and any push config on it, are orphaned, as in scenario 1 (card rotation mid-task); task state kept in a store every instance shares survives",
		taskID, change, how)
}

// instancesSeen lists the distinct instance names (A2A-Conform-Instance)
// the agent gave in the spec's exchanges after sequence number after, and
// the last sequence number seen.
func instancesSeen(t *suites.T, after int) ([]string, int) {
	last := after
	seen := map[string]bool{}
	for _, ex := range t.Env.Transcript.Owned(t.Info.ID) {
		if ex.Seq <= after {
			continue
		}
		last = max(last, ex.Seq)
		if ex.Instance != "" {
			seen[ex.Instance] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, last
}

// changeEvidence lists what shows, from outside, that the deployment changed
// across a hook: another card (body or ETag), answers after it only from
// instances never seen before it (a disjoint set: a balancer that merely
// picked another instance shows names from both), or the task lost.
func changeEvidence(before, after *client.CardResponse, namesBefore, namesAfter []string, lost int) []string {
	var ev []string
	if before != nil && after != nil {
		switch {
		case !bytes.Equal(before.Raw, after.Raw):
			ev = append(ev, fmt.Sprintf("the card changed (version %s → %s)", version(before), version(after)))
		case before.Header.Get("ETag") != after.Header.Get("ETag"):
			ev = append(ev, fmt.Sprintf("the card's ETag changed (%s → %s)", orDash(before.Header.Get("ETag")), orDash(after.Header.Get("ETag"))))
		}
	}
	if len(namesBefore) > 0 && len(namesAfter) > 0 {
		disjoint := true
		for _, n := range namesAfter {
			if slices.Contains(namesBefore, n) {
				disjoint = false
			}
		}
		if disjoint {
			ev = append(ev, fmt.Sprintf("every answer after the hook came from instances not seen before it (%s → %s)",
				strings.Join(namesBefore, ", "), strings.Join(namesAfter, ", ")))
		}
	}
	if lost > 0 {
		ev = append(ev, "the task was lost")
	}
	return ev
}

func orNoneSeen(names []string) string {
	if len(names) == 0 {
		return "none named"
	}
	return strings.Join(names, ", ")
}

func orUnknown(s string) string {
	if s == "" {
		return "an instance the agent did not name"
	}
	return "instance " + s
}

// answered reads the task through the target, reading again while the
// answer is not the agent's (a transport error, or an HTTP error without
// an A2A body, such as a gateway's 502 while the rollout settles), within
// the spec's patience; the spec is indeterminate when none came.
func answered(ctx context.Context, t *suites.T, c *client.Client, id string) (*a2a.Task, error) {
	deadline := time.Now().Add(t.Patience())
	for {
		got, err := t.Get(ctx, c, id)
		ce, ok := client.AsError(err)
		if err == nil || !ok || (ce.Class != client.Transport && ce.Class != client.HTTP) {
			return got, err
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Indeterminate("GetTask %s through the target got no answer from the agent within %s after the hook: %s", id, t.Patience(), suites.ErrText(err))
		}
		select {
		case <-ctx.Done():
		case <-time.After(suites.Poll * 5):
		}
	}
}

// consistencyByHook is ROLL-008 under the hooks driver: a client that holds
// the card and revalidates it through the target while the hook runs, and
// after it. It measures when the client first saw the new card. It fails
// when, after the hook, every fresh read serves a new card and the
// client's revalidation still keeps confirming the old one. "Each
// instance's" time, and "never an older generation again", need single
// instances: through one endpoint a rolling deployment rightly answers from
// both generations until it is done, so the spec never passes here.
func consistencyByHook(ctx context.Context, t *suites.T, hk suites.HookRunner, point string) {
	cached := targetCards(ctx, t, 1, "before the hook")[0]
	old := version(cached)
	type result struct {
		gen int
		err error
	}
	began := time.Now()
	done := make(chan result, 1)
	hctx, stop := context.WithCancel(ctx)
	defer stop()
	var account string
	go func() {
		gen, acc, err := hk.RunHook(hctx, point, t.Info.ID, nil, "")
		account = acc
		done <- result{gen, err}
	}()
	var seen []string
	newAt := time.Duration(-1)
	flips := 0
	revalidate := func() {
		h := map[string]string{}
		if tag := cached.Header.Get("ETag"); tag != "" {
			h["If-None-Match"] = tag
		}
		cr, err := fetchCard(ctx, t, t.Env.BaseURL, h)
		if err != nil || (cr.Status != http.StatusOK && cr.Status != http.StatusNotModified) {
			return // the deployment is changing: a gateway may answer 502/503 for a while
		}
		if cr.Status == http.StatusOK {
			cached = cr
		}
		ver := version(cached)
		if len(seen) == 0 || seen[len(seen)-1] != ver {
			if newAt >= 0 && ver == old {
				flips++
			}
			seen = append(seen, ver)
		}
		if ver != old && newAt < 0 {
			newAt = time.Since(began)
		}
	}
	var res result
	hookDone := time.Time{}
	for hookDone.IsZero() || time.Since(hookDone) < 2*t.Settle() {
		if hookDone.IsZero() {
			select {
			case res = <-done:
				hookDone = time.Now()
			default:
			}
		}
		revalidate()
		pause := hookPoll
		if time.Since(began) > hookPollSlow {
			pause = hookPollLate
		}
		select {
		case <-ctx.Done():
			// The spec's timeout covers the hook's; the hook ends with it.
		case <-time.After(pause):
		}
		if ctx.Err() != nil {
			break
		}
	}
	if hookDone.IsZero() {
		res = <-done
		hookDone = time.Now()
	}
	if account != "" {
		t.Observe("hook."+point, account)
	}
	if res.err != nil {
		t.CouldNotRun("the %s hook did not complete, so the deployment's state after it is unknown and nothing was judged on it: %v.", point, res.err)
	}
	t.Observe("generation", fmt.Sprint(res.gen))
	t.Observe("versions", fmt.Sprintf("revalidated through the target: %s (%d return(s) to %s after a newer version, allowed through one endpoint while the deployment rolls)", strings.Join(seen, " → "), flips, old))
	fresh := distinctCards(targetCards(ctx, t, hookSamples, "after the hook"))
	allNew := true
	var versions []string
	for _, cr := range fresh {
		versions = append(versions, version(cr))
		if version(cr) == old {
			allNew = false
		}
	}
	sort.Strings(versions)
	hookTook := hookDone.Sub(began).Round(time.Millisecond)
	switch {
	case newAt >= 0:
		t.Observe("time-to-consistency", fmt.Sprintf("through the target, the revalidating client first saw a new version %s after the hook began (the hook took %s)", newAt.Round(time.Millisecond), hookTook))
	case allNew:
		// The client never saw a new card, and every fresh read shows one:
		// one more revalidation, after the hook, settles it.
		revalidate()
		if newAt < 0 {
			t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card",
				Where:    fmt.Sprintf("card revalidated through the target during and after the %s hook (generation %d)", point, res.gen),
				Expected: "the revalidating client to see version " + strings.Join(versions, "/") + ", which every fresh read through the target serves",
				Actual:   fmt.Sprintf("still version %s %s after the hook ended: revalidation kept confirming the old card", old, time.Since(hookDone).Round(time.Millisecond))})
		}
	default:
		t.Unchecked("time to consistency", fmt.Sprintf("the card read through the target after the %s hook is still version %s (%d read(s): %s); a hook whose card has another version exercises it",
			point, old, hookSamples, strings.Join(versions, ", ")))
	}
	t.Unchecked("each instance's new card, and never an older generation again", fmt.Sprintf(
		"driver %q cannot address single instances: through the target a rolling deployment rightly answers from both generations until it is done, so per-instance order and times cannot be judged (the embedded and process drivers poll each instance)", driverName(t)))
}

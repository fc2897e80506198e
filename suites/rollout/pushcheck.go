package rollout

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// The push half of the rollout specs (ROLL-003, ROLL-004, ROLL-009): every
// config a spec registers carries credentials of its own (suites.PushHook),
// every delivery to it is checked against them and against the config's
// task (suites.T.PushBodies), and a config whose task's terminal state did
// not arrive is judged fairly: late is not lost. A delivery that is only
// late (none within patience after the task ended, and nothing later
// delivered either) leaves the config unjudged, indeterminate with what was
// waited; only a loss the spec can prove is a violation: the state never
// arrived while a later one of the same deployment did (another of the
// spec's configs whose task ended no earlier, or a witness config
// registered after the wait ran out).

// pushSchemes alternates the schemes of a spec's configs, so that both
// Authorization forms the harness invents are delivered across a rollout.
var pushSchemes = []string{"Bearer", "Basic"}

// owedPush is one config of the spec's own and the terminal state its task
// owes it.
type owedPush struct {
	hook              *suites.PushHook
	taskID, contextID string
	// where describes the config in a report (how it was registered).
	where string
	// end is the terminal state the task reached, endAt when the spec saw it.
	end   a2a.TaskState
	endAt time.Time
	// at is when the end arrived: trusted (the config's credentials),
	// acknowledged, about the config's own task. Zero: it did not.
	at time.Time
	// bad holds the deliveries' violations (credentials, body, task).
	bad []invariants.Violation
}

// delivered reports whether the owed state arrived.
func (p *owedPush) delivered() bool { return !p.at.IsZero() }

// arrival is when the hook's deliveries first carried state of taskID
// (trusted, acknowledged, about that task), zero when none did.
func arrival(t *suites.T, h *suites.PushHook, taskID string, state a2a.TaskState) time.Time {
	for _, d := range h.Acknowledged(t) {
		if s, ok := d.Resp.State(); ok && s == state && d.TaskID() == taskID {
			return d.At
		}
	}
	return time.Time{}
}

// misdelivered reports whether the end state came to the hook, but not as
// the config's (other credentials, another task): nothing better is coming
// to wait for, and PushBodies reports it.
func misdelivered(t *suites.T, p *owedPush) bool {
	for _, d := range p.hook.Deliveries(t) {
		if s, ok := d.Resp.State(); ok && s == p.end && (!d.Trusted() || d.TaskID() != p.taskID) {
			return true
		}
	}
	return false
}

// awaitPushes waits until each owed config got its task's end or patience
// after that end ran out, all at once.
func awaitPushes(ctx context.Context, t *suites.T, owed []*owedPush) {
	for {
		waiting := false
		for _, p := range owed {
			if p.delivered() {
				continue
			}
			if p.at = arrival(t, p.hook, p.taskID, p.end); p.delivered() {
				continue
			}
			if time.Since(p.endAt) < t.Patience() && !misdelivered(t, p) {
				waiting = true
			}
		}
		if !waiting || ctx.Err() != nil {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(suites.Poll):
		}
	}
}

// pushVerdict is how a spec's owed configs ended.
type pushVerdict struct {
	delivered, lost, late, bad int
	// latencies are from the task's end (as the spec saw it) to the arrival.
	latencies []time.Duration
	losses    []invariants.Violation
	// lateText names the configs whose end did not arrive and could not be
	// proved lost.
	lateText []string
	// witness says what the witness config showed, when one was needed.
	witness string
}

// judgePushes waits for every owed config, records each one's delivery
// violations (wrong credentials, another task, a bad body: §4.3.3), proves
// the losses and returns the counts. witness, when not nil, registers a
// config after the wait ran out for a fresh task of the same deployment and
// returns it ended (nil when it could not); it is called only when some end
// did not arrive and no later one of the spec's own did. rolled, when not
// zero, is when the deployment began to change (gen its new generation):
// credentials honoured before it and not after it are scenario 1's shape,
// reported as such. invariant and expected name the loss violation.
func judgePushes(ctx context.Context, t *suites.T, owed []*owedPush, witness func() *owedPush, rolled time.Time, gen int, invariant, expected string) pushVerdict {
	awaitPushes(ctx, t, owed)
	var v pushVerdict
	missing := 0
	for _, p := range owed {
		p.bad = t.PushBodies(p.hook, p.taskID, p.contextID, p.where)
		if !rolled.IsZero() {
			p.bad = append(p.bad, credentialsAcrossRoll(t, p, rolled, gen)...)
		}
		t.Record(p.bad...)
		if !p.delivered() && len(p.bad) == 0 {
			missing++
		}
	}
	// A later end delivered, or else a witness's, is what proves a loss.
	later := func(p *owedPush) *owedPush {
		for _, q := range owed {
			if q != p && q.delivered() && !q.endAt.Before(p.endAt) {
				return q
			}
		}
		return nil
	}
	var w *owedPush
	if missing > 0 && witness != nil {
		proved := true
		for _, p := range owed {
			if !p.delivered() && len(p.bad) == 0 && later(p) == nil {
				proved = false
			}
		}
		if !proved {
			if w = witness(); w != nil {
				awaitPushes(ctx, t, []*owedPush{w})
				w.bad = t.PushBodies(w.hook, w.taskID, w.contextID, w.where)
				t.Record(w.bad...)
				// Any push of the witness's own, trusted, shows that the
				// deployment delivers pushes due after the missing ones.
				first := time.Time{}
				for _, d := range w.hook.Acknowledged(t) {
					if d.TaskID() == w.taskID {
						first = d.At
						break
					}
				}
				switch {
				case w.delivered():
					v.witness = fmt.Sprintf("a witness config of task %s, registered once the wait ran out, got %s %s after its task ended (as polled)", w.taskID, w.end, lat(w.at.Sub(w.endAt)))
				case !first.IsZero():
					v.witness = fmt.Sprintf("a witness config of task %s, registered once the wait ran out, got pushes (%s) though not its end", w.taskID, suites.DescribeDeliveries(w.hook.Deliveries(t)))
					w.at = first
				default:
					v.witness = fmt.Sprintf("a witness config of task %s, registered once the wait ran out, got no %s either within %s (%s)", w.taskID, w.end, t.Patience().Round(time.Millisecond), suites.DescribeDeliveries(w.hook.Deliveries(t)))
					w = nil
				}
			}
		}
	}
	for _, p := range owed {
		switch {
		case p.delivered():
			v.delivered++
			v.latencies = append(v.latencies, p.at.Sub(p.endAt))
		case len(p.bad) > 0:
			v.bad++
		default:
			proof := later(p)
			if proof == nil && w != nil {
				proof = w
			}
			if proof == nil {
				if silence := t.VouchedSilence(); silence != "" {
					v.lost++
					v.losses = append(v.losses, invariants.Violation{Invariant: invariant, Where: p.where,
						Expected: "a delivery of " + string(p.end) + ", the state the task reached (" + expected + ")",
						Actual:   fmt.Sprintf("none within %s after the task ended (%s); %s", t.Patience().Round(time.Millisecond), suites.DescribeDeliveries(p.hook.Deliveries(t)), silence)})
					continue
				}
				v.late++
				v.lateText = append(v.lateText, fmt.Sprintf("%s: no %s within %s after the task ended (%s)", p.where, p.end, t.Patience().Round(time.Millisecond), suites.DescribeDeliveries(p.hook.Deliveries(t))))
				continue
			}
			v.lost++
			v.losses = append(v.losses, invariants.Violation{Invariant: invariant, Where: p.where,
				Expected: "a delivery of " + string(p.end) + ", the state the task reached (" + expected + ")",
				Actual: fmt.Sprintf("none within %s after the task ended (%s), while a push about task %s, which ended %s later, arrived %s after that end (as polled): lost, not late",
					t.Patience().Round(time.Millisecond), suites.DescribeDeliveries(p.hook.Deliveries(t)), proof.taskID,
					lat(proof.endAt.Sub(p.endAt)), lat(proof.at.Sub(proof.endAt)))})
		}
	}
	return v
}

// credentialsAcrossRoll is scenario 1's shape, named: the config's own
// credentials came with its deliveries before the deployment changed, and
// other credentials after it (an agent that signs pushes the card's way
// once the card rotated). PushBodies already reports each such delivery;
// this says that the rotation is what changed them.
func credentialsAcrossRoll(t *suites.T, p *owedPush, rolled time.Time, gen int) []invariants.Violation {
	var before, after int
	for _, d := range p.hook.Deliveries(t) {
		switch {
		case d.Trusted() && d.At.Before(rolled):
			before++
		case d.Untrusted == webhook.Unauthenticated && !d.At.Before(rolled):
			after++
		}
	}
	if before == 0 || after == 0 {
		return nil
	}
	return []invariants.Violation{{Invariant: "push-credentials-across-rotation", Where: p.where,
		Expected: "every push with the config's own " + p.hook.Config.Authentication.Scheme + " credentials, before and after the rotation to generation " + fmt.Sprint(gen) + " (§4.3.3: the agent MUST put the credentials the push config specifies in the request headers)",
		Actual:   fmt.Sprintf("%s with them before the rotation, %s with other credentials after it (scenario 1: credentials taken from somewhere else than the task's config, e.g. the rotated card)", plural(before, "push"), plural(after, "push"))}}
}

// latencyText summarises the delivery latencies (min, median, max).
func latencyText(ls []time.Duration) string {
	if len(ls) == 0 {
		return "none delivered"
	}
	s := append([]time.Duration(nil), ls...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return fmt.Sprintf("from the task's end (as polled) to the terminal push: min %s, median %s, max %s (n=%d)", lat(s[0]), lat(s[len(s)/2]), lat(s[len(s)-1]), len(s))
}

// lat shows a latency measured against a polled end: a push may arrive
// before the poll that saw the end, which counts as no latency.
func lat(d time.Duration) string { return max(d, 0).Round(time.Millisecond).String() }

// lateReason is the indeterminate reason for configs whose end did not
// arrive within patience and could not be proved lost.
func (v pushVerdict) lateReason(t *suites.T) string {
	more := ""
	if v.witness != "" {
		more = "; " + v.witness
	}
	return fmt.Sprintf("%s got no delivery of its task's end within %s after the task ended, and no later push of the deployment arrived either, so late cannot be told from lost (%s%s); raise --patience for an agent whose pushes take longer",
		plural(v.late, "config"), t.Patience().Round(time.Millisecond), suites.Cut(strings.Join(v.lateText, "; "), 1200), more)
}

// witnessVia returns a witness for judgePushes: a task of script s started
// through c with an inline config of its own (one request, so that the
// instance that accepts the config also runs the task), awaited to its end.
// It returns nil when the config or the task could not be had.
func witnessVia(ctx context.Context, t *suites.T, c *client.Client, s suites.Script, where string) func() *owedPush {
	return func() *owedPush {
		h := t.NewPushHook("Bearer")
		msg := t.Scripted(s)
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
			Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true, TaskPushNotificationConfig: h.For("")}})
		if err != nil || resp == nil || resp.Task == nil {
			return nil
		}
		h.Accepted(resp.Task.ID, nil)
		end, _ := awaitEnd(ctx, t, c, resp.Task.ID)
		if !end.Terminal() {
			return nil
		}
		return &owedPush{hook: h, taskID: resp.Task.ID, contextID: resp.Task.ContextID, end: end, endAt: time.Now(),
			where: "witness config of task " + resp.Task.ID + " (" + where + ")"}
	}
}

// listedAfterRoll checks, for each config whose task is still running after
// the roll, that the deployment still lists it: a config MUST persist until
// the task completes (§3.1.7) and List MUST return all active configs, so a
// config missing from the list of a running task is a registration lost
// with the instance that took it, whatever the pushes do later. A task that
// ended (configs may go with it), a List the agent refuses, or a list with
// more pages is not judged. It returns how many configs were checked.
func listedAfterRoll(ctx context.Context, t *suites.T, c *client.Client, hooks []*suites.PushHook, gen int) int {
	checked := 0
	for _, h := range hooks {
		id := h.Config.TaskID
		running := func() (a2a.TaskState, bool) {
			task, err := t.Get(ctx, c, id)
			if err != nil {
				return "", false
			}
			st := task.Status.State
			return st, !st.Terminal() && !st.Interrupted()
		}
		if _, ok := running(); !ok {
			continue
		}
		resp, err := c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: id})
		if err != nil || resp == nil {
			continue
		}
		found := false
		for _, cfg := range resp.Configs {
			if (h.Config.ID != "" && cfg.ID == h.Config.ID) || cfg.URL == h.Config.URL {
				found = true
			}
		}
		if found || resp.NextPageToken != "" {
			checked++
			continue
		}
		st, ok := running()
		if !ok {
			continue // it ended meanwhile: its configs may have gone with it
		}
		checked++
		t.Record(invariants.Violation{Invariant: "push-config-survives-rollout",
			Where:    fmt.Sprintf("ListTaskPushNotificationConfigs for task %s (still %s) after the roll to generation %d", id, st, gen),
			Expected: "its config " + configID(h.Config.ID) + " listed (§3.1.7: a config MUST persist until the task completes or is deleted; List MUST return all active configs)",
			Actual:   fmt.Sprintf("%s listed, not this one: the registration was lost with the instance that took it", plural(len(resp.Configs), "config"))})
	}
	return checked
}

package webhook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// failFirst is how many attempts to the config the receiver answers 503:
// one, the least that shows a retry (STYLE.md, "Ask for the least"). A2A
// lets an agent stop attempting delivery after a configured number of
// consecutive failures (A2A v1.0.1 §4.3.3, §13.2), so a
// second refusal in a row would judge how long it persists, which the text
// leaves to it; and with backoff base B the first retry comes about B after
// the refusal, where a second refusal would push the acknowledged attempt
// out to about 3·B.
const failFirst = 1

// eventKey names the event a push carries, so that a retry is recognised
// whatever the agent re-serialised: a status by its state, an artifact
// chunk by its artifact id and content, a task snapshot by its state.
func eventKey(d webhook.Delivery) string {
	r := d.Resp
	switch {
	case r.StatusUpdate != nil:
		return "status " + string(r.StatusUpdate.Status.State)
	case r.ArtifactUpdate != nil:
		b, _ := json.Marshal(r.ArtifactUpdate.Artifact.Parts)
		sum := sha256.Sum256(b)
		return "artifact " + r.ArtifactUpdate.Artifact.ArtifactID + " " + hex.EncodeToString(sum[:6])
	case r.Task != nil:
		return "task " + string(r.Task.Status.State)
	case r.Message != nil:
		return "message " + r.Message.MessageID
	}
	return "undecodable"
}

// PUSH-007 (§4.3.3, §13.2 SHOULD): retries after 5xx.
var _ = suites.Spec("PUSH-007", func(ctx context.Context, t *suites.T) {
	needPush(t)
	c := t.Client()
	h := newHook(t, "Bearer")
	t.Env.Webhook.Script(h.Token, webhook.Script{First: failFirst, Status: 503})
	task := start(ctx, t, c, workingScript, h)
	defer endTask(ctx, c, task)
	_, ended := follow(ctx, t, c, task.ID, h.Acked)
	// The events the failed attempts carried, and whether each arrived.
	outstanding := func() (failed []string, missing []string) {
		ds := h.Deliveries(t)
		ok := acknowledged(ds)
		for _, d := range ds {
			if d.Scripted {
				k := eventKey(d)
				failed = append(failed, k)
				if _, came := ok[k]; !came {
					missing = append(missing, k)
				}
			}
		}
		return failed, missing
	}
	began := time.Now()
	wait := t.Env.Options.RetryWait()
	// deadline is the patience after the task ended, or the retry wait after
	// the first refused attempt, whichever is later.
	deadline := func() time.Time {
		d := began.Add(t.Patience())
		if at, ok := refusedAt(h.Deliveries(t)); ok && at.Add(wait).After(d) {
			d = at.Add(wait)
		}
		return d
	}
	for {
		failed, unacked := outstanding()
		if len(failed) >= failFirst && len(unacked) == 0 && h.Pushed(t, task.ID, isTerminal) {
			break
		}
		if time.Now().After(deadline()) || ctx.Err() != nil {
			break
		}
		if len(failed) == 0 && time.Since(began) > t.Patience()+suites.PushGrace {
			// No attempt the receiver failed on purpose (none at all, or
			// only ones refused for their credentials, which checkBodies
			// judges): there is no retry to wait for.
			break
		}
		pause(ctx, suites.Poll)
	}
	ds := h.Deliveries(t)
	waited := time.Since(began)
	window := fmt.Sprintf("%s after the task ended (the patience %s, or %s after the refused attempt, whichever ended later)",
		waited.Round(time.Millisecond), t.Patience().Round(time.Millisecond), wait)
	if at, ok := refusedAt(ds); ok {
		window = fmt.Sprintf("%s after the refused attempt (the wait is %s, --push-retry-wait), %s after the task ended", time.Since(at).Round(time.Millisecond), wait, waited.Round(time.Millisecond))
	}
	t.Observe("pushes", describe(ds))
	t.Observe("waited", window)
	bodies := t.PushBodies(h, task.ID, task.ContextID, "")
	t.Record(bodies...)
	if len(ds) == 0 {
		missing(ctx, t, c, h, task.ID, "the task's first push (the receiver was to answer the first "+fmt.Sprint(failFirst)+" attempts with 503)", suites.PushWait{Waited: waited}, func(a2a.TaskState) bool { return true }, began)
		return
	}
	// Intervals between attempts of the same event; duplicates counted.
	byKey := map[string][]time.Time{}
	acks := map[string]int{}
	var order []string
	for _, d := range ds {
		k := eventKey(d)
		if _, seen := byKey[k]; !seen {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], d.At)
		if d.Trusted() && d.Acknowledged() {
			acks[k]++
		}
	}
	var intervals, dups []string
	for _, k := range order {
		ts := byKey[k]
		if len(ts) > 1 {
			var iv []string
			for i := 1; i < len(ts); i++ {
				iv = append(iv, ts[i].Sub(ts[i-1]).Round(time.Millisecond).String())
			}
			intervals = append(intervals, k+": "+strings.Join(iv, ", "))
		}
		if acks[k] > 1 {
			dups = append(dups, fmt.Sprintf("%s x%d", k, acks[k]))
		}
	}
	if len(intervals) > 0 {
		t.Observe("retry-intervals", strings.Join(intervals, "; "))
	}
	t.Observe("duplicates", fmt.Sprintf("%d (allowed: delivery is at least once) %s", len(dups), strings.Join(dups, "; ")))
	failed, unacked := outstanding()
	if len(failed) < failFirst && !h.Pushed(t, task.ID, isTerminal) {
		// Not even enough attempts arrived to fail them all: nothing to judge
		// about retries beyond the loss below.
		t.Observe("failed-attempts", fmt.Sprint(len(failed)))
	}
	// A retry that has not come within the wait is a SHOULD missed (the
	// spec's level: it warns, naming the wait) when the agent delivered
	// later events to the same config meanwhile: the receiver was up and
	// the agent was pushing to it, yet the refused event was left behind
	// (STYLE.md, "Late is not lost": loss shows as later deliveries
	// without it). When nothing at all arrived after the refusal, a slow
	// queue cannot be told from no retry: indeterminate, naming the wait.
	var silent []string
	for _, k := range unacked {
		if !deliveredAfterRefusal(ds, k) {
			silent = append(silent, k)
			continue
		}
		t.Record(invariants.Violation{Invariant: "push-retry", Where: "config of task " + task.ID,
			Expected: "the event (" + k + ") the receiver answered 503 retried until it is acknowledged",
			Actual:   "not retried, while later pushes to the config were acknowledged; waited " + window})
	}
	// A terminal state missing while nothing at all came after the refusal
	// is the indeterminate below, not a second finding: an agent that
	// delivers a config's events in order holds the terminal state behind
	// the retry it has not sent yet.
	terminalMissing := !h.Pushed(t, task.ID, isTerminal)
	if terminalMissing && len(silent) == 0 {
		t.Record(invariants.Violation{Invariant: "push-retry", Where: "config of task " + task.ID,
			Expected: "the terminal state " + string(ended.Status.State) + " pushed and acknowledged",
			Actual:   fmt.Sprintf("%s, within %s after the task ended", describe(ds), waited.Round(time.Millisecond))})
	}
	if len(failed) < failFirst && len(unacked) == 0 && h.Pushed(t, task.ID, isTerminal) {
		t.TooFast("only %d push attempt(s) arrived before the terminal one was acknowledged, so no failed push was there to retry (the task had too few events after the config)", len(failed))
	}
	if (len(unacked) > 0 || terminalMissing) && len(bodies) == 0 {
		// The verdict rests on what has not come yet (the retry, or the
		// terminal state an agent that delivers in order holds behind it):
		// look again at the run's end.
		t.Later(lateRetry(t, h, task.ID, task.ContextID, unacked, wait))
	}
	if len(silent) > 0 {
		t.Indeterminate("no push reached the receiver after it refused %s, within %s: whether the agent retries later, or not at all, cannot be told (late is not lost; the spec looks again when the run ends, and --push-retry-wait lengthens the wait)",
			strings.Join(silent, ", "), window)
	}
})

// lateRetry is PUSH-007's look at the run's end (suites.T.Later), taken
// when its verdict rested on a retry or a terminal push it had not seen: if
// every refused event has since been retried and acknowledged, and the
// terminal state pushed, with bodies still sound, the spec passes, and says
// how late they came. Otherwise the result stands, and its reason says the
// run's end was waited for too.
func lateRetry(t *suites.T, h *hook, taskID, contextID string, refused []string, wait time.Duration) func(*reports.Result) (string, bool) {
	return func(r *reports.Result) (string, bool) {
		ds := h.Deliveries(t)
		acked := acknowledged(ds)
		at, _ := refusedAt(ds)
		since := "after the task ended"
		if !at.IsZero() {
			since = fmt.Sprintf("%s after the refused attempt", time.Since(at).Round(time.Second))
		}
		var late []string
		for _, k := range refused {
			got, ok := acked[k]
			if !ok {
				r.Reason += fmt.Sprintf(" Looked again when the run ended, %s: %s still not retried.", since, k)
				return "", true
			}
			late = append(late, fmt.Sprintf("%s retried %s after the refused attempt", k, got.Sub(at).Round(time.Millisecond)))
		}
		if got, ok := h.PushedAt(t, taskID, isTerminal); !ok {
			r.Reason += fmt.Sprintf(" Looked again when the run ended, %s: the terminal state still not pushed.", since)
			return "", true
		} else if at.IsZero() {
			late = append(late, "the terminal state pushed after the spec stopped waiting")
		} else {
			late = append(late, fmt.Sprintf("the terminal state pushed %s after the refused attempt", got.Sub(at).Round(time.Millisecond)))
		}
		if len(t.PushBodies(h, taskID, contextID, "")) > 0 {
			return "", false
		}
		var kept []invariants.Violation
		for _, v := range r.Violations {
			if v.Invariant != "push-retry" {
				kept = append(kept, v)
			}
		}
		if len(kept) > 0 {
			return "", false
		}
		saw := strings.Join(late, "; ") + fmt.Sprintf(", later than the spec's wait (%s) but before the run ended: a retry with backoff, as §13.2 asks (late is not lost)", wait)
		r.Verdict, r.Reason, r.Violations = reports.Pass, "", nil
		if r.Observations == nil {
			r.Observations = map[string]string{}
		}
		r.Observations["late-retry"] = saw
		return saw, true
	}
}

// acknowledged maps each event the receiver acknowledged, with the
// config's credentials, to when it first did (eventKey).
func acknowledged(ds []webhook.Delivery) map[string]time.Time {
	acked := map[string]time.Time{}
	for _, d := range ds {
		if k := eventKey(d); d.Trusted() && d.Acknowledged() {
			if _, seen := acked[k]; !seen {
				acked[k] = d.At
			}
		}
	}
	return acked
}

func refusedAt(ds []webhook.Delivery) (time.Time, bool) {
	for _, d := range ds {
		if d.Scripted {
			return d.At, true
		}
	}
	return time.Time{}, false
}

// deliveredAfterRefusal reports whether, after the receiver refused the
// event k, another event reached it with the config's credentials and was
// acknowledged: the agent was delivering to the config, and did not bring k.
func deliveredAfterRefusal(ds []webhook.Delivery, k string) bool {
	var refused time.Time
	for _, d := range ds {
		if d.Scripted && eventKey(d) == k {
			refused = d.At
			break
		}
	}
	if refused.IsZero() {
		return false
	}
	for _, d := range ds {
		if d.At.After(refused) && d.Trusted() && d.Acknowledged() && eventKey(d) != k {
			return true
		}
	}
	return false
}

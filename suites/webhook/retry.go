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
	"github.com/a2a-conform/a2a-conform/suites"
)

// failFirst is how many attempts to the config the receiver answers 503.
const failFirst = 2

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

// RetryWait bounds the wait for the retries of PUSH-007 (or the patience,
// when longer). A2A leaves the schedule to the agent: it "MAY retry with
// exponential backoff", §13.2 makes retrying a SHOULD and recommends
// 10–30 s timeouts for webhook calls (A2A v1.0 §4.3.3). The receiver fails the
// first two attempts, so the third is the one acknowledged: with backoff
// base B it comes about 3·B after the first (B, then 2·B). A minute covers a
// first retry at 15–20 s, as an agent that spaces its retries like its
// recommended timeouts does. The wait ends as soon as the retry is
// acknowledged, so an agent that retries at once costs no more.
const RetryWait = time.Minute

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
		ok := map[string]bool{}
		for _, d := range h.Deliveries(t) {
			if d.Trusted() && d.Acknowledged() {
				ok[eventKey(d)] = true
			}
		}
		for _, d := range h.Deliveries(t) {
			if d.Scripted {
				k := eventKey(d)
				failed = append(failed, k)
				if !ok[k] {
					missing = append(missing, k)
				}
			}
		}
		return failed, missing
	}
	began := time.Now()
	bound := max(t.Patience(), RetryWait)
	deadline := began.Add(bound)
	for {
		failed, unacked := outstanding()
		if len(failed) >= failFirst && len(unacked) == 0 && h.Pushed(t, task.ID, isTerminal) {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
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
	t.Observe("pushes", describe(ds))
	t.Observe("waited", fmt.Sprintf("%s after the task ended (bound %s)", waited.Round(time.Millisecond), bound))
	checkBodies(t, h, task.ID, task.ContextID)
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
	// A retry that has not come within the bound is a SHOULD missed (the
	// spec's level): it warns, naming the time waited.
	for _, k := range unacked {
		t.Record(invariants.Violation{Invariant: "push-retry", Where: "config of task " + task.ID,
			Expected: "the event (" + k + ") the receiver answered 503 retried until it is acknowledged",
			Actual:   fmt.Sprintf("not acknowledged within %s after the task ended (waited %s)", bound, waited.Round(time.Millisecond))})
	}
	if !h.Pushed(t, task.ID, isTerminal) {
		t.Record(invariants.Violation{Invariant: "push-retry", Where: "config of task " + task.ID,
			Expected: "the terminal state " + string(ended.Status.State) + " pushed and acknowledged",
			Actual:   fmt.Sprintf("%s, within %s after the task ended", describe(ds), waited.Round(time.Millisecond))})
	}
	if len(failed) < failFirst && len(unacked) == 0 && h.Pushed(t, task.ID, isTerminal) {
		t.Indeterminate("only %d push attempt(s) arrived before the terminal one was acknowledged, so no failed push was there to retry (the task had too few events after the config)", len(failed))
	}
})

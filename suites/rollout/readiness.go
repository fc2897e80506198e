package rollout

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// readyPoll is the pause between card requests to a starting instance.
const readyPoll = 50 * time.Millisecond

// startBound bounds the wait for a starting instance's first 200: a real
// agent's cold start (runtime, migrations) is seconds, never minutes.
const startBound = 30 * time.Second

// minPushBound is the least time a push may take after the first 200 before
// the instance counts as not ready for it: well above loopback latency.
const minPushBound = time.Second

// firstDelivery sends a scripted task with an inline push config through c
// and returns how long its first delivery took (-1: none within patience).
func firstDelivery(ctx context.Context, t *suites.T, send func(cfg *a2a.SendMessageConfiguration) *a2a.Task, patience time.Duration) (time.Duration, *a2a.Task, string) {
	token := t.WebhookToken()
	got := make(chan struct{}, 1)
	t.Env.Webhook.OnDelivery(token, func(webhook.Delivery) {
		select {
		case got <- struct{}{}:
		default:
		}
	})
	began := time.Now()
	task := send(&a2a.SendMessageConfiguration{TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: t.Env.Webhook.URL(token)}})
	select {
	case <-got:
		return time.Since(began), task, token
	case <-time.After(patience):
		return -1, task, token
	case <-ctx.Done():
		return -1, task, token
	}
}

// ROLL-004 (§8.3, §3.1.7, §3.1.2, scenario 2): while an instance starts, the
// harness polls its card directly. 503 (with Retry-After) until it is ready
// is correct. From its first 200 on, what the card claims works at once: a
// push config registered through it with a task whose transitions follow is
// delivered within the deployment's normal push latency, and a stream
// through it runs to the terminal state. The spec stops every other instance
// first, so that no other instance's dispatcher covers for this one.
var _ = suites.Spec("ROLL-004", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 1)
	rs, ok := t.Env.Topology.(suites.InstanceRestarter)
	if !ok {
		t.CouldNotRun("driver %q cannot stop and start single instances; the embedded and process drivers can.", driverName(t))
	}
	card := t.Card()
	push := card.PushNotifications() && t.Env.Webhook != nil
	script := slowScript(crossStep)

	// The deployment's normal push latency, measured before anything stops.
	baseline := time.Duration(-1)
	if push {
		c := via(t, inst, 0)
		baseline, _, _ = firstDelivery(ctx, t, func(cfg *a2a.SendMessageConfiguration) *a2a.Task {
			task, _ := start(ctx, t, c, script, cfg)
			return task
		}, t.Patience())
		if baseline < 0 {
			t.Indeterminate("no push arrived within %s from the running deployment, so there is no normal push latency to hold a starting instance to (webhook specs judge delivery itself)", t.Patience())
		}
		t.Observe("push-latency.baseline", baseline.Round(time.Millisecond).String())
	}

	names := inst.InstanceNames()
	for k, name := range names {
		if name != "" {
			if err := rs.StopInstance(ctx, k); err != nil {
				t.Indeterminate("stopping instance %d failed: %v", k, err)
			}
		}
	}
	defer func() {
		for k, name := range names {
			if name != "" && inst.InstanceNames()[k] == "" {
				rs.StartInstance(context.Background(), k, true)
			}
		}
	}()
	if err := rs.StartInstance(ctx, 0, false); err != nil {
		t.Indeterminate("starting instance 0 failed: %v", err)
	}
	began := time.Now()
	var statuses []string
	var ready *time.Time
	for time.Since(began) < startBound && ctx.Err() == nil {
		cr, err := fetchCard(ctx, t, inst.InstanceURL(0), nil)
		switch {
		case err != nil:
			statuses = appendRun(statuses, "no answer")
		case cr.Status == http.StatusServiceUnavailable:
			statuses = appendRun(statuses, "503")
			if cr.Header.Get("Retry-After") == "" {
				t.Should(invariants.Violation{Invariant: "retry-after", Where: "card of the starting instance at " + since(began),
					Expected: "Retry-After with the 503 (§11: servers MAY send it; the harness's and clients' retry relies on it)", Actual: "none"})
			}
		case cr.Status == http.StatusOK:
			now := time.Now()
			ready = &now
		default:
			statuses = appendRun(statuses, fmt.Sprintf("%d", cr.Status))
		}
		if ready != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(readyPoll):
		}
	}
	if ready == nil {
		t.Indeterminate("the starting instance served no card within %s (%s)", startBound, strings.Join(statuses, ", "))
	}
	if len(statuses) == 0 {
		statuses = []string{"no 503"}
	}
	t.Observe("start", fmt.Sprintf("%s, then 200 after %s", strings.Join(statuses, ", "), ready.Sub(began).Round(time.Millisecond)))

	c := via(t, inst, 0)
	if push {
		bound := max(suites.PatienceFactor*baseline, minPushBound)
		regAt := since(*ready)
		took, task, token := firstDelivery(ctx, t, func(cfg *a2a.SendMessageConfiguration) *a2a.Task {
			task, _ := start(ctx, t, c, script, cfg)
			return task
		}, bound)
		tookText := "none"
		if took >= 0 {
			tookText = took.Round(time.Millisecond).String()
		}
		t.Observe("push-latency.after-first-200", fmt.Sprintf("%s (bound %s)", tookText, bound.Round(time.Millisecond)))
		if took < 0 {
			late := waitDelivery(ctx, t.Env.Webhook, token, script.Settles(), t.Patience())
			t.Record(invariants.Violation{Invariant: "card-only-when-ready", Where: fmt.Sprintf("push config of task %s, registered through the starting instance %s after its first 200", task.ID, regAt),
				Expected: fmt.Sprintf("a delivery within %s (%d× the deployment's push latency of %s, at least %s): the card claimed push notifications", bound.Round(time.Millisecond), suites.PatienceFactor, baseline.Round(time.Millisecond), minPushBound),
				Actual:   fmt.Sprintf("none by then; %s within %s more (%s): the instance served its card before its dispatcher ran", plural(len(late.all), "delivery"), t.Patience().Round(time.Millisecond), strings.TrimSpace(late.states))})
		}
	} else {
		t.Unchecked("pushes work from the first 200", "the card advertises no push notifications or the run has no webhook receiver")
	}
	if card.Streaming() {
		msg := t.Scripted(script)
		s, err := c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
		if err != nil {
			t.Record(invariants.Violation{Invariant: "card-only-when-ready", Where: "SendStreamingMessage through the starting instance",
				Expected: "a stream (the card claims streaming)", Actual: suites.ErrText(err)})
		} else {
			sctx, stop := context.WithTimeout(ctx, t.Patience())
			evs, closed := t.Drain(sctx, s, "stream via the starting instance")
			stop()
			last := a2a.TaskState("")
			for _, ev := range evs {
				if st, ok := ev.Resp.State(); ok && ev.Err == nil {
					last = st
				}
			}
			t.Observe("stream", labels(evs))
			if !last.Terminal() || !closed {
				t.Record(invariants.Violation{Invariant: "card-only-when-ready", Where: "SendStreamingMessage through the starting instance",
					Expected: "events to the terminal state, then the close", Actual: fmt.Sprintf("%s; closed by the agent: %v", labels(evs), closed)})
			}
		}
	} else {
		t.Unchecked("streams work from the first 200", "the card does not advertise streaming")
	}
})

// appendRun appends s, folding repeats into "s ×n".
func appendRun(runs []string, s string) []string {
	if n := len(runs); n > 0 {
		last := runs[n-1]
		base, count := last, 1
		if i := strings.LastIndex(last, " ×"); i >= 0 {
			base = last[:i]
			fmt.Sscanf(last[i+2:], "%d", &count)
		}
		if base == s {
			runs[n-1] = fmt.Sprintf("%s ×%d", s, count+1)
			return runs
		}
	}
	return append(runs, s)
}

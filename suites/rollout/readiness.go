package rollout

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
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

// firstDelivery sends a scripted task through c with an inline config of
// its own (fresh credentials) and returns how long the first delivery about
// that task took (trusted, acknowledged; -1: none within patience), the
// task and the hook. err is a refusal of the send (the task then is nil).
func firstDelivery(ctx context.Context, t *suites.T, c *client.Client, script suites.Script, patience time.Duration) (time.Duration, *a2a.Task, *suites.PushHook, error) {
	h := t.NewPushHook("Bearer")
	began := time.Now()
	msg := t.Scripted(script)
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true, TaskPushNotificationConfig: h.For("")}})
	if suites.RefusesWebhookURL(err) {
		return -1, nil, h, err
	}
	t.NoTask(c, script, resp, err)
	h.Accepted(resp.Task.ID, nil)
	deadline := began.Add(patience)
	for {
		for _, d := range h.Acknowledged(t) {
			if d.TaskID() == resp.Task.ID {
				return d.At.Sub(began), resp.Task, h, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return -1, resp.Task, h, nil
		}
		select {
		case <-ctx.Done():
		case <-time.After(suites.Poll):
		}
	}
}

// ROLL-004 (§8.3, §3.1.7, §3.1.2, scenario 2): while an instance starts, the
// harness polls its card directly. 503 (with Retry-After) until it is ready
// is correct. From its first 200 on, what the card claims works at once: a
// push config registered through it (with credentials of its own) with a
// task whose transitions follow gets its task's end, with those credentials
// and about that task, and a stream through it runs to the terminal state.
// A push slower than the deployment's normal latency (measured before) is
// only reported: late is not lost. It is lost when it never came while a
// witness registered later through the same instance got its own. The spec
// stops every other instance first, so that no other instance's dispatcher
// covers for this one.
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
	// A push part that cannot be judged ends the spec only after the
	// streams were (pushLate: indeterminate).
	baseline := time.Duration(-1)
	var pushLate string
	advertised := push
	baseBodies := func() []invariants.Violation { return nil }
	if push {
		c := via(t, inst, 0)
		took, task, h, err := firstDelivery(ctx, t, c, script, t.Patience())
		if err == nil && took < 0 {
			// Once more with a fresh task and config: the first may have
			// met an instance that had just started, and the baseline is
			// only there to measure the normal latency.
			t.Observe("push-latency.baseline.first-attempt", fmt.Sprintf("task %s: no push within %s (%s); measured again", task.ID, t.Patience().Round(time.Millisecond), suites.DescribeDeliveries(h.Deliveries(t))))
			first, firstHook := task, h
			baseBodies = func() []invariants.Violation {
				return t.PushBodies(firstHook, first.ID, first.ContextID, "first baseline push config of task "+first.ID+" on the running deployment")
			}
			took, task, h, err = firstDelivery(ctx, t, c, script, t.Patience())
		}
		switch {
		case err != nil:
			t.Unchecked("pushes work from the first 200", t.WebhookURLRefused(h.Config.URL, "SendMessage with configuration.taskPushNotificationConfig", err))
			push = false
		case took < 0 && t.ReachUnshown(h) != "":
			t.Unchecked("pushes work from the first 200", fmt.Sprintf("no push about task %s arrived from the running deployment, and %s", task.ID, t.ReachUnshown(h)))
			push = false
		case took < 0:
			pushLate = fmt.Sprintf("no push about task %s arrived within %s from the running deployment (%s), so there is no normal push latency to hold a starting instance to (webhook specs judge delivery itself; raise --patience for an agent whose pushes take longer)",
				task.ID, t.Patience().Round(time.Millisecond), suites.DescribeDeliveries(h.Deliveries(t)))
			push = false
		default:
			baseline = took
			t.Observe("push-latency.baseline", baseline.Round(time.Millisecond).String())
		}
		if task != nil {
			prev := baseBodies
			baseBodies = func() []invariants.Violation {
				return append(prev(), t.PushBodies(h, task.ID, task.ContextID, "baseline push config of task "+task.ID+" on the running deployment")...)
			}
		}
	}

	names := inst.InstanceNames()
	// Stopped, and started again at the end, all at once: a real agent
	// takes a second or more to start, and the run's exclusive specs wait
	// for each other.
	stopErrs := make([]error, len(names))
	var stopping sync.WaitGroup
	for k, name := range names {
		if name != "" {
			stopping.Go(func() { stopErrs[k] = rs.StopInstance(ctx, k) })
		}
	}
	stopping.Wait()
	defer func() {
		var starting sync.WaitGroup
		for k, name := range names {
			if name != "" && inst.InstanceNames()[k] == "" {
				starting.Go(func() { rs.StartInstance(context.Background(), k, true) })
			}
		}
		starting.Wait()
	}()
	for k, err := range stopErrs {
		if err != nil {
			t.Indeterminate("stopping instance %d failed: %v", k, err)
		}
	}
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
					Expected: "Retry-After with the 503 (§3.3.2: servers MAY include retry guidance; the harness's and clients' retry relies on it)", Actual: "none"})
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
		regAt, regTime := since(*ready), time.Now()
		took, task, h, err := firstDelivery(ctx, t, c, script, bound)
		if err != nil {
			t.Unchecked("pushes work from the first 200", "the starting instance "+t.WebhookURLRefused(h.Config.URL, "SendMessage with configuration.taskPushNotificationConfig", err)+" The running deployment had accepted it.")
		} else {
			where := fmt.Sprintf("push config of task %s, registered inline through the starting instance %s after its first 200", task.ID, regAt)
			end, still := awaitEnd(ctx, t, c, task.ID)
			if !end.Terminal() {
				pushLate = fmt.Sprintf("the task %s registered with a push config through the starting instance did not end within %s (%s)", task.ID, t.Patience().Round(time.Millisecond), still)
				t.Record(t.PushBodies(h, task.ID, task.ContextID, where)...)
			} else {
				pv := judgePushes(ctx, t, []*owedPush{{hook: h, taskID: task.ID, contextID: task.ContextID, end: end, endAt: time.Now(), where: where}},
					witnessVia(ctx, t, c, script, "started through the same instance once the wait ran out"), time.Time{}, 0,
					"card-only-when-ready", "the card claimed push notifications from its first 200 on; §3.1.7: a config persists until the task completes; §4.3.3: delivery at least once per configured webhook")
				t.Record(pv.losses...)
				if pv.late > 0 {
					pushLate = pv.lateReason(t)
				}
				// The first push, however late it came (firstDelivery
				// waited only the bound).
				tookText := "none"
				if took < 0 {
					for _, d := range h.Acknowledged(t) {
						if d.TaskID() == task.ID {
							took = d.At.Sub(regTime)
							break
						}
					}
				}
				if took >= 0 {
					tookText = took.Round(time.Millisecond).String()
					if took > bound {
						tookText += ", slower than the deployment's normal latency: late, not lost"
					}
				}
				t.Observe("push-latency.after-first-200", fmt.Sprintf("first push %s (normal latency %s, times %d, at least %s: %s); terminal push %s",
					tookText, baseline.Round(time.Millisecond), suites.PatienceFactor, minPushBound, bound.Round(time.Millisecond), latencyText(pv.latencies)))
				if pv.witness != "" {
					t.Observe("push-witness", pv.witness)
				}
			}
		}
	} else if !advertised {
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
	t.Record(baseBodies()...)
	if pushLate != "" {
		t.Indeterminate("%s", pushLate)
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

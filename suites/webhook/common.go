// Package webhook holds the push-notification specs (PUSH-NNN): config CRUD,
// inline registration, delivery, credentials, read-your-writes, retries,
// pushes after a cancel, durability across a restart, and SSRF. Every spec
// registers configs of its own that point at the run's receiver (one token
// per config, claimed for the spec) and judges only the deliveries to them.
package webhook

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Step is the per-step delay of scripted tasks that must stay working for a
// while under the directive extension; a prompt-map agent takes its own time.
const Step = 150 * time.Millisecond

// workingScript is a task that works for a while, then completes: WORKING,
// an artifact, COMPLETED (Least: a task that completes, which still has
// transitions after creation).
var workingScript = suites.Script{Outcome: directive.OutcomeCompleted, Delay: Step, Least: suites.PromptSlow}

// waitingScript is a task that stops in TASK_STATE_INPUT_REQUIRED until a
// message comes: it stays alive as long as a spec needs, then completes.
var waitingScript = suites.Script{Outcome: directive.OutcomeInputRequired}

// hook is one push config of the spec's own (suites.PushHook): a receiver
// token claimed for the spec, credentials invented here (redacted from every
// report) that the receiver requires, and the config to register.
type hook = suites.PushHook

// needPush ends the spec when push cannot be tried: not advertised (DISC-014
// judges that the operations are then refused) or no receiver.
func needPush(t *suites.T) {
	if !t.Card().PushNotifications() {
		t.NotApplicable("the card does not advertise capabilities.pushNotifications (DISC-014 checks that every push operation is then refused).")
	}
	if t.Env.Webhook == nil {
		t.CouldNotRun("the run has no webhook receiver.")
	}
}

// newHook makes a config for the run's receiver with scheme and fresh
// credentials (and a token).
func newHook(t *suites.T, scheme string) *hook { return t.NewPushHook(scheme) }

// awaitPush waits for a push of a state of the task that ok accepts
// (suites.T.AwaitPush: the patience, then suites.PushGrace); since is what
// its latency counts from (zero: now).
func awaitPush(ctx context.Context, t *suites.T, h *hook, taskID string, ok func(a2a.TaskState) bool, since time.Time) suites.PushWait {
	return t.AwaitPush(ctx, h, taskID, ok, since)
}

// observeLatency records the latencies of the pushes a spec waited for
// (observation push.latency), and how many came only in the grace after
// the patience: late, not lost.
func observeLatency(t *suites.T, ws ...suites.PushWait) {
	var lat []time.Duration
	late, missed := 0, 0
	for _, w := range ws {
		switch {
		case !w.Came:
			missed++
		default:
			lat = append(lat, w.Latency)
			if w.Late {
				late++
			}
		}
	}
	s := percentiles(lat) + ", from the event to its push"
	if late > 0 {
		s += fmt.Sprintf("; %d came after the patience, in the grace (late, not lost)", late)
	}
	if missed > 0 {
		s += fmt.Sprintf("; %d not within the wait", missed)
	}
	t.Observe("push.latency", s)
}

// missing decides a push that did not come within its wait
// (suites.T.PushOwed).
func missing(ctx context.Context, t *suites.T, c *client.Client, h *hook, taskID, what string, w suites.PushWait, ok func(a2a.TaskState) bool, since time.Time) bool {
	return t.PushOwed(ctx, c, h, taskID, what, w, ok, since)
}

// describe summarises what reached a hook.
func describe(ds []webhook.Delivery) string { return suites.DescribeDeliveries(ds) }

// checkBodies records a violation for every delivery to the hook that is
// not a valid one-member StreamResponse about taskID, or that is untrusted
// (unauthenticated: not the config's credentials).
func checkBodies(t *suites.T, h *hook, taskID, contextID string) {
	t.Record(t.PushBodies(h, taskID, contextID, "")...)
}

// create registers the hook on a task and records when it was acknowledged;
// a refusal ends the spec: of a task that had already ended, it is no fault
// (no transition was left to push) and the spec tries a longer task
// (suites.T.TooFast); of the harness's loopback URL by an agent that
// validates webhooks, could-not-run, naming --webhook-url; else a violation.
func create(ctx context.Context, t *suites.T, c *client.Client, h *hook, taskID string) {
	cfg := h.Config
	cfg.TaskID = taskID
	got, err := t.CreatePushConfig(ctx, c, &cfg)
	if err != nil {
		if now, gerr := t.Get(ctx, c, taskID); gerr == nil && now.Status.State.Terminal() {
			t.TooFast("task %s was already %s when its config was created (%s), so no transition was left to push; the task must work for longer",
				taskID, now.Status.State, suites.ErrText(err))
		}
		refused(t, c, h, "CreateTaskPushNotificationConfig for task "+taskID, err)
	}
	h.Acked = time.Now()
	h.Config.TaskID = taskID
	if got != nil && got.ID != "" {
		h.Config.ID = got.ID
	}
}

// refused ends a spec whose config the agent refused.
func refused(t *suites.T, c *client.Client, h *hook, op string, err error) {
	if suites.RefusesWebhookURL(err) {
		t.CouldNotRun("%s", t.WebhookURLRefused(h.Config.URL, op, err))
	}
	t.Violated(invariants.Violation{Invariant: "push-config", Where: op + " (" + c.Binding() + ")",
		Expected: "the config, created (the card advertises pushNotifications)", Actual: suites.ErrText(err)})
}

// start sends a scripted message (with an inline config when h is not nil)
// and returns the task.
func start(ctx context.Context, t *suites.T, c *client.Client, s suites.Script, h *hook) *a2a.Task {
	msg := t.Scripted(s)
	conf := &a2a.SendMessageConfiguration{ReturnImmediately: true}
	if h != nil {
		cfg := h.Config
		conf.TaskPushNotificationConfig = &cfg
	}
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg, Configuration: conf})
	if ce, ok := client.AsError(err); err != nil && h != nil && !(ok && ce.Class == client.Transport) {
		refused(t, c, h, "SendMessage with configuration.taskPushNotificationConfig", err)
	}
	t.NoTask(c, s, resp, err)
	if h != nil {
		h.Acked = time.Now()
		h.Config.TaskID = resp.Task.ID
	}
	return resp.Task
}

// waitingTask starts a task that waits for input, or ends the spec: the
// agent must show TASK_STATE_INPUT_REQUIRED for the spec to hold a live task
// as long as it needs.
func waitingTask(ctx context.Context, t *suites.T, c *client.Client, h *hook) *a2a.Task {
	task := start(ctx, t, c, waitingScript, h)
	if task.Status.State != a2a.TaskStateInputRequired {
		task = t.WaitFor(ctx, c, task.ID, "TASK_STATE_INPUT_REQUIRED", suites.TerminalOrInterrupted)
	}
	if task.Status.State != a2a.TaskStateInputRequired {
		t.Indeterminate("asked for a task that waits for input (%s); task %s is %s instead, so there is no live task to hold",
			suites.KeyOf(t.Env.Behaviour, waitingScript), task.ID, task.Status.State)
	}
	return task
}

// answer sends the input a waiting task asked for: it then completes.
func answer(ctx context.Context, t *suites.T, c *client.Client, task *a2a.Task) {
	msg := t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete})
	msg.TaskID, msg.ContextID = task.ID, task.ContextID
	if _, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg, Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}}); err != nil {
		t.Indeterminate("the input for waiting task %s was refused (%s), so the task could not move on", task.ID, suites.ErrText(err))
	}
}

// endTask cancels a task the spec leaves running.
func endTask(ctx context.Context, c *client.Client, task *a2a.Task) {
	if task != nil && !task.Status.State.Terminal() {
		_, _ = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
	}
}

// percentiles gives p50, p95 and max of durations, for the observations.
func percentiles(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(p float64) time.Duration { return s[int(p*float64(len(s)-1)+0.5)] }
	return fmt.Sprintf("p50 %s, p95 %s, max %s (%d pushes)", at(0.5).Round(time.Millisecond),
		at(0.95).Round(time.Millisecond), s[len(s)-1].Round(time.Millisecond), len(s))
}

// expectKind is nil when err is the A2A error kind wanted.
func expectKind(err error, want a2a.ErrorKind, where string) *invariants.Violation {
	if err == nil {
		return &invariants.Violation{Invariant: "error", Where: where, Expected: string(want), Actual: "success"}
	}
	if ce, ok := client.AsError(err); !ok || ce.Kind != want {
		return &invariants.Violation{Invariant: "error", Where: where, Expected: string(want), Actual: suites.ErrText(err)}
	}
	return nil
}

func isTerminal(s a2a.TaskState) bool { return s.Terminal() }

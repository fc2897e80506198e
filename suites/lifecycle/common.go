// Package lifecycle holds the specs about tasks as state machines: sending,
// reading, listing, cancelling, streaming, history, errors, and the
// invariants over everything observed of a task (scenario 3).
package lifecycle

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Step is the per-step delay asked of scripted tasks that must stay working
// for a while under the directive extension, whose script then takes a known
// time (suites.T.Expected). It never decides a verdict by itself: waits come
// from T.Patience, T.Expected and T.WatchUntil, measured on the agent (STYLE.md,
// "Time comes from the agent"), and a prompt-map agent takes the time it takes.
const Step = 150 * time.Millisecond

// startTask sends a scripted message with returnImmediately and returns the
// task, failing the spec when the agent answers with something else.
func startTask(ctx context.Context, t *suites.T, c *client.Client, s suites.Script) *a2a.Task {
	msg := t.Scripted(s)
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	t.NoTask(c, s, resp, err)
	return resp.Task
}

// startRunning starts a task scripted to stay working for a while, and
// lengthens it when the agent answered too late to see it run
// (suites.T.StartRunning).
func startRunning(ctx context.Context, t *suites.T, c *client.Client, s suites.Script) (*a2a.Task, suites.Script) {
	return t.StartRunning(ctx, c, s, func(s suites.Script) *a2a.Task { return startTask(ctx, t, c, s) }, nil)
}

// atRest reports whether a task has come to rest: terminal, or interrupted
// (§3.2.2: a turn ends at either).
func atRest(task *a2a.Task) bool {
	return task.Status.State.Terminal() || task.Status.State.Interrupted()
}

// runToEnd starts a scripted task and waits until it comes to rest. A task
// that rests in another state than the script asked for (an agent that asks
// for input when asked to complete) ends the spec indeterminate: the agent
// did not show the behaviour the spec needs (suites.T.Showed).
func runToEnd(ctx context.Context, t *suites.T, c *client.Client, outcome directive.Outcome) *a2a.Task {
	s := suites.Script{Outcome: outcome}
	task := startTask(ctx, t, c, s)
	if !atRest(task) {
		task = t.WaitFor(ctx, c, task.ID, "terminal or interrupted", suites.TerminalOrInterrupted)
	}
	t.Showed(s, task, "the spec needs a task that ended "+string(s.Settles()))
	return task
}

// expectKind checks that err is the A2A error kind wanted.
func expectKind(err error, want a2a.ErrorKind, where string) *invariants.Violation {
	if err == nil {
		return &invariants.Violation{Invariant: "error", Where: where, Expected: string(want), Actual: "success"}
	}
	ce, ok := client.AsError(err)
	if !ok || ce.Kind != want {
		return &invariants.Violation{Invariant: "error", Where: where, Expected: string(want), Actual: suites.ErrText(err)}
	}
	return nil
}

func violations(vs ...*invariants.Violation) []invariants.Violation {
	var out []invariants.Violation
	for _, v := range vs {
		if v != nil {
			out = append(out, *v)
		}
	}
	return out
}

// pushChannel, when the card advertises push and the run has a receiver,
// returns a push config pointing at a fresh receiver token and feeds every
// delivery to that token into the spec's history (source push). The Bearer
// credential is invented here and redacted from every transcript.
func pushChannel(t *suites.T) (*a2a.TaskPushNotificationConfig, string) {
	if t.Env.Webhook == nil || !t.Card().PushNotifications() {
		return nil, ""
	}
	token := t.WebhookToken()
	secret := webhook.NewSecret()
	if t.Env.Transcript != nil {
		t.Env.Transcript.AddSecret(secret)
	}
	t.Env.Webhook.Authorize(token, "Bearer "+secret)
	h := t.History()
	var n atomic.Int32
	t.Env.Webhook.OnDelivery(token, func(d webhook.Delivery) {
		state, ok := d.Resp.State()
		// Only a delivery with the config's credentials is the config's.
		if d.DecodeErr != nil || !ok || !d.Trusted() || d.Scripted {
			return
		}
		at := h.Now()
		h.Add(invariants.Observation{TaskID: d.Resp.TaskID(), State: state, Source: invariants.FromPush,
			Issued: at, Received: at, Channel: "push", Ref: fmt.Sprintf("push %d", n.Add(1))})
	})
	return &a2a.TaskPushNotificationConfig{URL: t.Env.Webhook.URL(token),
		Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: secret}}, token
}

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

// Step is the per-step delay of scripted tasks that must stay working for a
// while: long enough to observe WORKING and act on it, short enough that the
// suite runs in seconds. A prompt-map agent takes the time it takes.
const Step = 150 * time.Millisecond

// startTask sends a scripted message with returnImmediately and returns the
// task, failing the spec when the agent answers with something else.
func startTask(ctx context.Context, t *suites.T, c *client.Client, s suites.Script) *a2a.Task {
	msg := t.Scripted(s)
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "send", Where: "SendMessage (" + c.Binding() + ")",
			Expected: "a Task for the scripted message", Actual: err.Error()})
	}
	if resp.Task == nil {
		t.Violated(invariants.Violation{Invariant: "send", Where: "SendMessage (" + c.Binding() + ")",
			Expected: "a Task for a scripted " + string(s.Outcome) + " task", Actual: "a Message"})
	}
	return resp.Task
}

// runToEnd sends a scripted message the blocking way and returns the task it
// ends with (waiting further by GetTask if the agent returned early).
func runToEnd(ctx context.Context, t *suites.T, c *client.Client, outcome directive.Outcome) *a2a.Task {
	task := startTask(ctx, t, c, suites.Script{Outcome: outcome})
	if !task.Status.State.Terminal() {
		task = t.WaitFor(ctx, c, task.ID, "terminal", suites.Terminal)
	}
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
	secret := "a2a-conform-push-" + webhook.NewToken()
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

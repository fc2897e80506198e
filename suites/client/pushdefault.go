package client

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// defaultPushBehaviour is each task of the push-default case: it works for
// a second before it completes, so that a client registering its default
// separately, once the task's id is known, does so while the task runs.
var defaultPushBehaviour = directive.Directive{Version: 1, Outcome: directive.OutcomeCompleted, DelayMs: 1000}

// CLI-012: a client given a default push config attaches it to every task
// it creates, whether it sends or streams the message. The text lets a
// config be supplied inline or separately, so either passes; what is judged
// is the scripted agent's own record: each task the client created holds a
// config for the case's webhook. No sentence binds a client to its own
// default, so a task left without one warns (a client SDK that attached its
// default only to messages naming a task left every new task deaf).
var _ = suites.Spec("CLI-012", func(ctx context.Context, t *suites.T) {
	o := RunCase(ctx, t, Case{Name: "push-default", Action: PushDefault,
		Agent: Agent{Behaviour: defaultPushBehaviour, FollowUp: defaultPushBehaviour}})
	if o.TasksErr != nil {
		t.Indeterminate("harness error: the scripted agent's tasks could not be read: %v", o.TasksErr)
	}
	creating := creatingMessages(o)
	made := map[string][]Request{}
	for _, r := range creating {
		made[r.Op] = append(made[r.Op], r)
	}
	for _, op := range []string{a2a.MethodSendMessage, a2a.MethodSendStreamingMessage} {
		if len(made[op]) == 0 {
			t.Unchecked("a task created by "+op, fmt.Sprintf("the client sent no %s creating a task (driver result: %s)", op, cut(o.Driver.ResultLine, 300)))
		}
		for _, r := range made[op] {
			inline := "none"
			if r.PushURL != "" {
				inline = r.PushURL
			}
			t.Observe("inline config of "+Where(r), inline)
		}
	}
	if len(o.Tasks) == 0 {
		t.Indeterminate("the scripted agent holds no task after the case (driver result: %s): nothing to judge.", cut(o.Driver.ResultLine, 300))
	}
	var vs []invariants.Violation
	var held []string
	for i, task := range o.Tasks {
		if slices.Contains(task.PushURLs, o.WebhookURL) {
			held = append(held, task.ID)
			continue
		}
		// A registration the client sent counts whatever the agent made of
		// it: a client slower than the task registers after its end, and
		// what the agent does with that is not the client's to answer for.
		if r, ok := registeredFor(o, task.ID); ok {
			held = append(held, task.ID)
			t.Observe("separate config of task "+task.ID, fmt.Sprintf("%s, answered %d; the agent holds no such config", Where(r), r.Status))
			continue
		}
		actual := "no push config: none came with the creating message, and no CreateTaskPushNotificationConfig named the task"
		if len(task.PushURLs) > 0 {
			actual = "push configs for " + strings.Join(task.PushURLs, ", ") + " only"
		}
		by := "created by one of the client's messages"
		if len(creating) == len(o.Tasks) {
			// Creating messages and tasks, each in order of creation, pair up.
			by = "created by " + Where(creating[i])
		}
		vs = append(vs, invariants.Violation{Invariant: "client-default-push-config", Where: "task " + task.ID + " (" + by + ")",
			Expected: "a push config for the client's default webhook " + o.WebhookURL + ", given inline with the creating message or separately (CreateTaskPushNotificationConfig)",
			Actual:   actual})
	}
	t.Observe("tasks", fmt.Sprintf("%d task(s) created, %d with the default webhook's config", len(o.Tasks), len(held)))
	t.Violated(vs...)
})

// creatingMessages are the client's messages that name no task, in order.
func creatingMessages(o *Outcome) []Request {
	var out []Request
	for _, r := range o.Ops() {
		if (r.Op == a2a.MethodSendMessage || r.Op == a2a.MethodSendStreamingMessage) && r.TaskID == "" {
			out = append(out, r)
		}
	}
	return out
}

// registeredFor finds the client's CreateTaskPushNotificationConfig for a
// task with the case's webhook.
func registeredFor(o *Outcome, taskID string) (Request, bool) {
	for _, r := range o.Ops() {
		if r.Op == a2a.MethodCreateTaskPushNotificationConfig && r.TaskID == taskID && r.PushURL == o.WebhookURL {
			return r, true
		}
	}
	return Request{}, false
}

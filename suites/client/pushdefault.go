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
	// The creating requests, by operation: a message naming no task.
	made := map[string][]Request{}
	for _, r := range o.Ops() {
		if (r.Op == a2a.MethodSendMessage || r.Op == a2a.MethodSendStreamingMessage) && r.TaskID == "" {
			made[r.Op] = append(made[r.Op], r)
		}
	}
	for _, op := range []string{a2a.MethodSendMessage, a2a.MethodSendStreamingMessage} {
		if len(made[op]) == 0 {
			t.Unchecked("a task created by "+op, fmt.Sprintf("the client sent no %s creating a task (driver result: %s)", op, clip(o.Driver.ResultLine)))
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
		t.Indeterminate("the scripted agent holds no task after the case (driver result: %s): nothing to judge.", clip(o.Driver.ResultLine))
	}
	var vs []invariants.Violation
	var held []string
	for _, task := range o.Tasks {
		if slices.Contains(task.PushURLs, o.WebhookURL) {
			held = append(held, task.ID)
			continue
		}
		actual := "no push config: none came with the creating message, and no CreateTaskPushNotificationConfig named the task"
		if len(task.PushURLs) > 0 {
			actual = "push configs for " + strings.Join(task.PushURLs, ", ") + " only"
		}
		vs = append(vs, invariants.Violation{Invariant: "client-default-push-config", Where: "task " + task.ID + " (" + creator(o, task.ID) + ")",
			Expected: "a push config for the client's default webhook " + o.WebhookURL + ", given inline with the creating message or separately (CreateTaskPushNotificationConfig)",
			Actual:   actual})
	}
	t.Observe("tasks", fmt.Sprintf("%d task(s) created, %d with the default webhook's config", len(o.Tasks), len(held)))
	t.Violated(vs...)
})

// creator names the request that created a task: the creating messages
// (naming no task) and the tasks, each in order of creation, pair up when
// there are as many of each.
func creator(o *Outcome, id string) string {
	var creating []Request
	for _, r := range o.Ops() {
		if (r.Op == a2a.MethodSendMessage || r.Op == a2a.MethodSendStreamingMessage) && r.TaskID == "" {
			creating = append(creating, r)
		}
	}
	if len(creating) == len(o.Tasks) {
		for i, task := range o.Tasks {
			if task.ID == id {
				return "created by " + Where(creating[i])
			}
		}
	}
	return "created by one of the client's messages"
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

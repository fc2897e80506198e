package webhook

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// listAll pages through a task's configs (at most 20 pages).
func listAll(ctx context.Context, c *client.Client, taskID string) ([]a2a.TaskPushNotificationConfig, error) {
	var out []a2a.TaskPushNotificationConfig
	token := ""
	for range 20 {
		page, err := c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: taskID, PageToken: token})
		if err != nil {
			return out, err
		}
		out = append(out, page.Configs...)
		if token = page.NextPageToken; token == "" {
			break
		}
	}
	return out, nil
}

func ids(cfgs []a2a.TaskPushNotificationConfig) []string {
	var out []string
	for _, c := range cfgs {
		out = append(out, c.ID)
	}
	return out
}

// PUSH-001 (§3.1.7–§3.1.10): the CRUD round trip on a task of the spec's
// own that waits for input, so that it is alive for every step; then the
// task is finished, and its terminal state must reach the config kept and
// not the one deleted.
var _ = suites.Spec("PUSH-001", func(ctx context.Context, t *suites.T) {
	needPush(t)
	c := t.Client()
	a, b := newHook(t, "Bearer"), newHook(t, "Bearer")
	task := waitingTask(ctx, t, c, nil)
	defer endTask(ctx, c, task)
	op := func(s string) string { return s + " (" + c.Binding() + ")" }

	for _, h := range []*hook{a, b} {
		cfg := h.Config
		cfg.TaskID = task.ID
		got, err := t.CreatePushConfig(ctx, c, &cfg)
		if err != nil {
			refused(t, c, h, "CreateTaskPushNotificationConfig for task "+task.ID, err)
		}
		h.Config.TaskID = task.ID
		if got.ID == "" {
			t.Violated(invariants.Violation{Invariant: "push-config", Where: op("CreateTaskPushNotificationConfig for task " + task.ID),
				Expected: "the config with its assigned id", Actual: "no id"})
		}
		h.Config.ID = got.ID
		if got.URL != h.Config.URL {
			t.Record(invariants.Violation{Invariant: "push-config", Where: op("CreateTaskPushNotificationConfig " + got.ID),
				Expected: "url " + h.Config.URL, Actual: fmt.Sprintf("%q", got.URL)})
		}
	}
	if a.Config.ID == b.Config.ID {
		t.Violated(invariants.Violation{Invariant: "push-config", Where: op("CreateTaskPushNotificationConfig x2 for task " + task.ID),
			Expected: "two configs with distinct ids", Actual: "both got id " + a.Config.ID})
	}

	// Get returns what was set. Secrets on read may be returned or redacted
	// (A2A v1.0 §3.1.7, #1681): only the url, the id and, when an authentication
	// block comes back, its scheme are judged.
	ref := &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: a.Config.ID}
	got, err := c.GetTaskPushNotificationConfig(ctx, ref)
	switch {
	case err != nil:
		t.Record(invariants.Violation{Invariant: "push-config", Where: op("GetTaskPushNotificationConfig " + a.Config.ID),
			Expected: "the config just created", Actual: suites.ErrText(err)})
	default:
		if got.URL != a.Config.URL || (got.ID != "" && got.ID != a.Config.ID) {
			t.Record(invariants.Violation{Invariant: "push-config", Where: op("GetTaskPushNotificationConfig " + a.Config.ID),
				Expected: "id " + a.Config.ID + ", url " + a.Config.URL, Actual: fmt.Sprintf("id %q, url %q", got.ID, got.URL)})
		}
		switch {
		case got.Authentication == nil:
			t.Observe("secrets-on-read", "authentication left out")
		case !strings.EqualFold(got.Authentication.Scheme, a.Config.Authentication.Scheme):
			t.Record(invariants.Violation{Invariant: "push-config", Where: op("GetTaskPushNotificationConfig " + a.Config.ID),
				Expected: "authentication.scheme " + a.Config.Authentication.Scheme, Actual: fmt.Sprintf("%q", got.Authentication.Scheme)})
		case got.Authentication.Credentials == a.Config.Authentication.Credentials:
			t.Observe("secrets-on-read", "credentials returned as set")
		default:
			t.Observe("secrets-on-read", "credentials redacted or left out")
		}
	}

	// List has every active one.
	list, err := listAll(ctx, c, task.ID)
	if err != nil {
		t.Record(invariants.Violation{Invariant: "push-config", Where: op("ListTaskPushNotificationConfigs for task " + task.ID),
			Expected: "both configs", Actual: suites.ErrText(err)})
	} else if have := ids(list); !slices.Contains(have, a.Config.ID) || !slices.Contains(have, b.Config.ID) {
		t.Record(invariants.Violation{Invariant: "push-config", Where: op("ListTaskPushNotificationConfigs for task " + task.ID),
			Expected: "ids " + a.Config.ID + " and " + b.Config.ID, Actual: fmt.Sprintf("ids %v", have)})
	}

	// Delete removes it for good; a second delete is harmless.
	if err := c.DeleteTaskPushNotificationConfig(ctx, ref); err != nil {
		t.Violated(invariants.Violation{Invariant: "push-config", Where: op("DeleteTaskPushNotificationConfig " + a.Config.ID),
			Expected: "success", Actual: suites.ErrText(err)})
	}
	deleted := time.Now()
	if err := c.DeleteTaskPushNotificationConfig(ctx, ref); err != nil {
		// §3.1.10 asks that repeated deletes have the same effect: the
		// config is gone either way (the Get below checks it). An answer
		// that says it is not there is that effect, as a repeated HTTP
		// DELETE's 404 is; any other error is not.
		if goneAnswer(err) {
			t.Observe("second-delete", "answered that the config is not there: "+suites.ErrText(err))
		} else {
			t.Record(invariants.Violation{Invariant: "push-delete-idempotent", Where: op("second DeleteTaskPushNotificationConfig " + a.Config.ID),
				Expected: "success, or an answer that the config is not there (repeated deletes MUST have the same effect)", Actual: suites.ErrText(err)})
		}
	} else {
		t.Observe("second-delete", "succeeded")
	}
	if got, err := c.GetTaskPushNotificationConfig(ctx, ref); err == nil {
		t.Record(invariants.Violation{Invariant: "push-config", Where: op("GetTaskPushNotificationConfig " + a.Config.ID + " after its delete"),
			Expected: "an error (the config is deleted)", Actual: "the config, url " + fmt.Sprintf("%q", got.URL)})
	} else {
		t.Observe("get-after-delete", suites.ErrText(err))
	}
	if list, err := listAll(ctx, c, task.ID); err == nil {
		if have := ids(list); slices.Contains(have, a.Config.ID) || !slices.Contains(have, b.Config.ID) {
			t.Record(invariants.Violation{Invariant: "push-config", Where: op("ListTaskPushNotificationConfigs after deleting " + a.Config.ID),
				Expected: "id " + b.Config.ID + " and not " + a.Config.ID, Actual: fmt.Sprintf("ids %v", have)})
		}
	}

	// No delivery follows a delete: the task is finished now; its terminal
	// state, which came after the delete, must reach b and never a.
	answer(ctx, t, c, task)
	ended := t.WaitFor(ctx, c, task.ID, "terminal", suites.Terminal)
	seen := time.Now()
	w := awaitPush(ctx, t, b, task.ID, isTerminal, seen)
	if !w.Came {
		// Without b's push the silence at a shows nothing.
		if why := t.ReachUnshown(b); why != "" {
			t.Unchecked("nothing is pushed to a deleted config", fmt.Sprintf("nothing arrived for the config kept (%s) either, and %s, so silence at the deleted one proves nothing", b.Config.URL, why))
		} else {
			t.Unchecked("nothing is pushed to a deleted config", fmt.Sprintf("the config kept (%s) did not get the task's %s either within %s (PUSH-004 judges delivery), so silence at the deleted one proves nothing", b.Config.ID, ended.Status.State, w.Waited.Round(time.Millisecond)))
		}
		return
	}
	observeLatency(t, w)
	// The deleted config is watched as long again as the kept one took to
	// get its push: a push to it would have come by then.
	pause(ctx, max(t.Settle(), w.Latency))
	for _, d := range a.Deliveries(t) {
		if s, ok := d.Resp.State(); ok && s.Terminal() && d.At.After(deleted) {
			t.Record(invariants.Violation{Invariant: "push-delete", Where: fmt.Sprintf("push #%d to deleted config %s", d.Attempt, a.Config.ID),
				Expected: "no push after the config was deleted", Actual: fmt.Sprintf("%s, %s after the delete was acknowledged", s, d.At.Sub(deleted).Round(time.Millisecond))})
		}
	}
	t.Observe("pushes", fmt.Sprintf("kept config: %s; deleted config: %s", describe(b.Deliveries(t)), describe(a.Deliveries(t))))
})

func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// PUSH-002 (§3.1.7–§3.1.10): the errors, on every binding.
var _ = suites.Spec("PUSH-002", func(ctx context.Context, t *suites.T) {
	needPush(t)
	for _, c := range t.Clients() {
		h := newHook(t, "Bearer")
		unknown := suites.NewID("a2a-conform-unknown-task")
		where := func(op string) string { return op + " on unknown task " + unknown + " (" + c.Binding() + ")" }
		cfg := h.Config
		cfg.TaskID = unknown
		_, err := c.CreateTaskPushNotificationConfig(ctx, &cfg)
		if suites.RefusesWebhookURL(err) {
			t.Unchecked("create on an unknown task ("+c.Binding()+")", "the agent may have refused the URL before looking for the task: "+t.WebhookURLRefused(cfg.URL, "CreateTaskPushNotificationConfig on unknown task "+unknown, err))
		} else if v := expectKind(err, a2a.ErrTaskNotFound, where("CreateTaskPushNotificationConfig")); v != nil {
			t.Record(*v)
		}
		ref := &a2a.TaskPushNotificationConfigRef{TaskID: unknown, ID: "a2a-conform-no-such-config"}
		_, err = c.GetTaskPushNotificationConfig(ctx, ref)
		if v := expectKind(err, a2a.ErrTaskNotFound, where("GetTaskPushNotificationConfig")); v != nil {
			t.Record(*v)
		}
		_, err = c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: unknown})
		if v := expectKind(err, a2a.ErrTaskNotFound, where("ListTaskPushNotificationConfigs")); v != nil {
			t.Record(*v)
		}
		err = c.DeleteTaskPushNotificationConfig(ctx, ref)
		if v := expectKind(err, a2a.ErrTaskNotFound, where("DeleteTaskPushNotificationConfig")); v != nil {
			t.Record(*v)
		}

		// An unknown config on a task of the spec's own: get MUST fail
		// (TaskNotFoundError is the one error named, another warns); delete
		// of it should succeed (idempotent).
		task, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: ptr(t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete}))})
		if err != nil || task.Task == nil {
			t.Unchecked("an unknown config on an existing task ("+c.Binding()+")", "the scripted send gave no task: "+suites.ErrText(err))
			continue
		}
		ref = &a2a.TaskPushNotificationConfigRef{TaskID: task.Task.ID, ID: "a2a-conform-no-such-config"}
		w := "GetTaskPushNotificationConfig of unknown config on task " + task.Task.ID + " (" + c.Binding() + ")"
		got, err := c.GetTaskPushNotificationConfig(ctx, ref)
		switch {
		case err == nil:
			t.Record(invariants.Violation{Invariant: "error", Where: w, Expected: "an error (TaskNotFoundError: the config does not exist)",
				Actual: fmt.Sprintf("a config, url %q", got.URL)})
		case expectKind(err, a2a.ErrTaskNotFound, w) != nil:
			t.Should(*expectKind(err, a2a.ErrTaskNotFound, w))
		}
		if err := c.DeleteTaskPushNotificationConfig(ctx, ref); err != nil {
			t.Observe("delete-unknown-config-"+c.Binding(), suites.ErrText(err))
			t.Should(invariants.Violation{Invariant: "push-delete-idempotent", Where: "DeleteTaskPushNotificationConfig of unknown config on task " + task.Task.ID + " (" + c.Binding() + ")",
				Expected: "success (deleting a missing config on an existing task should succeed)", Actual: suites.ErrText(err)})
		}
	}
})

func ptr[T any](v T) *T { return &v }

// goneAnswer reports whether an error says that what was asked for is not
// there: TaskNotFoundError, NOT_FOUND or HTTP 404, or a JSON-RPC invalid
// params (what some agents answer for a config id they do not hold).
func goneAnswer(err error) bool {
	ce, ok := client.AsError(err)
	return ok && ce.Class == client.A2A && (ce.Kind == a2a.ErrTaskNotFound || ce.Status == "NOT_FOUND" || ce.HTTPStatus == 404 || ce.Code == -32602)
}

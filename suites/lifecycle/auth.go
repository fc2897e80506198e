package lifecycle

import (
	"context"
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// LIFE-030 (§7.6.1, a2a-v1.md §4 and §13): a task that needs the client to
// authorize something is a Task in TASK_STATE_AUTH_REQUIRED whose status
// message says what is needed (MUST). It should still accept a message from
// the client there (SHOULD: warns); where it goes after that is the agent's
// to decide, and is an observation. Only the spec's own tasks are judged.
var _ = suites.Spec("LIFE-030", func(ctx context.Context, t *suites.T) {
	s := suites.Script{Outcome: directive.OutcomeAuthRequired}
	var vs, soft []invariants.Violation
	for _, c := range t.Clients() {
		msg := t.Scripted(s)
		where := "SendMessage asking for authorization (" + c.Binding() + ")"
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
		if err != nil {
			vs = append(vs, invariants.Violation{Invariant: "auth-required", Where: where,
				Expected: "a Task in TASK_STATE_AUTH_REQUIRED", Actual: suites.ErrText(err)})
			continue
		}
		if resp.Task == nil {
			// §7.6.1: "the agent MUST use a Task"; but an agent that was
			// only sent a prompt may have chosen not to ask at all.
			t.Record(vs...)
			t.Indeterminate("the agent answered the message asking for authorization with a Message, not a task: it did not ask, so the in-task flow cannot be judged (%s)", c.Binding())
		}
		task := resp.Task
		if !atRest(task) {
			task = t.WaitFor(ctx, c, task.ID, "TASK_STATE_AUTH_REQUIRED", suites.TerminalOrInterrupted)
		}
		if task.Status.State != a2a.TaskStateAuthRequired {
			t.Record(vs...)
		}
		t.Showed(s, task, "so the in-task authorization flow cannot be judged ("+c.Binding()+")")
		if m := task.Status.Message; m == nil || len(m.Parts) == 0 {
			vs = append(vs, invariants.Violation{Invariant: "auth-required", Where: "task " + task.ID + " status (" + c.Binding() + ")",
				Expected: "a status message explaining what authorization is needed (§7.6.1)", Actual: "no status message"})
		}

		follow := userText("a2a-conform: authorization was granted out of band; please go on")
		follow.TaskID, follow.ContextID = task.ID, task.ContextID
		fwhere := fmt.Sprintf("follow-up to auth-required task %s (%s)", task.ID, c.Binding())
		resp, err = t.Send(ctx, c, &a2a.SendMessageRequest{Message: &follow})
		if err != nil {
			soft = append(soft, invariants.Violation{Invariant: "auth-required-message", Where: fwhere,
				Expected: "the message accepted (SHOULD, a2a-v1.md §4)", Actual: suites.ErrText(err)})
			_, _ = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
			continue
		}
		final := resp.Task
		if final == nil || final.ID != task.ID || !atRest(final) {
			final = t.WaitFor(ctx, c, task.ID, "terminal or interrupted after the follow-up", suites.TerminalOrInterrupted)
		}
		t.Observe("after-auth-followup-"+c.Binding(), string(final.Status.State))
		if final.Status.State.Interrupted() {
			// The task waits forever otherwise.
			_, _ = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
		}
	}
	t.Should(soft...)
	t.Violated(vs...)
})

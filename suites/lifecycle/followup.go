package lifecycle

import (
	"context"
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// invalidParams reports whether err is InvalidParamsError: -32602 on
// JSON-RPC, HTTP 400 without an A2A ErrorInfo on HTTP+JSON.
func invalidParams(err error) bool {
	ce, ok := client.AsError(err)
	if !ok || ce.Class != client.A2A {
		return false
	}
	return ce.Code == a2a.CodeInvalidParams || (ce.Binding == a2a.BindingHTTPJSON && ce.Kind == "" && ce.HTTPStatus == 400) ||
		(ce.Binding == a2a.BindingGRPC && ce.Kind == "" && ce.Status == "INVALID_ARGUMENT")
}

// LIFE-008 (§3.1.1, §4.1.3): a message to a completed task gets
// UnsupportedOperationError and leaves the task as it was. InvalidParams is
// the known SDK deviation: named as such, and still a failure.
var _ = suites.Spec("LIFE-008", func(ctx context.Context, t *suites.T) {
	// Each binding follows up a task of its own, so the bindings run
	// together (suites.T.Each).
	cs := t.Clients()
	t.Each(len(cs), func(i int) {
		c := cs[i]
		done := runToEnd(ctx, t, c, directive.OutcomeCompleted)
		msg := t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete})
		msg.TaskID = done.ID
		where := fmt.Sprintf("SendMessage to %s task %s (%s)", done.Status.State, done.ID, c.Binding())
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
		want := string(a2a.ErrUnsupportedOperation)
		switch {
		case err == nil:
			actual := "success"
			if resp.Task != nil {
				actual = fmt.Sprintf("success: the task answered in %s", resp.Task.Status.State)
			}
			t.Record(invariants.Violation{Invariant: "terminal-message", Where: where, Expected: want, Actual: actual})
		case invalidParams(err):
			t.Record(invariants.Violation{Invariant: "terminal-message", Where: where, Expected: want,
				Actual: "InvalidParamsError (-32602), the a2a-go/a2a-python deviation: " + suites.ErrText(err)})
		default:
			t.Record(violations(expectKind(err, a2a.ErrUnsupportedOperation, where))...)
		}
		if got, err := t.Get(ctx, c, done.ID); err == nil && got.Status.State != done.Status.State {
			t.Record(invariants.Violation{Invariant: "terminal-message", Where: "GetTask " + done.ID + " after that message (" + c.Binding() + ")",
				Expected: "still " + string(done.Status.State), Actual: string(got.Status.State)})
		}
	})
	t.Violated()
})

// askForInput makes a task that waits for input: the blocking send returns
// it interrupted (LIFE-004 judges a send that does not block; here the spec
// waits). A task that never asks leaves the follow-up specs nothing to judge.
func askForInput(ctx context.Context, t *suites.T, c *client.Client) *a2a.Task {
	msg := t.Scripted(suites.Script{Outcome: directive.OutcomeInputRequired})
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "send", Where: "SendMessage (" + c.Binding() + ")",
			Expected: "a Task for a scripted input-required task", Actual: suites.ErrText(err)})
	}
	if resp.Task == nil {
		t.Violated(invariants.Violation{Invariant: "send", Where: "SendMessage (" + c.Binding() + ")",
			Expected: "a Task for a scripted input-required task", Actual: "a Message"})
	}
	task := resp.Task
	if st := task.Status.State; !st.Terminal() && !st.Interrupted() {
		task = t.WaitFor(ctx, c, task.ID, "TASK_STATE_INPUT_REQUIRED", suites.TerminalOrInterrupted)
	}
	t.Showed(suites.Script{Outcome: directive.OutcomeInputRequired}, task, "so a follow-up to an interrupted task cannot be judged ("+c.Binding()+")")
	return task
}

// LIFE-009 (§3.4.3): a follow-up naming only the taskId continues the
// interrupted task in its own context, which the agent infers; the task then
// comes to rest in that context, finished or asking again.
var _ = suites.Spec("LIFE-009", func(ctx context.Context, t *suites.T) {
	// Each binding follows up a task of its own, so the bindings run
	// together (suites.T.Each).
	cs := t.Clients()
	t.Each(len(cs), func(i int) {
		c := cs[i]
		task := askForInput(ctx, t, c)
		home := task.ContextID
		follow := userText("a2a-conform: here is the input you asked for")
		follow.TaskID = task.ID
		where := fmt.Sprintf("follow-up naming only taskId %s (%s)", task.ID, c.Binding())
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &follow})
		if err != nil {
			t.Record(invariants.Violation{Invariant: "followup", Where: where,
				Expected: "the task continued, its contextId inferred from the task", Actual: suites.ErrText(err)})
			return
		}
		switch {
		case resp.Task != nil && resp.Task.ID != task.ID:
			t.Record(invariants.Violation{Invariant: "followup", Where: where,
				Expected: "the same task " + task.ID, Actual: "task " + resp.Task.ID})
		case resp.Task != nil && resp.Task.ContextID != home:
			t.Record(invariants.Violation{Invariant: "followup", Where: where,
				Expected: "the task's own contextId " + home, Actual: fmt.Sprintf("contextId %q", resp.Task.ContextID)})
		case resp.Message != nil && resp.Message.ContextID != "" && resp.Message.ContextID != home:
			t.Record(invariants.Violation{Invariant: "followup", Where: where + " (Message reply)",
				Expected: "the task's own contextId " + home, Actual: fmt.Sprintf("contextId %q", resp.Message.ContextID)})
		}
		// Where the task goes next is the agent's to decide: it may finish,
		// or ask for input again (an LLM agent may well), and a turn ends at
		// either (§3.2.2). What is judged is that it is the same task, in
		// its own context.
		final := resp.Task
		if final == nil || final.ID != task.ID || !atRest(final) {
			final = t.WaitFor(ctx, c, task.ID, "terminal or interrupted after the follow-up", suites.TerminalOrInterrupted)
		}
		t.Observe("after-followup-"+c.Binding(), string(final.Status.State))
		if final.ContextID != home {
			t.Record(invariants.Violation{Invariant: "followup", Where: "GetTask " + task.ID + " after the follow-up (" + c.Binding() + ")",
				Expected: "contextId " + home + " (unchanged)", Actual: fmt.Sprintf("%q", final.ContextID)})
		}
		for _, m := range final.History {
			if m.MessageID == follow.MessageID && m.ContextID != "" && m.ContextID != home {
				t.Record(invariants.Violation{Invariant: "followup", Where: "task " + task.ID + " history, message " + m.MessageID,
					Expected: "the follow-up filed under contextId " + home, Actual: fmt.Sprintf("contextId %q", m.ContextID)})
			}
		}
	})
	t.Violated()
})

// LIFE-010 (§3.4.3): a follow-up whose contextId contradicts its task's is
// refused (the spec names no code: any A2A or validation error, recorded),
// and the task does not move.
var _ = suites.Spec("LIFE-010", func(ctx context.Context, t *suites.T) {
	// Each binding follows up a task of its own, so the bindings run
	// together (suites.T.Each).
	cs := t.Clients()
	t.Each(len(cs), func(i int) {
		c := cs[i]
		task := askForInput(ctx, t, c)
		other := suites.NewID("ctx-a2a-conform")
		follow := userText("a2a-conform: input filed under another context")
		follow.TaskID, follow.ContextID = task.ID, other
		where := fmt.Sprintf("follow-up for task %s (context %s) with contextId %s (%s)", task.ID, task.ContextID, other, c.Binding())
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &follow})
		switch {
		case err == nil:
			actual := "success"
			if resp.Task != nil {
				actual = fmt.Sprintf("success: task %s in %s, contextId %q", resp.Task.ID, resp.Task.Status.State, resp.Task.ContextID)
			}
			t.Record(invariants.Violation{Invariant: "context-mismatch", Where: where,
				Expected: "a refusal (an A2A or validation error)", Actual: actual})
		case refusal(err):
			t.Observe("mismatch-"+c.Binding(), suites.ErrText(err))
		default:
			t.Record(invariants.Violation{Invariant: "context-mismatch", Where: where,
				Expected: "a refusal (an A2A or validation error)", Actual: suites.ErrText(err)})
		}
		if got, err := t.Get(ctx, c, task.ID); err == nil &&
			(got.Status.State != a2a.TaskStateInputRequired || got.ContextID != task.ContextID) {
			t.Record(invariants.Violation{Invariant: "context-mismatch", Where: "GetTask " + task.ID + " after that follow-up (" + c.Binding() + ")",
				Expected: "still TASK_STATE_INPUT_REQUIRED in context " + task.ContextID,
				Actual:   fmt.Sprintf("%s in context %q", got.Status.State, got.ContextID)})
		}
		// The task waits for input forever otherwise.
		_, _ = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
	})
	t.Violated()
})

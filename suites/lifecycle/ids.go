package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// newTasksPerBinding is how many tasks LIFE-002 creates on each binding:
// enough to see an id handed out twice, few enough to take milliseconds.
const newTasksPerBinding = 3

// LIFE-002 (§3.4.1, §3.4.2): every new task gets a non-empty id no other task
// has, and the contextId the agent generated (the client gave none) comes
// back with it. The sends are independent (each makes a task of its own, and
// uniqueness does not depend on their order), so they run together
// (suites.T.Each): against an agent whose tasks take 3 s, nine blocking sends
// one after another took 27 s. They are judged afterwards in binding order.
var _ = suites.Spec("LIFE-002", func(ctx context.Context, t *suites.T) {
	type sent struct {
		where string
		resp  *a2a.SendMessageResponse
		err   error
	}
	var trials []sent
	var msgs []a2a.Message
	var clients []*client.Client
	for _, c := range t.Clients() {
		for i := 1; i <= newTasksPerBinding; i++ {
			trials = append(trials, sent{where: fmt.Sprintf("SendMessage #%d without contextId (%s)", i, c.Binding())})
			msgs = append(msgs, t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted}))
			clients = append(clients, c)
		}
	}
	t.Each(len(trials), func(i int) {
		trials[i].resp, trials[i].err = t.Send(ctx, clients[i], &a2a.SendMessageRequest{Message: &msgs[i]})
	})
	var vs []invariants.Violation
	seen := map[string]string{}
	contexts := map[string]bool{}
	for _, tr := range trials {
		where, resp, err := tr.where, tr.resp, tr.err
		if err != nil {
			vs = append(vs, invariants.Violation{Invariant: "ids", Where: where,
				Expected: "a new task", Actual: suites.ErrText(err)})
			continue
		}
		if resp.Task == nil {
			vs = append(vs, invariants.Violation{Invariant: "ids", Where: where,
				Expected: "a Task for a scripted task", Actual: "a Message"})
			continue
		}
		task := resp.Task
		switch prev, dup := seen[task.ID]; {
		case task.ID == "":
			vs = append(vs, invariants.Violation{Invariant: "task-id", Where: where,
				Expected: "a non-empty, server-generated task id", Actual: `""`})
		case dup:
			vs = append(vs, invariants.Violation{Invariant: "task-id", Where: where,
				Expected: "a task id no other task has", Actual: fmt.Sprintf("%q, already the id of the task from %s", task.ID, prev)})
		default:
			seen[task.ID] = where
		}
		if task.ContextID == "" {
			vs = append(vs, invariants.Violation{Invariant: "context-id", Where: where + " task " + task.ID,
				Expected: "the contextId the agent generated (it MUST return it, §3.4.1)", Actual: "no contextId"})
		} else {
			contexts[task.ContextID] = true
		}
	}
	t.Observe("tasks", strconv.Itoa(len(seen)))
	t.Observe("distinct-contexts", strconv.Itoa(len(contexts)))
	t.Violated(vs...)
})

// LIFE-003 (§3.4.1): a contextId the client chose is either adopted (the
// answer carries exactly it) or the request is refused; a success under a
// different contextId forks the client's conversation.
var _ = suites.Spec("LIFE-003", func(ctx context.Context, t *suites.T) {
	// Each binding sends messages of its own, in contexts of its own, so
	// the bindings run together (suites.T.Each).
	cs := t.Clients()
	t.Each(len(cs), func(i int) {
		c := cs[i]
		msgs := []a2a.Message{}
		task, scripted := scriptedOr(t, suites.Script{Outcome: directive.OutcomeCompleted}, "a2a-conform: a message in a context the client chose")
		msgs = append(msgs, task)
		if scripted {
			if m, ok := scriptedOr(t, suites.Script{Outcome: directive.OutcomeMessage}, ""); ok {
				msgs = append(msgs, m)
			}
		}
		for i, msg := range msgs {
			msg := msg
			chosen := suites.NewID("ctx-a2a-conform")
			msg.ContextID = chosen
			where := fmt.Sprintf("SendMessage #%d with client contextId %s (%s)", i+1, chosen, c.Binding())
			key := fmt.Sprintf("client-context-%d-%s", i+1, c.Binding())
			resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
			if err != nil {
				if refusal(err) {
					t.Observe(key, "refused: "+suites.ErrText(err))
					continue
				}
				t.Record(invariants.Violation{Invariant: "context-id", Where: where,
					Expected: "the chosen contextId adopted, or a refusal with an A2A or validation error",
					Actual:   suites.ErrText(err)})
				continue
			}
			got, what := "", "message"
			if resp.Task != nil {
				got, what = resp.Task.ContextID, "task "+resp.Task.ID
			} else if resp.Message != nil {
				got = resp.Message.ContextID
			}
			if got != chosen {
				actual := fmt.Sprintf("%s answered with contextId %q", what, got)
				if got == "" {
					actual = what + " answered without a contextId"
				}
				t.Record(invariants.Violation{Invariant: "context-id", Where: where,
					Expected: "contextId " + chosen + " (adopted and echoed), or a refusal; never another id",
					Actual:   actual})
				continue
			}
			t.Observe(key, "adopted")
		}
	})
	t.Violated()
})

// LIFE-006 (§3.4.2, scenario 1): a message naming a taskId the server never
// issued fails with TaskNotFoundError, and no task with that id appears
// afterwards. GetTask of the id proves "creates no task" on its own (a task
// the agent holds is one it can read back); ListTasks is asked as well, and
// when it fails the GetTask answer still stands.
var _ = suites.Spec("LIFE-006", func(ctx context.Context, t *suites.T) {
	var vs []invariants.Violation
	for _, c := range t.Clients() {
		id := suites.NewID("task-never-issued")
		msg := userText("a2a-conform: a follow-up to a task that does not exist")
		msg.TaskID = id
		where := "SendMessage naming unknown taskId " + id + " (" + c.Binding() + ")"
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
		if v := expectKind(err, a2a.ErrTaskNotFound, where); v != nil {
			if err == nil && resp.Task != nil {
				v.Actual = fmt.Sprintf("success: task %s in %s", resp.Task.ID, resp.Task.Status.State)
			}
			vs = append(vs, *v)
		}
		got, err := t.Get(ctx, c, id)
		if v := expectKind(err, a2a.ErrTaskNotFound, "GetTask "+id+" after that message ("+c.Binding()+")"); v != nil {
			v.Invariant = "no-task-created"
			if err == nil {
				v.Actual = fmt.Sprintf("the task, in %s: the message created it", got.Status.State)
			}
			vs = append(vs, *v)
		}
		size := int32(100)
		list, err := c.ListTasks(ctx, &a2a.ListTasksRequest{PageSize: &size})
		if err != nil {
			t.Observe("list-"+c.Binding(), "ListTasks failed ("+suites.ErrText(err)+"); no task created was proved by GetTask alone")
			continue
		}
		for _, task := range list.Tasks {
			if task.ID == id {
				vs = append(vs, invariants.Violation{Invariant: "no-task-created", Where: "ListTasks after that message (" + c.Binding() + ")",
					Expected: "no task with id " + id, Actual: "listed, in " + string(task.Status.State)})
			}
		}
	}
	t.Violated(vs...)
})

// subscribeUnknown subscribes to id and returns the error the agent answered
// (before the stream or as its first event), or an error saying what the
// stream did instead. The wait is bounded by the run's patience, which
// follows the agent's pace (suites.T.Patience), not by a constant.
func subscribeUnknown(ctx context.Context, t *suites.T, c *client.Client, id string) error {
	sctx, cancel := suites.Ctx(ctx, t.Patience())
	defer cancel()
	s, err := c.SubscribeToTask(sctx, &a2a.SubscribeToTaskRequest{ID: id})
	if err != nil {
		return err
	}
	defer s.Close()
	ev, err := s.Next()
	switch {
	case errors.Is(err, io.EOF):
		return errors.New("the stream opened and closed without an event")
	case err != nil:
		return err
	}
	return fmt.Errorf("the stream opened and sent an event with %v", ev.Members())
}

// LIFE-007 (§3.1.3, §3.1.5, §3.1.6): GetTask, CancelTask and (when streaming
// is advertised) SubscribeToTask of an unknown id get TaskNotFoundError on
// every binding.
var _ = suites.Spec("LIFE-007", func(ctx context.Context, t *suites.T) {
	var vs []invariants.Violation
	streaming := t.Card().Streaming()
	if !streaming {
		t.Observe("subscribe", "not checked: the card does not advertise streaming")
	}
	for _, c := range t.Clients() {
		id := suites.NewID("task-unknown")
		in := " of unknown task " + id + " (" + c.Binding() + ")"
		_, err := t.Get(ctx, c, id)
		vs = append(vs, violations(expectKind(err, a2a.ErrTaskNotFound, "GetTask"+in))...)
		_, err = t.Cancel(ctx, c, id)
		vs = append(vs, violations(expectKind(err, a2a.ErrTaskNotFound, "CancelTask"+in))...)
		if streaming {
			err = subscribeUnknown(ctx, t, c, id)
			vs = append(vs, violations(expectKind(err, a2a.ErrTaskNotFound, "SubscribeToTask"+in))...)
		}
	}
	t.Violated(vs...)
})

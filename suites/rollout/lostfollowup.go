package rollout

import (
	"context"
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// laterLook is how long, after the follow-ups to a lost task were answered
// TaskNotFoundError, the spec keeps reading the id to see whether it was
// re-created behind the answer (a worker that applies a queued message, a
// store written behind): long enough for a write-behind of a second or two
// on a loaded machine, and only spent on a task the deployment lost.
const laterLook = 3 * time.Second

// maxHistory is the historyLength of the later look's reads: more messages
// than a lost task and its follow-ups hold.
const maxHistory = 1000

// lostTask is a task the deployment lost, as the spec created it.
type lostTask struct {
	id, contextID string
	// firstMessage is the id of the message that created it.
	firstMessage string
}

// followUpLostTask sends the follow-ups a client sends to a task the
// deployment lost, through c: one naming the taskId alone, then (when that
// was refused) one naming it with its contextId, as SDK clients send it.
// Each must get TaskNotFoundError, never a task (§3.4.2: the id is the
// server's, and a task it lost does not exist). Then it reads the id again
// for laterLook: a task under it that holds a refused follow-up, lives in
// another context, or lacks the first message was re-created behind the
// answer.
func followUpLostTask(ctx context.Context, t *suites.T, c *client.Client, lost lostTask) {
	var refused []string
	type shape struct{ what, contextID string }
	shapes := []shape{{"the lost task " + lost.id, ""}}
	if lost.contextID != "" {
		shapes = append(shapes, shape{"the lost task " + lost.id + " with its contextId " + lost.contextID, lost.contextID})
	}
	for _, sh := range shapes {
		follow := a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser, TaskID: lost.id, ContextID: sh.contextID,
			Parts: []a2a.Part{a2a.TextPart("follow-up after the rotation")}}
		resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &follow, Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
		if isKind(err, a2a.ErrTaskNotFound) {
			refused = append(refused, follow.MessageID)
			continue
		}
		actual := suites.ErrText(err)
		if err == nil && resp != nil && resp.Task != nil {
			actual = fmt.Sprintf("a task %s in %s, context %s, with %d history message(s)", resp.Task.ID, resp.Task.Status.State, resp.Task.ContextID, len(resp.Task.History))
		}
		t.Record(invariants.Violation{Invariant: "lost-task-not-recreated", Where: "SendMessage naming " + sh.what,
			Expected: "TaskNotFoundError (§3.4.2: the id is the server's; a task it lost does not exist)", Actual: actual})
		// The id may now name what this follow-up made: a later one tells
		// nothing more.
		return
	}
	t.Observe("lost-task-follow-ups", fmt.Sprintf("%d follow-ups naming lost task %s (alone, then with its contextId) answered TaskNotFoundError; the id read again for %s", len(refused), lost.id, laterLook))
	answered := time.Now()
	deadline := answered.Add(laterLook)
	// The whole history is asked for: an agent's default may be its last
	// messages only, which would hide the lost task's first one.
	whole := int32(maxHistory)
	for {
		got, err := t.GetTask(ctx, c, &a2a.GetTaskRequest{ID: lost.id, HistoryLength: &whole})
		if err == nil {
			if v := reappeared(got, lost, refused); v != nil {
				v.Actual += fmt.Sprintf(", %s after the follow-ups were answered TaskNotFoundError", since(answered))
				t.Record(*v)
			} else {
				t.Observe("lost-task-reappeared", fmt.Sprintf("task %s showed up again %s after the follow-ups were answered TaskNotFoundError, as it was (its context and first message), holding none of them", lost.id, since(answered)))
			}
			return
		}
		if !time.Now().Before(deadline) || ctx.Err() != nil {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(suites.AwaitPoll(time.Since(answered))):
		}
	}
}

// reappeared judges a task read under a lost task's id after follow-ups
// naming it were answered TaskNotFoundError (refused: their message ids). It
// may be the lost task itself, shown late; it may not be a task re-created
// behind the answer: one holding a refused follow-up (applied after all), in
// another context, or, when it shows history, without the message that
// created the lost task.
func reappeared(got *a2a.Task, lost lostTask, refused []string) *invariants.Violation {
	v := &invariants.Violation{Invariant: "lost-task-not-recreated", Where: "GetTask " + lost.id + " after follow-ups naming it got TaskNotFoundError",
		Expected: "TaskNotFoundError still, or the lost task as it was (§3.4.2: the id is the server's; a refused message is not applied)"}
	for _, id := range refused {
		if got.HasMessage(id) {
			v.Actual = fmt.Sprintf("a task in %s holding the follow-up %s the agent had answered TaskNotFoundError", got.Status.State, id)
			return v
		}
	}
	switch {
	case got.ContextID != lost.contextID:
		v.Actual = fmt.Sprintf("a task in %s in another context (%s, not %s): re-created under the id", got.Status.State, got.ContextID, lost.contextID)
	case len(got.History) > 0 && !got.HasMessage(lost.firstMessage):
		v.Actual = fmt.Sprintf("a task in %s whose %d history message(s) lack the lost task's first message %s: re-created under the id", got.Status.State, len(got.History), lost.firstMessage)
	default:
		return nil
	}
	return v
}

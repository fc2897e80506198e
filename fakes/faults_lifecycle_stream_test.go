package fakes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// The observations of the streaming, listing and history faults, added to
// faultCases so that TestFaults runs each with the fault on and off.
func init() {
	faultCases[faultStreamMessageThenMore] = func(e *faultEnv) string {
		n := e.node(Options{})
		m := scripted(directive.Directive{Outcome: directive.OutcomeMessage, Text: "one reply"})
		s, err := n.rest().SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: m})
		if err != nil {
			e.t.Fatal(err)
		}
		if evs := collect(e.t, s); len(evs) != 1 || evs[0].Message == nil {
			return fmt.Sprintf("%d events for one Message reply: %s", len(evs), describe(evs))
		}
		return ""
	}
	faultCases[faultStreamFirstSubscriberOnly] = func(e *faultEnv) string {
		n := e.node(Options{})
		m := scripted(directive.Directive{DelayMs: 60_000})
		first, err := n.rpc().SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: m})
		if err != nil {
			e.t.Fatal(err)
		}
		ev, err := first.Next()
		if err != nil || ev.Task == nil {
			e.t.Fatalf("first event: %v %v", describe([]a2a.StreamResponse{ev}), err)
		}
		second, err := n.rest().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: ev.Task.ID})
		if err != nil {
			e.t.Fatal(err)
		}
		if _, err := n.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: ev.Task.ID}); err != nil {
			e.t.Fatal(err)
		}
		a, b := collect(e.t, first), collect(e.t, second)
		if got, want := describe(b[1:]), describe(a); got != want {
			return fmt.Sprintf("first stream after its task: %q; second after its snapshot: %q", want, got)
		}
		return ""
	}
	faultCases[faultListIgnoresFilter] = func(e *faultEnv) string {
		n := e.node(Options{})
		mine := sendTask(e.t, n.rpc(), userMsg("in context"), nil)
		sendTask(e.t, n.rpc(), userMsg("elsewhere"), nil)
		list, err := n.rest().ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: mine.ContextID, Status: a2a.TaskStateCompleted})
		if err != nil {
			e.t.Fatal(err)
		}
		if len(list.Tasks) != 1 || list.Tasks[0].ID != mine.ID {
			return fmt.Sprintf("contextId filter listed %d tasks", len(list.Tasks))
		}
		return ""
	}
	faultCases[faultHistoryReversed] = func(e *faultEnv) string {
		n := e.node(Options{})
		task := sendTask(e.t, n.rpc(), scripted(directive.Directive{Outcome: directive.OutcomeInputRequired}), nil)
		more := userMsg("the input")
		more.TaskID = task.ID
		sendTask(e.t, n.rpc(), more, nil)
		got := getTask(e.t, n.rpc(), task.ID)
		var ids []string
		for _, m := range got.History {
			ids = append(ids, m.MessageID)
		}
		if len(ids) < 2 || ids[len(ids)-1] != more.MessageID {
			return "history not oldest first: " + strings.Join(ids, ", ")
		}
		return ""
	}
}

// The first-subscriber fault leaves a lone stream alone, so that the specs of
// single streams are not disturbed by it.
func TestFirstSubscriberOnlyLeavesALoneStreamAlone(t *testing.T) {
	n := startNode(t, Options{Faults: []string{faultStreamFirstSubscriberOnly}})
	m := scripted(directive.Directive{DelayMs: 5, ArtifactChunks: intp(2)})
	s, err := n.rest().SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: m})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := describe(collect(t, s)), "task:TASK_STATE_SUBMITTED status:TASK_STATE_WORKING artifact(append=false,last=false) artifact(append=true,last=true) status:TASK_STATE_COMPLETED"; got != want {
		t.Fatalf("lone stream: %s, want %s", got, want)
	}
}

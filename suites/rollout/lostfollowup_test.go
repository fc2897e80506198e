package rollout

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// A task read under a lost task's id after TaskNotFoundError answers may be
// the lost task shown late, never one re-created behind the answers.
func TestReappeared(t *testing.T) {
	lost := lostTask{id: "t1", contextID: "c1", firstMessage: "m1"}
	msg := func(id string) a2a.Message { return a2a.Message{MessageID: id, Role: a2a.RoleUser} }
	task := func(contextID string, history ...a2a.Message) *a2a.Task {
		return &a2a.Task{ID: "t1", ContextID: contextID, Status: a2a.TaskStatus{State: a2a.TaskStateWorking}, History: history}
	}
	cases := []struct {
		name string
		got  *a2a.Task
		bad  bool
	}{
		{"the lost task, shown late", task("c1", msg("m1")), false},
		{"the lost task, without history", task("c1"), false},
		{"the refused follow-up applied to it", task("c1", msg("m1"), msg("f2")), true},
		{"re-created from the follow-up, fresh context", task("c9", msg("f1")), true},
		{"re-created in its context from the follow-up", task("c1", msg("f2")), true},
		{"re-created in another context, history kept", task("c9", msg("m1")), true},
		{"re-created in its context, another message", task("c1", msg("x")), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if v := reappeared(c.got, lost, []string{"f1", "f2"}); (v != nil) != c.bad {
				t.Fatalf("violation %+v, want one: %v", v, c.bad)
			}
		})
	}
}

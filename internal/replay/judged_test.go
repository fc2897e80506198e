package replay

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// acrossStep says how much it could judge: a replay whose reads after the
// change never name a task seen before it, or whose follow-ups never name a
// lost task, has held nothing to those invariants (Run then lists them as
// unjudged, and an invariant unjudged is never "not reproduced").
func TestAcrossStepCountsWhatItJudged(t *testing.T) {
	at := [2]time.Duration{time.Second, 2 * time.Second}
	named := func(id string) string { return "task " + id }
	judges := []string{"task-survives-rotation", "task-survives-rollout", "lost-task-not-recreated"}
	before := answer{seq: 1, op: "SendMessage", task: "t1", issued: 0, got: &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}}
	for _, c := range []struct {
		name           string
		answers        []answer
		reads, follows int
	}{
		{"nothing after the change", []answer{before}, 0, 0},
		{"a read of another task", []answer{before, {seq: 2, op: "GetTask", task: "t9", issued: 3 * time.Second, got: &a2a.Task{ID: "t9"}}}, 0, 0},
		{"a read that failed otherwise", []answer{before, {seq: 2, op: "GetTask", task: "t1", issued: 3 * time.Second}}, 0, 0},
		{"the task read after", []answer{before, {seq: 2, op: "GetTask", task: "t1", issued: 3 * time.Second, got: &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}}}, 1, 0},
		{"lost, then followed up", []answer{before, {seq: 2, op: "GetTask", task: "t1", issued: 3 * time.Second, notFound: true},
			{seq: 3, op: "SendMessage", task: "t1", issued: 4 * time.Second, notFound: true}}, 1, 1},
	} {
		_, j := acrossStep(c.answers, map[string]string{}, at, "the roll", named, judges)
		if j.reads != c.reads || j.followUps != c.follows {
			t.Errorf("%s: judged %+v, want %d reads and %d follow-ups", c.name, j, c.reads, c.follows)
		}
	}
}

// A replay stopped before its schedule ended cannot say "not reproduced".
func TestStoppedReplayCannotReproduce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := &Bundle{Requests: []Request{{Exchange: exchange(1, 0, "http://a/a2a/jsonrpc", "", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t1"}}`)}}}
	_, err := Run(ctx, b, Options{Target: "http://127.0.0.1:1"})
	var cr *CannotReplay
	if !errors.As(err, &cr) {
		t.Fatalf("Run on a stopped context: %v, want CannotReplay", err)
	}
}

package clientdriver

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// variantGetsTaskAfterPush: after each push it takes, the client reads the
// task with GetTask for its full state, the pattern the streaming-and-async
// topic of A2A v1.0.1 describes for a client that got a push.
var variantGetsTaskAfterPush = registerVariant(Variant{
	Name:        "gets-task-after-push",
	Description: "After each push it takes, calls GetTask for the task's full state (the pattern A2A v1.0.1 docs/topics/streaming-and-async.md describes).",
	Specs:       []string{"CLI-022", "CLI-024", "CLI-025", "CLI-026", "CLI-037", "CLI-038"},
})

// confirmPushed reads task id after a push, and takes what it says.
func (d *Driver) confirmPushed(ctx context.Context, id string) (a2a.TaskState, error) {
	t, err := d.getTask(ctx, id, false)
	if err != nil {
		return "", err
	}
	return t.Status.State, nil
}

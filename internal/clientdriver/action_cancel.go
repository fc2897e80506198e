package clientdriver

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() { register(contract.ActionCancel, actionCancel) }

// actionCancel: stream; at WORKING cancel; keep consuming; GetTask once
// more. After an acknowledged cancel, a later state other than CANCELED is
// not taken (the kit's state rule): the client keeps CANCELED and warns.
func actionCancel(ctx context.Context, d *Driver) error {
	s, err := d.openStream(ctx, message(d.env.Text, "", ""))
	if err != nil || s == nil {
		return err
	}
	var cancelErr error
	err = d.consume(ctx, s, "stream", func(taskID string) {
		var t *a2a.Task
		cancelErr = d.transition(ctx, func(c *client.Client) error {
			var e error
			t, e = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: taskID})
			return e
		})
		if cancelErr == nil {
			d.cancelAnswered(t)
		}
	})
	if cancelErr != nil {
		return cancelErr
	}
	if err != nil {
		// A stream cut after the cancel: the GetTask below says what
		// became of the task.
		d.warn("the stream failed: %v", err)
	}
	id := d.taskID()
	if id == "" {
		return nil
	}
	_, err = d.getTask(ctx, id, false)
	return err
}

package clientdriver

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() { register(contract.ActionPoll, actionPoll) }

// actionPoll: resolve, send non-blocking, GetTask until terminal.
func actionPoll(ctx context.Context, d *Driver) error {
	t, err := d.send(ctx, message(d.env.Text, "", ""), &a2a.SendMessageConfiguration{ReturnImmediately: true})
	if err != nil || t == nil {
		return err
	}
	if t.Status.State.Terminal() {
		return nil
	}
	return d.pollUntilSettled(ctx, t.ID)
}

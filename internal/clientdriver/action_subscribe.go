package clientdriver

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() { register(contract.ActionSubscribe, actionSubscribe) }

// actionSubscribe: send non-blocking, SubscribeToTask, consume to the end;
// when the card declines streaming, poll instead of subscribing.
func actionSubscribe(ctx context.Context, d *Driver) error {
	t, err := d.send(ctx, message(d.env.Text, "", ""), &a2a.SendMessageConfiguration{ReturnImmediately: true})
	if err != nil || t == nil || t.Status.State.Terminal() {
		return err
	}
	if no, err := d.streamingDeclined(ctx); err != nil {
		return err
	} else if no {
		if d.variants.has(variantRaisesUnsupportedStreaming) {
			return errStreamingDeclined()
		}
		d.warn("the card does not claim streaming: polling task %s instead of subscribing", t.ID)
		return d.pollUntilSettled(ctx, t.ID)
	}
	var s *client.Stream
	if err := d.call(ctx, func(c *client.Client) error {
		var e error
		s, e = c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: t.ID})
		return e
	}); err != nil {
		return err
	}
	return d.settleAfterStream(ctx, d.consume(ctx, s, "stream", nil))
}

func getTask(id string) *a2a.GetTaskRequest { return &a2a.GetTaskRequest{ID: id} }

package clientdriver

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
)

func init() { register(clientrun.ActionStream, actionStream) }

// actionStream: resolve, send with streaming, consume until the end. A
// stream that breaks before the task is terminal (or interrupted) is not
// the task's end: the client says so and resyncs with GetTask until the
// task settles (a2a-v1 §6: after missed updates, use GetTask).
func actionStream(ctx context.Context, d *Driver) error {
	s, err := d.openStream(ctx, message(d.env.Text, "", ""))
	if err != nil || s == nil {
		return err
	}
	err = d.consume(ctx, s, "stream", nil)
	st, id := d.state(), d.taskID()
	if err == nil || id == "" || st.Terminal() || st.Interrupted() || ctx.Err() != nil {
		return err
	}
	if d.faults.has(faultStreamCutReadAsEnd) {
		d.logf("the stream broke (%v): taken as its end", err)
		return nil
	}
	d.warn("the stream of task %s broke before the task settled (%v); resyncing with GetTask", id, err)
	return d.pollUntilSettled(ctx, id)
}

// openStream sends a streaming message. Under error-as-empty-stream, a plain
// error answer is taken for an empty stream (nil stream, nil error).
func (d *Driver) openStream(ctx context.Context, m *a2a.Message) (*client.Stream, error) {
	var s *client.Stream
	err := d.call(ctx, func(c *client.Client) error {
		var e error
		s, e = c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: m})
		return e
	})
	if err != nil && d.faults.has(faultErrorAsEmptyStream) {
		if ce, ok := client.AsError(err); ok && !ce.InStream && ce.Class != client.Transport {
			d.logf("stream answered without events: taken as an empty stream")
			return nil, nil
		}
	}
	return s, err
}

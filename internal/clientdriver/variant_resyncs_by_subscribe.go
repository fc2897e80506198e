package clientdriver

import (
	"context"
	"errors"
	"io"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

// variantResyncsBySubscribe: the client resyncs with SubscribeToTask rather
// than GetTask: after a stream that broke before the task settled it
// subscribes again (and again, while streams keep breaking), and after a
// refused push it takes the task's snapshot from a subscription's first
// event. A2A v1.0 §3.7: "after reconnecting, use GetTask or a fresh
// SubscribeToTask snapshot to resync". A task already terminal cannot be
// subscribed to (UnsupportedOperationError, §3.1.6): then, and only then,
// GetTask.
var variantResyncsBySubscribe = registerVariant(Variant{
	Name:        "resyncs-by-subscribe",
	Description: "Resyncs with SubscribeToTask instead of GetTask: after a stream cut (subscribing again while streams break) and after a refused push (the subscription's first event is the snapshot); GetTask only for a task already terminal.",
	Specs:       []string{"CLI-036", "CLI-037"},
})

// resubscribe follows task id with SubscribeToTask until it settles.
func (d *Driver) resubscribe(ctx context.Context, id string) error {
	for ctx.Err() == nil {
		var s *client.Stream
		err := d.call(ctx, func(c *client.Client) error {
			var e error
			s, e = c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id})
			return e
		})
		if err != nil {
			if classify(err) == contract.ClassUnsupportedOperation {
				d.warn("task %s can no longer be subscribed to (%v): polling GetTask for its final state", id, err)
				return d.pollUntilSettled(ctx, id)
			}
			return err
		}
		err = d.consume(ctx, s, "stream", nil)
		if st := d.state(); st.Terminal() || st.Interrupted() {
			return nil
		}
		d.warn("the subscription to task %s ended before the task settled (%v); subscribing again", id, err)
	}
	return ctx.Err()
}

// snapshot takes task id's state from the first event of a subscription
// (the Task snapshot), then closes it; a terminal task is read with GetTask.
func (d *Driver) snapshot(ctx context.Context, id string) (*a2a.Task, error) {
	var s *client.Stream
	err := d.do(ctx, true, func(c *client.Client) error {
		var e error
		s, e = c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id})
		return e
	})
	if err != nil {
		if classify(err) != contract.ClassUnsupportedOperation {
			return nil, err
		}
		return d.getTask(ctx, id, false)
	}
	defer s.Close()
	ev, err := s.Next()
	if errors.Is(err, io.EOF) {
		err = errors.New("the subscription ended without a snapshot")
	}
	if err != nil {
		return nil, err
	}
	if ev.Task == nil {
		return nil, &client.Error{Class: client.Protocol, Op: a2a.MethodSubscribeToTask, Message: "the subscription's first event is not the task's snapshot"}
	}
	d.seeTask("stream", ev.Task)
	return ev.Task, nil
}

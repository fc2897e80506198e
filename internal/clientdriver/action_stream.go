package clientdriver

import (
	"context"
	"errors"
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() { register(contract.ActionStream, actionStream) }

// actionStream: resolve, send with streaming, consume until the end; when
// the card declines streaming, send and poll instead.
func actionStream(ctx context.Context, d *Driver) error { return d.streamText(ctx, d.env.Text) }

// streamText is the stream action's flow for a message of the given text.
func (d *Driver) streamText(ctx context.Context, text string) error {
	if no, err := d.streamingDeclined(ctx); err != nil {
		return err
	} else if no {
		if d.variants.has(variantRaisesUnsupportedStreaming) {
			return errStreamingDeclined()
		}
		d.warn("the card does not claim streaming: sending without it and polling")
		return d.sendText(ctx, text)
	}
	s, err := d.openStream(ctx, message(text, "", ""))
	if err != nil && d.variants.has(variantStreamingRefusedSends) && classify(err) == contract.ClassUnsupportedOperation {
		d.warn("the agent refused streaming although its card claims it (%v): downgraded to SendMessage and polling", err)
		return d.sendText(ctx, text)
	}
	if err != nil || s == nil {
		return err
	}
	err = d.consume(ctx, s, "stream", nil)
	if d.faults.has(faultAbortsOnUnknownEvent) && errors.Is(err, client.ErrUnknownEventKind) {
		return err // raised as the end of the stream, as an SDK whose decoder refuses it does
	}
	if ce, ok := client.AsError(err); ok && ce.InStream && ce.Class == client.A2A &&
		d.faults.has(faultDropsRESTStreamError) && d.cl != nil && d.cl.Binding() == a2a.BindingHTTPJSON {
		d.report.Event("stream", "", "", "", "") // an event with nothing in it, then the end
		d.logf("the stream ended after an event with no content")
		return nil
	}
	return d.settleAfterStream(ctx, err)
}

// settleAfterStream handles a stream that ended before the task settled (cut
// mid-task, or closed early): the client does not take the last state it
// saw for the outcome, but polls GetTask until the task settles, and warns.
func (d *Driver) settleAfterStream(ctx context.Context, streamErr error) error {
	id, st := d.taskID(), d.state()
	if id == "" || st.Terminal() || st.Interrupted() {
		return streamErr
	}
	if d.faults.has(faultStreamCutReadAsEnd) {
		d.logf("the stream ended early (%v): taken as its end", streamErr)
		return nil
	}
	if d.faults.has(faultCleanCloseReadAsEnd) {
		if streamErr == nil {
			d.logf("the stream ended cleanly at %s: taken as its end", st)
			return nil
		}
		return streamErr
	}
	why := "the stream ended before the task settled"
	if streamErr != nil {
		why = "the stream failed before the task settled (" + streamErr.Error() + ")"
	}
	switch {
	case d.variants.has(variantRaisesStreamCut):
		if streamErr != nil {
			return fmt.Errorf("%s: %w", why, streamErr)
		}
		return &client.Error{Class: client.Protocol, Op: a2a.MethodSendStreamingMessage, Message: why + " (task " + id + " last seen " + string(st) + ")"}
	case d.variants.has(variantResyncsBySubscribe):
		d.warn("%s; subscribing to task %s", why, id)
		return d.resubscribe(ctx, id)
	}
	d.warn("%s; polling GetTask", why)
	return d.pollUntilSettled(ctx, id)
}

// openStream sends a streaming message. Under error-as-empty-stream, a plain
// error answer is taken for an empty stream (nil stream, nil error).
func (d *Driver) openStream(ctx context.Context, m *a2a.Message) (*client.Stream, error) {
	var s *client.Stream
	err := d.transition(ctx, func(c *client.Client) error {
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

// errStreamingDeclined is what raises-unsupported-streaming raises when the
// card declines streaming.
func errStreamingDeclined() error {
	return &client.Error{Class: client.Protocol, Kind: a2a.ErrUnsupportedOperation,
		Message: "the card does not claim streaming (capabilities.streaming): not attempted"}
}

package clientdriver

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() { register(contract.ActionSend, actionSend) }

// actionSend: resolve, send one blocking message, poll a task that is not
// yet settled until it is.
func actionSend(ctx context.Context, d *Driver) error { return d.sendText(ctx, d.env.Text) }

// sendText is the send action's flow for a message of the given text.
func (d *Driver) sendText(ctx context.Context, text string) error {
	t, err := d.send(ctx, message(text, "", ""), nil)
	if err != nil || t == nil {
		return err
	}
	if t.Status.State.Terminal() || (t.Status.State.Interrupted() && !d.faults.has(faultInterruptedReadAsWorking)) {
		return nil
	}
	return d.pollUntilSettled(ctx, t.ID)
}

// send sends one message and records what came back; a Message reply
// returns a nil task.
func (d *Driver) send(ctx context.Context, m *a2a.Message, conf *a2a.SendMessageConfiguration) (*a2a.Task, error) {
	if conf == nil && d.variants.has(variantReturnsImmediately) {
		conf = &a2a.SendMessageConfiguration{ReturnImmediately: true}
	}
	var resp *a2a.SendMessageResponse
	err := d.transition(ctx, func(c *client.Client) error {
		var e error
		resp, e = c.SendMessage(ctx, &a2a.SendMessageRequest{Message: m, Configuration: conf})
		return e
	})
	if err != nil {
		return nil, err
	}
	if resp.Message != nil && d.faults.has(faultMessageResultDropped) {
		return nil, &client.Error{Class: client.Protocol, Op: "SendMessage", Message: "the response carries no task"}
	}
	if err := d.strict(resp.Task, resp.Message); err != nil {
		return nil, err
	}
	if resp.Message != nil {
		d.see("response", "message", resp.Message.TaskID, resp.Message.ContextID, "")
		return nil, nil
	}
	if resp.Task == nil {
		return nil, &client.Error{Class: client.Protocol, Op: "SendMessage", Message: "the response carries neither a task nor a message"}
	}
	d.seeTask("response", resp.Task)
	return resp.Task, nil
}

package clientdriver

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() { register(contract.ActionList, actionList) }

// actionList: resolve, send (blocking) until the task settles, then list the
// tasks of its context in the state it ended in, ten to a page; report each
// listed task as a "list" event.
func actionList(ctx context.Context, d *Driver) error {
	t, err := d.send(ctx, message(d.env.Text, "", ""), nil)
	if err != nil || t == nil {
		return err
	}
	if !t.Status.State.Terminal() && !t.Status.State.Interrupted() {
		if err := d.pollUntilSettled(ctx, t.ID); err != nil {
			return err
		}
	}
	pageSize := int32(10)
	var out *a2a.ListTasksResponse
	err = d.call(ctx, func(c *client.Client) error {
		var e error
		out, e = c.ListTasks(ctx, &a2a.ListTasksRequest{ContextID: t.ContextID, Status: d.state(), PageSize: &pageSize})
		return e
	})
	if err != nil {
		return err
	}
	for _, lt := range out.Tasks {
		d.report.Event("list", "task", lt.ID, string(lt.Status.State), "")
	}
	return nil
}

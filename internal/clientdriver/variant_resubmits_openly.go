package clientdriver

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// variantResubmitsOpenly: a task lost across a card rotation
// (TaskNotFoundError) is re-submitted as a new task, openly: the original
// request again, then the follow-up on the new task, reported as
// resubmittedTaskId. Scenario 1: "the task did not survive the rotation and
// must be re-submitted as a *new* task"; docs/levels.md (CLI-021) accepts
// reporting the task lost or re-submitting it and saying so.
var variantResubmitsOpenly = registerVariant(Variant{
	Name:        "resubmits-openly",
	Description: "Re-submits a task lost across a rotation as a new task (the first message again, then the follow-up) and reports it (resubmittedTaskId), instead of reporting it lost.",
	Specs:       []string{"CLI-021"},
})

// resubmit re-creates lost task lost as a new task: the first message
// again, then the follow-up once the new task asks for it.
func (d *Driver) resubmit(ctx context.Context, lost *a2a.Task) error {
	nt, err := d.send(ctx, message(d.env.Text, "", ""), nil)
	if err != nil {
		return err
	}
	if nt == nil {
		return &client.Error{Class: client.Protocol, Op: a2a.MethodSendMessage, Message: "the re-submission was answered with a message, not a task"}
	}
	d.report.Resubmitted(nt.ID, nt.ContextID)
	d.report.Believe("response", string(nt.Status.State))
	d.warn("task %s was lost (TaskNotFoundError after the card changed): re-submitted as new task %s", lost.ID, nt.ID)
	if !nt.Status.State.Interrupted() && !nt.Status.State.Terminal() {
		if err := d.pollUntilSettled(ctx, nt.ID); err != nil {
			return err
		}
	}
	if !d.state().Interrupted() {
		return nil
	}
	t2, err := d.send(ctx, message(d.env.FollowUpText, nt.ID, nt.ContextID), nil)
	if err != nil {
		return err
	}
	if t2 != nil && !t2.Status.State.Terminal() && !t2.Status.State.Interrupted() {
		return d.pollUntilSettled(ctx, t2.ID)
	}
	return nil
}

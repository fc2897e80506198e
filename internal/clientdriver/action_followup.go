package clientdriver

import (
	"context"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() { register(contract.ActionFollowUp, actionFollowUp) }

// actionFollowUp: send (the task stops at INPUT_REQUIRED), then the
// follow-up on the same task and context (call revalidates the card first).
// A TaskNotFound answer is reported as it is: the task was lost, and the
// client says so rather than carrying on.
func actionFollowUp(ctx context.Context, d *Driver) error {
	t, err := d.send(ctx, message(d.env.Text, "", ""), nil)
	if err != nil || t == nil {
		return err
	}
	if !t.Status.State.Interrupted() && !t.Status.State.Terminal() {
		if err := d.pollUntilSettled(ctx, t.ID); err != nil {
			if classify(err) == contract.ClassTaskNotFound {
				d.report.SetState("") // the task is lost: the client believes no state of it
			}
			return err
		}
	}
	// Before the follow-up (a transition), the card is revalidated; if it
	// changed, the task may not have survived the rotation: reconcile with
	// GetTask first (scenario 1) rather than assume it did.
	err = d.resolve(ctx, true)
	if err == nil && d.rotatedCard && !d.faults.has(faultResubmitsSilently) && !d.faults.has(faultHangsOnLostTask) {
		d.warn("the card changed since task %s began: reconciling with GetTask before the follow-up", t.ID)
		_, err = d.getTask(ctx, t.ID, false)
	}
	var t2 *a2a.Task
	if err == nil {
		t2, err = d.send(ctx, message(d.env.FollowUpText, t.ID, t.ContextID), nil)
	}
	if err != nil {
		if classify(err) != contract.ClassTaskNotFound {
			return err
		}
		switch {
		case d.faults.has(faultHangsOnLostTask):
			for ctx.Err() == nil {
				_ = d.call(ctx, func(c *client.Client) error { _, e := c.GetTask(ctx, getTask(t.ID)); return e })
				select {
				case <-ctx.Done():
				case <-time.After(200 * time.Millisecond):
				}
			}
			// Hangs: it never reports (the CLI then blocks until the
			// harness kills it).
			return errHung
		case d.variants.has(variantResubmitsOpenly) || d.faults.has(faultResubmitsUnresolved):
			return d.resubmit(ctx, t)
		case d.faults.has(faultResubmitsSilently):
			nt, nerr := d.send(ctx, message(d.env.FollowUpText, "", ""), nil)
			if nerr != nil || nt == nil {
				return nerr
			}
			// The new task's state is reported as the lost one's.
			d.mu.Lock()
			d.adopted = nt.ID
			d.mu.Unlock()
			d.report.SetState(string(nt.Status.State))
			if !nt.Status.State.Terminal() {
				return d.pollUntilSettled(ctx, nt.ID)
			}
			return nil
		}
		d.report.SetState("") // the task is lost: the client believes no state of it
		return err
	}
	if t2 != nil && !t2.Status.State.Terminal() && !t2.Status.State.Interrupted() {
		return d.pollUntilSettled(ctx, t2.ID)
	}
	return nil
}

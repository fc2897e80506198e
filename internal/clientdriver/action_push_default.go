package clientdriver

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/clientkit"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
	"github.com/a2a-conform/a2a-conform/reports"
)

func init() { register(contract.ActionPushDefault, actionPushDefault) }

// actionPushDefault: the client's default push config is the case's
// webhook (the harness's client has no such setting, so the driver holds
// it and attaches it to every message the client sends); create one task
// with SendMessage (non-blocking) and one with SendStreamingMessage, then
// receive pushes until each task's terminal state came, or none came for
// pushQuiet.
func actionPushDefault(ctx context.Context, d *Driver) error {
	// Set before the receiver runs: nothing else writes the map yet.
	d.report.Supplied[reports.PieceDefaultPush] = reports.SuppliedByDriver
	var (
		mu    sync.Mutex
		ended = map[string]bool{}
	)
	pushed := make(chan struct{}, 1)
	rv, err := clientkit.Receive(clientkit.Env{WebhookListen: d.env.WebhookListen, PushToken: d.env.PushToken}, nil, func(p clientkit.Push) {
		// Recorded, not taken: the action reports what was pushed, not a
		// state of the client's task.
		d.report.Record("push", p.Kind, p.TaskID, p.State, "")
		mu.Lock()
		if clientkit.Terminal(p.State) {
			ended[p.TaskID] = true
		}
		mu.Unlock()
		select {
		case pushed <- struct{}{}:
		default:
		}
	})
	if err != nil {
		return err
	}
	defer rv.Close()

	var tasks []string
	sent, err := d.send(ctx, message(d.env.Text, "", ""), &a2a.SendMessageConfiguration{ReturnImmediately: true,
		TaskPushNotificationConfig: d.defaultPush(false, false)})
	if err != nil {
		return err
	}
	if sent != nil {
		tasks = append(tasks, sent.ID)
		if err := d.registerDefault(ctx, sent.ID); err != nil {
			return err
		}
	}
	streamed, err := d.streamWithDefault(ctx, message(d.env.FollowUpText, "", ""))
	if err != nil {
		return err
	}
	if streamed != "" {
		tasks = append(tasks, streamed)
	}
	quiet := time.NewTimer(pushQuiet)
	defer quiet.Stop()
	for {
		mu.Lock()
		all := true
		for _, id := range tasks {
			all = all && ended[id]
		}
		mu.Unlock()
		if all {
			return nil
		}
		select {
		case <-pushed:
			quiet.Reset(pushQuiet)
		case <-quiet.C:
			d.warn("no push for %s: not every task's terminal state was pushed", pushQuiet)
			return nil
		case <-ctx.Done():
			return errors.New("the tasks' terminal pushes did not all arrive in time")
		}
	}
}

// defaultPush is the config the client attaches to a message: its default,
// unless a fault leaves it off that kind of request or the variant
// registers it separately.
func (d *Driver) defaultPush(namesTask, streamed bool) *a2a.TaskPushNotificationConfig {
	switch {
	case d.variants.has(variantRegistersDefaultSeparately),
		d.faults.has(faultDefaultPushOnlyWithTaskID) && !namesTask,
		d.faults.has(faultDefaultPushOnlyUnary) && streamed:
		return nil
	}
	return d.pushConfig(d.env.PushToken)
}

// registerDefault gives task id the default config separately
// (CreateTaskPushNotificationConfig), under registers-default-separately.
func (d *Driver) registerDefault(ctx context.Context, id string) error {
	if !d.variants.has(variantRegistersDefaultSeparately) {
		return nil
	}
	cfg := d.pushConfig(d.env.PushToken)
	cfg.TaskID = id
	return d.transition(ctx, func(c *client.Client) error {
		_, e := c.CreateTaskPushNotificationConfig(ctx, cfg)
		return e
	})
}

// streamWithDefault streams a message that creates a task, with the default
// config, and consumes the stream; it returns the task created ("" for a
// Message reply). Under registers-default-separately the config is
// registered once the task is first seen WORKING.
func (d *Driver) streamWithDefault(ctx context.Context, m *a2a.Message) (string, error) {
	var s *client.Stream
	err := d.transition(ctx, func(c *client.Client) error {
		var e error
		s, e = c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: m,
			Configuration: &a2a.SendMessageConfiguration{TaskPushNotificationConfig: d.defaultPush(false, true)}})
		return e
	})
	if err != nil {
		return "", err
	}
	var id string
	var regErr error
	err = d.consume(ctx, s, "stream", func(taskID string) {
		id = taskID
		regErr = d.registerDefault(ctx, taskID)
	})
	if id == "" {
		id = d.taskID()
	}
	return id, errors.Join(err, regErr)
}

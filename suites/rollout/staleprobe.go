package rollout

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// probeDrops judges the new build by what it does, not its card alone
// (ROLL-007, scenario 3: "capabilities advertised by the card are confirmed
// by live behaviour"). Each capability the held card and the new build's
// own card both claim is tried on the new build through c: refused there,
// it was dropped all the same, so the stale claim is acted on as for a
// capability the card dropped, and the new build's card, which still claims
// it, is recorded as overclaiming (§3.1.2, §3.1.7: a claimed capability's
// operation MUST establish what it names). It returns what it found
// dropped by behaviour, for the report.
func probeDrops(ctx context.Context, t *suites.T, c *client.Client, stale, live a2a.AgentCard, d *drops) []string {
	var found []string
	if stale.Streaming() && live.Streaming() && !d.streaming {
		msg := t.Scripted(slowScript(crossStep))
		s, err := onceMore(func() (*client.Stream, error) {
			return c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
		})
		if err == nil {
			s.Close()
		} else if isKind(err, a2a.ErrUnsupportedOperation) {
			d.streaming = true
			found = append(found, "streaming")
			t.Record(invariants.Violation{Invariant: "card-claims-confirmed", Where: "SendStreamingMessage on the new build, whose own card claims capabilities.streaming",
				Expected: "a stream (§3.1.2: the operation MUST establish a streaming connection)", Actual: suites.ErrText(err)})
		}
	}
	if stale.PushNotifications() && live.PushNotifications() && !d.push {
		task, _ := start(ctx, t, c, slowScript(crossStep), nil)
		cfg := &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "https://push.invalid/a2a-conform"}
		if t.Env.Webhook != nil {
			cfg = t.NewPushHook("Bearer").For(task.ID)
		}
		_, err := onceMore(func() (*a2a.TaskPushNotificationConfig, error) { return c.CreateTaskPushNotificationConfig(ctx, cfg) })
		if isKind(err, a2a.ErrPushNotificationNotSupported) {
			d.push = true
			found = append(found, "push notifications")
			t.Record(invariants.Violation{Invariant: "card-claims-confirmed", Where: "CreateTaskPushNotificationConfig for task " + task.ID + " on the new build, whose own card claims capabilities.pushNotifications",
				Expected: "the config stored (§3.1.7: the operation MUST establish a webhook endpoint)", Actual: suites.ErrText(err)})
		}
	}
	return found
}

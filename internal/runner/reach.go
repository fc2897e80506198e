package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// ReachOwner owns the probe's exchanges and its receiver token in the
// transcript: they belong to the run, not to a spec.
const ReachOwner = "webhook-reach"

// vouchedWait is how long the run waits for the probe's push when the
// harness configured the agent's path to the receiver itself.
const vouchedWait = 2 * time.Second

// proveWebhookReach decides, once and before any spec runs, whether the
// agent reaches the run's receiver (Env.WebhookReach), so that every spec
// judges a missing push from the same fact whatever order the specs run in
// ("nothing reached the receiver" decided at each spec's own time once gave
// push-drops-cancel a fail in a full run and could-not-run alone).
//
// The probe is one task that completes (the least behaviour, through the
// directive or the prompt map), with a config of its own given inline, and
// credentials of its own. Any POST to that config proves reach, whenever it
// comes: a push after the probe stopped waiting still upgrades the fact for
// the specs that decide later. When the harness configured the agent itself
// (vouched: the embedded driver) the run does not wait for it.
func proveWebhookReach(ctx context.Context, env *suites.Env, vouched bool) {
	r := suites.NewWebhookReach(vouched)
	env.WebhookReach = r
	switch {
	case env.Webhook == nil:
		r.Decide(suites.ReachUnknown, "the run has no receiver")
		return
	case env.Card == nil:
		r.Decide(suites.ReachUnknown, "the agent has no usable card")
		return
	case !env.Card.PushNotifications():
		r.Decide(suites.ReachUnknown, "the card does not advertise capabilities.pushNotifications")
		return
	case env.Behaviour == nil:
		r.Decide(suites.ReachUnknown, "the agent offers no scripted behaviour (no directive extension, no prompt map) to start the probe's task")
		return
	}
	c, err := reachClient(env)
	if err != nil {
		r.Decide(suites.ReachUnknown, err.Error())
		return
	}
	msg, err := env.Behaviour.Message(suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete})
	if err != nil {
		r.Decide(suites.ReachUnknown, "no message for a task that completes: "+err.Error())
		return
	}
	token, secret := webhook.NewToken(), webhook.NewSecret()
	if env.Transcript != nil {
		env.Transcript.AddSecret(secret)
	}
	env.Webhook.Claim(token, ReachOwner)
	env.Webhook.Authorize(token, "Bearer "+secret)
	env.Webhook.OnDelivery(token, func(d webhook.Delivery) { r.Arrived(d.At) })
	cfg := &a2a.TaskPushNotificationConfig{URL: env.Webhook.URL(token),
		Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: secret}}

	patience := env.Options.Patience
	if patience <= 0 {
		patience = suites.DefaultPatience
	}
	ctx = recorder.WithOwner(ctx, ReachOwner)
	sctx, cancel := context.WithTimeout(ctx, patience+FirstFetchTimeout)
	defer cancel()
	r.Registered(time.Now())
	resp, err := c.SendMessage(sctx, &a2a.SendMessageRequest{Message: &msg, Configuration: &a2a.SendMessageConfiguration{
		ReturnImmediately: true, TaskPushNotificationConfig: cfg}})
	switch {
	case err != nil && suites.RefusesWebhookURL(err):
		r.Decide(suites.ReachRefused, fmt.Sprintf("the agent refused the harness's receiver URL %s as a webhook (SendMessage with an inline config: %s); agents SHOULD refuse loopback and private addresses (§13.2), so give the run a --webhook-url this agent accepts",
			env.Webhook.Base()+"/hook/…", suites.ErrText(err)))
		return
	case err != nil:
		r.Decide(suites.ReachUnknown, "the probe's SendMessage failed: "+suites.ErrText(err))
		return
	case resp == nil || resp.Task == nil:
		r.Decide(suites.ReachUnknown, "the probe's message got a Message, not a task, so nothing would be pushed")
		return
	}
	if vouched {
		// The path is the harness's own: the run is held only briefly for
		// the push; its arrival (or not) is still recorded for the specs.
		for deadline := time.Now().Add(vouchedWait); time.Now().Before(deadline); {
			if ok, _ := r.Delivered(); ok {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
		r.Decide(suites.ReachUnknown, fmt.Sprintf("the probe's push had not arrived %s after its task was sent; the specs began without it", vouchedWait))
		return
	}
	// Wait for the task to end (at most the patience), then the patience
	// again for its push; the first POST ends the wait.
	id := resp.Task.ID
	ended := time.Time{}
	start := time.Now()
	for {
		if ok, _ := r.Delivered(); ok {
			return
		}
		now := time.Now()
		if ended.IsZero() {
			if task, err := c.GetTask(sctx, &a2a.GetTaskRequest{ID: id}); err == nil && task.Status.State.Terminal() {
				ended = now
			} else if now.Sub(start) > patience {
				ended = now // the push may still come for a task that does not end
			}
		}
		if !ended.IsZero() && now.Sub(ended) > patience {
			reason := fmt.Sprintf("the agent accepted the config of probe task %s (url %s) and nothing arrived for it within %s",
				id, env.Webhook.Base()+"/hook/…", now.Sub(start).Round(time.Millisecond))
			if why := env.NoNetworkBetween(); why != "" {
				reason += "; " + suites.GuardAdvice(env.Webhook.Base(), why)
			}
			r.Decide(suites.ReachUnreachable, reason)
			return
		}
		select {
		case <-ctx.Done():
			r.Decide(suites.ReachUnknown, "the run ended before the probe's push came")
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// reachClient is a recorded client for the first interface the harness
// speaks, with the run's headers and the behaviour's extensions.
func reachClient(env *suites.Env) (*client.Client, error) {
	opts := []client.Option{client.WithHTTPClient(env.HTTP)}
	if env.RecordCall != nil {
		opts = append(opts, client.WithCallRecorder(env.RecordCall))
	}
	if env.GRPCSchema != nil {
		opts = append(opts, client.WithGRPCSchema(env.GRPCSchema))
	}
	if env.TLSConfig != nil {
		opts = append(opts, client.WithTLSConfig(env.TLSConfig))
	}
	for name, values := range env.Headers {
		for _, v := range values {
			opts = append(opts, client.WithHeader(name, v))
		}
	}
	if ext := env.Behaviour.Extensions(); len(ext) > 0 {
		opts = append(opts, client.WithExtensions(ext...))
	}
	for _, iface := range env.Card.SupportedInterfaces {
		if client.Speaks(iface.ProtocolBinding) {
			return client.New(iface, opts...)
		}
	}
	return nil, fmt.Errorf("the card declares no interface the harness speaks")
}

package webhook

import (
	"context"
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// PUSH-010 (§13.2 SHOULD): a loopback canary nobody registered. Only
// loopback is ever used: the harness sends nothing to private or public
// addresses, even to test their refusal.
var _ = suites.Spec("PUSH-010", func(ctx context.Context, t *suites.T) {
	if !t.Card().PushNotifications() {
		t.NotApplicable("the card does not advertise capabilities.pushNotifications (DISC-014 checks that every push operation is then refused).")
	}
	c := t.Client()
	canary, err := webhook.StartCanary(nil, t.Info.ID)
	if err != nil {
		t.Indeterminate("could not open the loopback canary: %v", err)
	}
	defer canary.Close()
	t.Observe("canary", canary.URL())
	msg := t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete})
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg, Configuration: &a2a.SendMessageConfiguration{
		ReturnImmediately:          true,
		TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: canary.URL()},
	}})
	if err != nil {
		// Only an A2A error answer is a refusal; a broken answer shows nothing.
		if ce, ok := client.AsError(err); !ok || ce.Class != client.A2A {
			t.Indeterminate("the send with the canary's URL got %s, not an A2A answer, so whether the agent refused the webhook is unknown", suites.ErrText(err))
		}
		t.Observe("refused", suites.ErrText(err))
		return
	}
	if resp.Task == nil {
		t.Indeterminate("the agent answered with a Message, so no task would push to the canary")
	}
	ended := t.WaitFor(ctx, c, resp.Task.ID, "terminal", suites.Terminal)
	// The task's pushes are due from now on; a push may come as late as any
	// other (late is not lost), so the canary is watched for the patience,
	// and the watch ends at the first request.
	endedAt := time.Now()
	for time.Since(endedAt) < t.Patience() && len(canary.Hits()) == 0 && ctx.Err() == nil {
		pause(ctx, suites.Poll)
	}
	hits := canary.Hits()
	t.Observe("accepted", fmt.Sprintf("task %s (%s); %d request(s) reached the canary in the %s watched after the task ended",
		resp.Task.ID, ended.Status.State, len(hits), time.Since(endedAt).Round(time.Millisecond)))
	if len(hits) > 0 {
		t.Record(invariants.Violation{Invariant: "webhook-ssrf", Where: "inline push config of task " + resp.Task.ID,
			Expected: "a webhook on a loopback address no allow-list names refused, or never sent to",
			Actual:   fmt.Sprintf("%d POST(s) reached %s, %s after the task ended", len(hits), canary.URL(), hits[0].Sub(endedAt).Round(time.Millisecond))})
		return
	}
	// Silence at the canary shows a refusal only from an agent that is
	// shown to reach the harness's host at all.
	if why := t.ReachUnshown(nil); why != "" {
		if state, _ := t.Reach().State(); state == suites.ReachUnreachable && t.Env.NoNetworkBetween() != "" {
			// Scenario 2's boundary: acknowledged, then never attempted.
			// Whether a delivery an SSRF guard blocks is the attempt
			// §4.3.3 requires the text does not say, so it is a finding,
			// never a verdict.
			t.Finding("accepted and dropped: the agent acknowledged webhooks on loopback (the canary's, and the run's probe's) and never connected to them; " +
				"scenario 2 names this boundary (\"do not accept and drop\"). A2A v1.0.1 §4.3.3 says \"Agents MUST attempt delivery at least once for each configured webhook\" " +
				"and §13.2 \"Agents SHOULD validate webhook URLs to prevent SSRF\" without saying when, so whether a delivery the guard blocks is an attempt is left open; " +
				"refusing such a URL when the config is created tells the client at once")
		}
		t.Unchecked("nothing is sent to a loopback webhook", "the canary got nothing, but "+why+", so its silence proves nothing")
	}
})

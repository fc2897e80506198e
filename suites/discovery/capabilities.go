package discovery

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Capability honesty (§3.3.4, scenario 3): each flag is a claim, checked
// against what the operation does, both ways.

// liveFor is how long a scripted probe task stays working: long enough to
// subscribe to it or register a config on it before it ends; the spec
// cancels it when done.
const liveFor = 2 * time.Second

// placeholderHook is the webhook URL the refusal checks register when the
// run has no receiver: an agent that does not advertise push must refuse
// every config, whatever its URL. The .invalid TLD never resolves (RFC 2606),
// so nothing can be delivered to it.
const placeholderHook = "https://webhook.a2a-conform.invalid/disc-014"

// endTask cancels a probe task that may still be working, so that it leaves
// nothing running; the answer does not matter here.
func endTask(ctx context.Context, c *client.Client, task *a2a.Task) {
	if task != nil && !task.Status.State.Terminal() {
		_, _ = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
	}
}

// firstEvent reads the first event of a stream and closes it.
func firstEvent(s *client.Stream) (a2a.StreamResponse, error) {
	defer s.Close()
	return s.Next()
}

func eventKind(r a2a.StreamResponse) string {
	switch {
	case r.Task != nil:
		return "Task"
	case r.Message != nil:
		return "Message"
	case r.StatusUpdate != nil:
		return "TaskStatusUpdateEvent"
	case r.ArtifactUpdate != nil:
		return "TaskArtifactUpdateEvent"
	}
	return "an empty StreamResponse"
}

// canScript reports whether the run can make the agent show s (the
// directive extension, or a prompt-map key along s.Keys()), so that a spec
// can choose another means instead of ending could-not-run in t.Scripted.
func canScript(t *suites.T, s suites.Script) bool {
	if t.Env.Behaviour == nil {
		return false
	}
	if pm, ok := t.Env.Behaviour.(suites.PromptMapBehaviour); ok {
		_, err := pm.Key(s)
		return err == nil
	}
	return true
}

// liveScript asks for a task that stays working long enough to subscribe to
// or register a config on, settling for one that completes (the least a
// prompt map may offer): a spec then checks that it was still working.
var liveScript = suites.Script{Outcome: directive.OutcomeCompleted, Delay: liveFor, Least: suites.PromptComplete}

// someTask makes a task by the best means the run has: scripted when it can
// script s, else a plain message (an agent without any scripted behaviour
// may still answer with a task). It never ends the spec: nil with how it
// tried when the agent answered with a Message or an error, for the caller
// to say what went unchecked.
func someTask(ctx context.Context, t *suites.T, c *client.Client, s suites.Script) (*a2a.Task, string) {
	how := "a plain message (the run has no scripted behaviour for this)"
	msg := a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser,
		Parts: []a2a.Part{a2a.TextPart("a2a-conform capability probe: reply briefly.")}}
	if canScript(t, s) {
		msg = t.Scripted(s)
		how = "a scripted message (" + suites.KeyOf(t.Env.Behaviour, s) + ")"
	}
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	switch {
	case err != nil:
		return nil, how + " got " + suites.ErrText(err)
	case resp.Task == nil:
		return nil, how + " got a Message, not a task"
	}
	return resp.Task, how
}

// DISC-013 (§3.3.4, §3.1.2, §3.1.6): streaming is served when advertised (the
// first event is a Task or Message) and refused with UnsupportedOperationError
// on SendStreamingMessage and SubscribeToTask when not. Both operations are
// checked on every binding; a half that no means could check is listed as
// unchecked, and violations are kept as they are found (t.Record), so a later
// step that cannot run never hides them.
var _ = suites.Spec("DISC-013", func(ctx context.Context, t *suites.T) {
	advertised := t.Card().Streaming()
	t.Observe("streaming-advertised", fmt.Sprint(advertised))
	var raced []string
	for _, c := range t.Clients() {
		sctx, cancel := suites.Ctx(ctx, t.Patience())
		if advertised {
			vs, race := streamingServed(sctx, t, c)
			t.Record(vs...)
			if race != "" {
				raced = append(raced, race)
			}
		} else {
			t.Record(streamingRefused(sctx, t, c)...)
		}
		cancel()
	}
	if len(raced) > 0 {
		t.TooFast("%s", strings.Join(raced, "; "))
	}
})

// streamingServed checks both operations on an agent that advertises
// streaming. race is set when the probe task ended before it could be
// subscribed to: a subscribe to an ended task is rightly refused (§3.1.6),
// so the outcome is unknown, not failed.
func streamingServed(ctx context.Context, t *suites.T, c *client.Client) (vs []invariants.Violation, race string) {
	msg := a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser,
		Parts: []a2a.Part{a2a.TextPart("a2a-conform streaming probe: reply briefly.")}}
	if s := (suites.Script{Outcome: directive.OutcomeCompleted}); canScript(t, s) {
		msg = t.Scripted(s)
	}
	s, err := c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
	if err != nil {
		vs = append(vs, invariants.Violation{Invariant: "capability-streaming", Where: where("SendStreamingMessage", c),
			Expected: "an SSE stream (the card advertises streaming)", Actual: suites.ErrText(err)})
	} else if ev, err := firstEvent(s); err != nil || (ev.Task == nil && ev.Message == nil) {
		actual := eventKind(ev)
		if err != nil {
			actual = suites.ErrText(err)
		}
		vs = append(vs, invariants.Violation{Invariant: "capability-streaming", Where: where("SendStreamingMessage first event", c),
			Expected: "a Task or a Message", Actual: actual})
	}
	part := "SubscribeToTask served on " + c.Binding()
	task, how := someTask(ctx, t, c, liveScript)
	t.Observe("subscribe-task-"+c.Binding(), how)
	if task == nil {
		t.Unchecked(part, "there was no task to subscribe to: "+how+"; give the agent the directive extension, or a prompt map with a \"slow\" or \"complete\" entry")
		return vs, ""
	}
	defer endTask(ctx, c, task)
	if task.Status.State.Terminal() {
		return vs, fmt.Sprintf("on %s the probe task %s was already %s when SendMessage returned, so subscribing to it could not show streaming", c.Binding(), task.ID, task.Status.State)
	}
	s, err = c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID})
	if err != nil {
		if now, gerr := t.Get(ctx, c, task.ID); gerr == nil && now.Status.State.Terminal() {
			return vs, fmt.Sprintf("on %s the probe task %s was %s by the time SubscribeToTask answered %s, which an ended task rightly gets", c.Binding(), task.ID, now.Status.State, suites.ErrText(err))
		}
		return append(vs, invariants.Violation{Invariant: "capability-streaming", Where: where("SubscribeToTask "+task.ID, c),
			Expected: "an SSE stream for a working task (the card advertises streaming)", Actual: suites.ErrText(err)}), ""
	}
	ev, err := firstEvent(s)
	if err != nil {
		return append(vs, invariants.Violation{Invariant: "capability-streaming", Where: where("SubscribeToTask "+task.ID+" first event", c),
			Expected: "a stream event", Actual: suites.ErrText(err)}), ""
	}
	t.Observe("subscribe-first-event-"+c.Binding(), eventKind(ev))
	return vs, ""
}

// streamingRefused checks both operations on an agent that does not
// advertise streaming. SubscribeToTask is called on a task of the spec's own
// where one can be had; any task serves, ended or not, since every one must
// be refused. Without one, it is called on an id nobody issued: a refusal
// there shows the operation refused as such, while TaskNotFoundError is an
// allowed answer that shows nothing, so that half is unchecked.
func streamingRefused(ctx context.Context, t *suites.T, c *client.Client) []invariants.Violation {
	var vs []invariants.Violation
	refused := func(op string, s *client.Stream, err error) {
		if err == nil {
			// Opened: an error event first is still a refusal, anything else is service.
			var ev a2a.StreamResponse
			ev, err = firstEvent(s)
			if err == nil {
				vs = append(vs, invariants.Violation{Invariant: "capability-streaming", Where: where(op, c),
					Expected: "UnsupportedOperationError (the card does not advertise streaming)",
					Actual:   "a stream whose first event is " + eventKind(ev)})
				return
			}
			t.Observe("refusal-"+op+"-"+c.Binding(), "inside an opened stream")
		}
		if !isKind(err, a2a.ErrUnsupportedOperation) {
			vs = append(vs, invariants.Violation{Invariant: "capability-streaming", Where: where(op, c),
				Expected: "UnsupportedOperationError (the card does not advertise streaming)", Actual: suites.ErrText(err)})
		}
	}
	msg := a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser,
		Parts: []a2a.Part{a2a.TextPart("a2a-conform streaming probe: reply briefly.")}}
	s, err := c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &msg})
	refused("SendStreamingMessage", s, err)
	task, how := someTask(ctx, t, c, suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete})
	defer endTask(ctx, c, task)
	id := unknownTaskID()
	if task != nil {
		id = task.ID
		t.Observe("subscribe-task-"+c.Binding(), how)
	} else {
		t.Observe("subscribe-task-"+c.Binding(), "none ("+how+"): an id nobody issued")
	}
	s, err = c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id})
	if task == nil && isKind(err, a2a.ErrTaskNotFound) {
		t.Unchecked("SubscribeToTask refused on "+c.Binding(),
			"there was no task of the spec's own ("+how+"), and for an id nobody issued TaskNotFoundError is an allowed answer that does not show the refusal; give the agent the directive extension, or a prompt map with a \"complete\" entry")
		return vs
	}
	refused("SubscribeToTask", s, err)
	return vs
}

// DISC-014 (§3.3.4, §3.1.7): creating a push config on a live task succeeds
// exactly when the card advertises push; otherwise every push-config
// operation answers PushNotificationNotSupportedError. The config names the
// harness's own receiver: an agent that validates webhook URLs (§13.2 SHOULD)
// rightly refuses one that can never be delivered to.
var _ = suites.Spec("DISC-014", func(ctx context.Context, t *suites.T) {
	advertised := t.Card().PushNotifications()
	t.Observe("push-advertised", fmt.Sprint(advertised))
	var raced []string
	for _, c := range t.Clients() {
		if advertised {
			race := pushAccepted(ctx, t, c)
			if race != "" {
				raced = append(raced, race)
			}
		} else {
			pushRefused(ctx, t, c)
		}
	}
	if len(raced) > 0 {
		t.TooFast("%s", strings.Join(raced, "; "))
	}
})

// hookConfig is a config for taskID naming the run's webhook receiver, with
// a fresh token and Bearer credentials (kept out of reports), as the
// lifecycle specs register; placeholderHook when the run has no receiver.
func hookConfig(t *suites.T, taskID string) *a2a.TaskPushNotificationConfig {
	if t.Env.Webhook == nil {
		return &a2a.TaskPushNotificationConfig{TaskID: taskID, URL: placeholderHook}
	}
	secret := webhook.NewSecret()
	if t.Env.Transcript != nil {
		t.Env.Transcript.AddSecret(secret)
	}
	token := t.WebhookToken()
	t.Env.Webhook.Authorize(token, "Bearer "+secret)
	return &a2a.TaskPushNotificationConfig{TaskID: taskID, URL: t.Env.Webhook.URL(token),
		Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: secret}}
}

// pushAccepted checks that a config on a live task of the spec's own is
// created (then deletes it). It records violations and unchecked parts, and
// returns why the outcome is unknown when the task ended first (a config on
// an ended task may rightly be refused).
func pushAccepted(ctx context.Context, t *suites.T, c *client.Client) (race string) {
	part := "CreateTaskPushNotificationConfig accepted on " + c.Binding()
	if t.Env.Webhook == nil {
		t.Unchecked(part, "the run has no webhook receiver, and a URL nobody receives at may rightly be refused (§13.2); run with --webhook-listen (and --webhook-url if the agent reaches the harness by another address)")
		return ""
	}
	task, how := someTask(ctx, t, c, liveScript)
	t.Observe("push-task-"+c.Binding(), how)
	if task == nil {
		t.Unchecked(part, "there was no task to register a config on: "+how+"; give the agent the directive extension, or a prompt map with a \"slow\" or \"complete\" entry")
		return ""
	}
	defer endTask(ctx, c, task)
	cfg := hookConfig(t, task.ID)
	op := where("CreateTaskPushNotificationConfig for task "+task.ID, c)
	created, err := t.CreatePushConfig(ctx, c, cfg)
	if err != nil {
		switch {
		case isKind(err, a2a.ErrPushNotificationNotSupported) || isKind(err, a2a.ErrUnsupportedOperation):
			// The capability itself refused: what the spec exists to catch.
		case validationRefusal(err):
			t.Observe("push-config-"+c.Binding(), "refused the receiver URL: "+suites.ErrText(err))
			t.Unchecked(part, "the agent refused the harness's receiver URL "+cfg.URL+" as a webhook ("+suites.ErrText(err)+"); agents SHOULD refuse loopback and private addresses (§13.2): give the run a --webhook-url this agent accepts")
			return ""
		default:
			if now, gerr := t.Get(ctx, c, task.ID); gerr == nil && now.Status.State.Terminal() {
				return fmt.Sprintf("%s: %s; the task was already %s, which may be why", op, suites.ErrText(err), now.Status.State)
			}
		}
		t.Record(invariants.Violation{Invariant: "capability-push", Where: op,
			Expected: "the config, created (the card advertises pushNotifications)", Actual: suites.ErrText(err)})
		return ""
	}
	if created.ID != "" {
		_ = c.DeleteTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: created.ID})
	}
	t.Observe("push-config-"+c.Binding(), "created on a "+string(task.Status.State)+" task, then deleted")
	return ""
}

// pushRefused checks that all four push-config operations are refused. They
// run on a task of the spec's own where one can be had (any state: every
// one must be refused). Without one they run on an id nobody issued, where
// TaskNotFoundError is also an allowed answer (§3.1.7 names both errors),
// which shows nothing about the capability: that operation is unchecked.
func pushRefused(ctx context.Context, t *suites.T, c *client.Client) {
	task, how := someTask(ctx, t, c, suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete})
	defer endTask(ctx, c, task)
	taskID := unknownTaskID()
	if task != nil {
		taskID = task.ID
	}
	t.Observe("push-task-"+c.Binding(), how)
	const configID = "a2a-conform-no-such-config"
	ref := &a2a.TaskPushNotificationConfigRef{TaskID: taskID, ID: configID}
	type call struct {
		op  string
		err error
	}
	var calls []call
	_, err := c.CreateTaskPushNotificationConfig(ctx, hookConfig(t, taskID))
	calls = append(calls, call{"CreateTaskPushNotificationConfig", err})
	_, err = c.GetTaskPushNotificationConfig(ctx, ref)
	calls = append(calls, call{"GetTaskPushNotificationConfig", err})
	_, err = c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: taskID})
	calls = append(calls, call{"ListTaskPushNotificationConfigs", err})
	calls = append(calls, call{"DeleteTaskPushNotificationConfig", c.DeleteTaskPushNotificationConfig(ctx, ref)})
	for _, call := range calls {
		switch {
		case isKind(call.err, a2a.ErrPushNotificationNotSupported):
		case task == nil && isKind(call.err, a2a.ErrTaskNotFound):
			t.Unchecked(call.op+" refused on "+c.Binding(),
				"there was no task of the spec's own ("+how+"), and for an id nobody issued TaskNotFoundError is an allowed answer that does not show the refusal; give the agent the directive extension, or a prompt map with a \"complete\" entry")
		default:
			t.Record(invariants.Violation{Invariant: "capability-push", Where: where(call.op+" for task "+taskID, c),
				Expected: "PushNotificationNotSupportedError (the card does not advertise pushNotifications)", Actual: suites.ErrText(call.err)})
		}
	}
}

// DISC-015 (§3.1.11, §3.3.4, §13.3): GetExtendedAgentCard is refused with
// UnsupportedOperationError when the card does not advertise it; when it
// does, a call without credentials is refused, the card declares a scheme to
// authenticate with, and a call with the run's credentials returns a card
// or ExtendedAgentCardNotConfiguredError.
var _ = suites.Spec("DISC-015", func(ctx context.Context, t *suites.T) {
	card := t.Card()
	advertised := card.ExtendedAgentCard()
	t.Observe("extended-card-advertised", fmt.Sprint(advertised))
	var vs []invariants.Violation
	var unchecked []string // bindings whose authenticated half could not be tried
	if advertised && len(card.SecuritySchemes) == 0 {
		vs = append(vs, invariants.Violation{Invariant: "extended-card-auth", Where: "card securitySchemes",
			Expected: "a scheme to authenticate GetExtendedAgentCard with (§13.3: the call MUST be authenticated with a scheme the public card declares)",
			Actual:   "none declared"})
	}
	for _, c := range t.Clients() {
		if !advertised {
			vs = append(vs, extendedCardRefused(ctx, t, c)...)
			continue
		}
		anon := bareClient(t, c.Interface())
		_, err := anon.GetExtendedAgentCard(ctx, &a2a.GetExtendedAgentCardRequest{})
		switch ce, _ := client.AsError(err); {
		case err == nil:
			vs = append(vs, invariants.Violation{Invariant: "extended-card-auth", Where: where("GetExtendedAgentCard without credentials", anon),
				Expected: "refused: it is an authenticated operation (§13.3)", Actual: "the extended card, served to an anonymous caller"})
		case isKind(err, a2a.ErrUnsupportedOperation):
			vs = append(vs, invariants.Violation{Invariant: "capability-extended-card", Where: where("GetExtendedAgentCard without credentials", anon),
				Expected: "an authentication refusal (the card advertises extendedAgentCard)", Actual: suites.ErrText(err)})
		case ce.Class == client.A2A || (ce.Class == client.HTTP && (ce.HTTPStatus == 401 || ce.HTTPStatus == 403)):
			t.Observe("anonymous-"+c.Binding(), "refused: "+outcomeOf(err).String())
		default:
			vs = append(vs, invariants.Violation{Invariant: "extended-card-auth", Where: where("GetExtendedAgentCard without credentials", anon),
				Expected: "a refusal in the binding's error form (HTTP 401/403 or an error response)", Actual: suites.ErrText(err)})
		}
		if len(t.Env.Headers) == 0 {
			unchecked = append(unchecked, c.Binding())
			continue
		}
		authed := bareClient(t, c.Interface(), credentials(t)...)
		ext, err := authed.GetExtendedAgentCard(ctx, &a2a.GetExtendedAgentCardRequest{})
		switch {
		case err == nil:
			t.Observe("authenticated-"+c.Binding(), fmt.Sprintf("an AgentCard named %q", ext.Name))
		case isKind(err, a2a.ErrExtendedAgentCardNotConfigured):
			t.Observe("authenticated-"+c.Binding(), "ExtendedAgentCardNotConfiguredError")
		default:
			vs = append(vs, invariants.Violation{Invariant: "capability-extended-card", Where: where("GetExtendedAgentCard with the run's credentials", authed),
				Expected: "an AgentCard or ExtendedAgentCardNotConfiguredError", Actual: suites.ErrText(err)})
		}
	}
	t.Violated(vs...)
	if len(unchecked) > 0 {
		t.CouldNotRun("the card advertises an extended card; the anonymous refusal held on %s, but the authenticated call needs credentials the run does not have.", strings.Join(unchecked, ", "))
	}
})

// extendedCardRefused checks one binding of an agent that does not advertise
// the extended card: UnsupportedOperationError (§3.1.11, §3.3.4). The call
// carries the run's credentials, as any client of this agent would: an agent
// that authenticates every request answers an anonymous call 401 before it
// looks at the operation (§13.1), which is allowed and says nothing about
// the capability. Refused as unauthenticated even so, the part is unchecked.
func extendedCardRefused(ctx context.Context, t *suites.T, c *client.Client) []invariants.Violation {
	how := "with the run's credentials"
	if len(t.Env.Headers) == 0 {
		how = "without credentials (the run has none)"
	}
	caller := bareClient(t, c.Interface(), credentials(t)...)
	_, err := caller.GetExtendedAgentCard(ctx, &a2a.GetExtendedAgentCardRequest{})
	switch {
	case isKind(err, a2a.ErrUnsupportedOperation):
		t.Observe("unadvertised-"+c.Binding(), "UnsupportedOperationError, called "+how)
	case authRefusal(err):
		t.Observe("unadvertised-"+c.Binding(), "refused as unauthenticated, called "+how+": "+outcomeOf(err).String())
		t.Unchecked("the UnsupportedOperationError refusal on "+c.Binding(),
			"the agent refused GetExtendedAgentCard called "+how+" as unauthenticated, before saying whether it serves the operation; pass credentials it accepts with --header 'Authorization: …'")
	default:
		return []invariants.Violation{{Invariant: "capability-extended-card", Where: where("GetExtendedAgentCard "+how, caller),
			Expected: "UnsupportedOperationError (the card does not set capabilities.extendedAgentCard)", Actual: suites.ErrText(err)}}
	}
	return nil
}

// authRefusal reports whether err refuses a caller as unauthenticated or
// unauthorized: HTTP 401 or 403 on either binding, or on JSON-RPC the codes
// a2a-go uses (-31401, -31403), since the spec assigns none (A2A v1.0 §3.3.2).
func authRefusal(err error) bool {
	ce, ok := client.AsError(err)
	if !ok {
		return false
	}
	return ce.HTTPStatus == 401 || ce.HTTPStatus == 403 ||
		(ce.Class == client.A2A && ce.Binding == a2a.BindingJSONRPC && (ce.Code == -31401 || ce.Code == -31403)) ||
		(ce.Class == client.A2A && ce.Binding == a2a.BindingGRPC && (ce.Status == "UNAUTHENTICATED" || ce.Status == "PERMISSION_DENIED"))
}

// validationRefusal reports whether err refuses the request's content as
// invalid: InvalidParams or InvalidRequest on JSON-RPC, a 400 that is not
// one of the A2A errors on HTTP+JSON.
func validationRefusal(err error) bool {
	ce, ok := client.AsError(err)
	if !ok || ce.Class != client.A2A {
		return false
	}
	switch ce.Binding {
	case a2a.BindingJSONRPC:
		return ce.Code == a2a.CodeInvalidParams || ce.Code == a2a.CodeInvalidRequest
	case a2a.BindingGRPC:
		return ce.Status == "INVALID_ARGUMENT" && ce.Kind == ""
	}
	return ce.HTTPStatus == 400 && ce.Kind == ""
}

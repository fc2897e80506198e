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
	"github.com/a2a-conform/a2a-conform/suites"
)

// Capability honesty (§3.3.4, scenario 3): each flag is a claim, checked
// against what the operation does, both ways.

// liveFor is how long a scripted probe task stays working: long enough to
// subscribe to it or register a config on it before it ends; the spec
// cancels it when done.
const liveFor = 2 * time.Second

// placeholderHook is the webhook URL registered by the capability probe. The
// .invalid TLD never resolves (RFC 2606), so no delivery can reach anyone;
// the config is deleted before the task changes state again.
const placeholderHook = "https://webhook.a2a-conform.invalid/disc-014"

// probeTask creates a task to probe capabilities on: a scripted one that
// stays working when the run can script the agent, else whatever a plain
// message gives. It returns nil when the agent answered with a Message.
func probeTask(ctx context.Context, t *suites.T, c *client.Client) *a2a.Task {
	var msg a2a.Message
	if t.Env.Behaviour != nil {
		msg = t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted, Delay: liveFor})
	} else {
		msg = a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser,
			Parts: []a2a.Part{a2a.TextPart("a2a-conform capability probe: reply briefly.")}}
	}
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg,
		Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "send", Where: where("SendMessage", c),
			Expected: "a Task or Message to probe capabilities with", Actual: suites.ErrText(err)})
	}
	return resp.Task
}

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

// patience bounds a wait for the agent.
func patience(t *suites.T) time.Duration {
	if p := t.Env.Options.Patience; p > 0 {
		return p
	}
	return 10 * time.Second
}

// DISC-013 (§3.3.4, §3.1.2, §3.1.6): streaming is served when advertised (the
// first event is a Task or Message) and refused with UnsupportedOperationError
// on SendStreamingMessage and SubscribeToTask when not.
var _ = suites.Spec("DISC-013", func(ctx context.Context, t *suites.T) {
	advertised := t.Card().Streaming()
	t.Observe("streaming-advertised", fmt.Sprint(advertised))
	var vs []invariants.Violation
	for _, c := range t.Clients() {
		sctx, cancel := suites.Ctx(ctx, patience(t))
		if advertised {
			vs = append(vs, streamingServed(sctx, t, c)...)
		} else {
			vs = append(vs, streamingRefused(sctx, t, c)...)
		}
		cancel()
	}
	t.Violated(vs...)
})

func streamingServed(ctx context.Context, t *suites.T, c *client.Client) []invariants.Violation {
	var vs []invariants.Violation
	msg := a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser,
		Parts: []a2a.Part{a2a.TextPart("a2a-conform streaming probe: reply briefly.")}}
	if t.Env.Behaviour != nil {
		msg = t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted})
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
	if t.Env.Behaviour == nil {
		t.Observe("subscribe-"+c.Binding(), "not checked: no scripted behaviour to keep a task working")
		return vs
	}
	task := probeTask(ctx, t, c)
	if task == nil || task.Status.State.Terminal() {
		t.Observe("subscribe-"+c.Binding(), "not checked: the probe task was not working")
		return vs
	}
	defer endTask(ctx, c, task)
	s, err = c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: task.ID})
	if err != nil {
		return append(vs, invariants.Violation{Invariant: "capability-streaming", Where: where("SubscribeToTask "+task.ID, c),
			Expected: "an SSE stream for a working task (the card advertises streaming)", Actual: suites.ErrText(err)})
	}
	ev, err := firstEvent(s)
	if err != nil {
		return append(vs, invariants.Violation{Invariant: "capability-streaming", Where: where("SubscribeToTask "+task.ID+" first event", c),
			Expected: "a stream event", Actual: suites.ErrText(err)})
	}
	t.Observe("subscribe-first-event-"+c.Binding(), eventKind(ev))
	return vs
}

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
	task := probeTask(ctx, t, c)
	defer endTask(ctx, c, task)
	id := unknownTaskID()
	if task != nil {
		id = task.ID
	}
	s, err = c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id})
	if task == nil && isKind(err, a2a.ErrTaskNotFound) {
		t.Observe("subscribe-"+c.Binding(), "not checked: the agent answered with a Message, so there was no task to subscribe to")
		return vs
	}
	refused("SubscribeToTask", s, err)
	return vs
}

// DISC-014 (§3.3.4, §3.1.7): creating a push config on a live task succeeds
// exactly when the card advertises push; otherwise every push-config
// operation answers PushNotificationNotSupportedError.
var _ = suites.Spec("DISC-014", func(ctx context.Context, t *suites.T) {
	advertised := t.Card().PushNotifications()
	t.Observe("push-advertised", fmt.Sprint(advertised))
	var vs []invariants.Violation
	for _, c := range t.Clients() {
		task := probeTask(ctx, t, c)
		taskID := unknownTaskID()
		if task != nil {
			taskID = task.ID
		}
		if advertised {
			vs = append(vs, pushAccepted(ctx, t, c, task)...)
		} else {
			vs = append(vs, pushRefused(ctx, c, taskID)...)
		}
		endTask(ctx, c, task)
	}
	t.Violated(vs...)
})

func pushAccepted(ctx context.Context, t *suites.T, c *client.Client, task *a2a.Task) []invariants.Violation {
	if task == nil {
		t.Indeterminate("the agent answered the probe with a Message, so there is no task to register a push config on")
	}
	op := where("CreateTaskPushNotificationConfig for task "+task.ID, c)
	created, err := c.CreateTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: placeholderHook})
	if err != nil {
		if !isKind(err, a2a.ErrPushNotificationNotSupported) && !isKind(err, a2a.ErrUnsupportedOperation) && task.Status.State.Terminal() {
			t.Indeterminate("%s: %s; the task was already %s, which may be why", op, suites.ErrText(err), task.Status.State)
		}
		return []invariants.Violation{{Invariant: "capability-push", Where: op,
			Expected: "the config, created (the card advertises pushNotifications)", Actual: suites.ErrText(err)}}
	}
	if created.ID != "" {
		_ = c.DeleteTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: created.ID})
	}
	t.Observe("push-config-"+c.Binding(), "created on a "+string(task.Status.State)+" task, then deleted")
	return nil
}

func pushRefused(ctx context.Context, c *client.Client, taskID string) []invariants.Violation {
	const configID = "a2a-conform-no-such-config"
	ref := &a2a.TaskPushNotificationConfigRef{TaskID: taskID, ID: configID}
	type call struct {
		op  string
		err error
	}
	var calls []call
	_, err := c.CreateTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: taskID, URL: placeholderHook})
	calls = append(calls, call{"CreateTaskPushNotificationConfig", err})
	_, err = c.GetTaskPushNotificationConfig(ctx, ref)
	calls = append(calls, call{"GetTaskPushNotificationConfig", err})
	_, err = c.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: taskID})
	calls = append(calls, call{"ListTaskPushNotificationConfigs", err})
	calls = append(calls, call{"DeleteTaskPushNotificationConfig", c.DeleteTaskPushNotificationConfig(ctx, ref)})
	var vs []invariants.Violation
	for _, call := range calls {
		if !isKind(call.err, a2a.ErrPushNotificationNotSupported) {
			vs = append(vs, invariants.Violation{Invariant: "capability-push", Where: where(call.op+" for task "+taskID, c),
				Expected: "PushNotificationNotSupportedError (the card does not advertise pushNotifications)", Actual: suites.ErrText(call.err)})
		}
	}
	return vs
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
// a2a-go uses (-31401, -31403), since the spec assigns none (a2a-v1.md §8.1).
func authRefusal(err error) bool {
	ce, ok := client.AsError(err)
	if !ok {
		return false
	}
	return ce.HTTPStatus == 401 || ce.HTTPStatus == 403 ||
		(ce.Class == client.A2A && ce.Binding == a2a.BindingJSONRPC && (ce.Code == -31401 || ce.Code == -31403))
}

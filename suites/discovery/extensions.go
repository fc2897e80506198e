package discovery

import (
	"context"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// UnknownExtension is an extension URI no agent implements: DISC-018 names
// it in A2A-Extensions.
const UnknownExtension = "https://a2a-conform.dev/extensions/unknown/v1"

// requiredExtensions lists the extension URIs the card marks required.
func requiredExtensions(card *a2a.AgentCard) []string {
	var out []string
	for _, e := range card.Capabilities.Extensions {
		if e.Required && e.URI != "" {
			out = append(out, e.URI)
		}
	}
	return out
}

// probeSend sends a message that any agent can answer: scripted to complete
// at once when the run can script the agent, else a short plain request.
func probeSend(ctx context.Context, t *suites.T, c *client.Client) error {
	msg := a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser,
		Parts: []a2a.Part{a2a.TextPart("a2a-conform extension probe: reply briefly.")}}
	if t.Env.Behaviour != nil && t.Env.Behaviour.Kind() == "directive" {
		msg = t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted})
	}
	_, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
	return err
}

// DISC-016 (§3.3.4, §4.6): a request that does not declare an extension the
// card marks required is refused with ExtensionSupportRequiredError; the same
// request declaring it is not.
var _ = suites.Spec("DISC-016", func(ctx context.Context, t *suites.T) {
	required := requiredExtensions(t.Card())
	if len(required) == 0 {
		t.NotApplicable("the card marks no extension required (capabilities.extensions[].required), so there is nothing to enforce")
	}
	t.Observe("required-extensions", strings.Join(required, ", "))
	var vs []invariants.Violation
	for _, c := range t.Clients() {
		// Exactly the declarations under test: none, then every required one.
		without := bareClient(t, c.Interface(), credentials(t)...)
		msg := a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser,
			Parts: []a2a.Part{a2a.TextPart("a2a-conform extension probe: reply briefly.")}}
		_, err := t.Send(ctx, without, &a2a.SendMessageRequest{Message: &msg})
		if !isKind(err, a2a.ErrExtensionSupportRequired) {
			vs = append(vs, invariants.Violation{Invariant: "extension-required", Where: where("SendMessage without A2A-Extensions", without),
				Expected: "ExtensionSupportRequiredError (-32008; on HTTP+JSON 400 with reason EXTENSION_SUPPORT_REQUIRED) for " + strings.Join(required, ", "),
				Actual:   suites.ErrText(err)})
		}
		with := bareClient(t, c.Interface(), append(credentials(t), client.WithExtensions(required...))...)
		msg.MessageID = suites.NewID("msg")
		_, err = t.Send(ctx, with, &a2a.SendMessageRequest{Message: &msg})
		if isKind(err, a2a.ErrExtensionSupportRequired) {
			vs = append(vs, invariants.Violation{Invariant: "extension-required", Where: where("SendMessage with A2A-Extensions: "+strings.Join(required, ", "), with),
				Expected: "served (every required extension is declared)", Actual: suites.ErrText(err)})
		}
		t.Observe("declared-"+c.Binding(), outcomeOf(err).String())
	}
	t.Violated(vs...)
})

// DISC-018 (§4.6, §9.2, §11.2): an A2A-Extensions header naming an extension
// the agent does not know is ignored: the request is served.
var _ = suites.Spec("DISC-018", func(ctx context.Context, t *suites.T) {
	declare := append(requiredExtensions(t.Card()), UnknownExtension)
	var vs []invariants.Violation
	for _, c := range t.Clients(client.WithExtensions(declare...)) {
		if err := probeSend(ctx, t, c); err != nil {
			vs = append(vs, invariants.Violation{Invariant: "extension-unknown-ignored",
				Where:    where("SendMessage with A2A-Extensions naming "+UnknownExtension, c),
				Expected: "served: an extension the agent does not support is ignored", Actual: suites.ErrText(err)})
		}
	}
	t.Violated(vs...)
})

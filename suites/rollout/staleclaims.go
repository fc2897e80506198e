package rollout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// ROLL-007's stale interface and extension claims: what a client holding the
// previous generation's card does with an interface or an extension the live
// build dropped, and which answers the spec allows.

// actOnDroppedInterface sends SendMessage (returnImmediately, so that a slow
// agent answers at once) to an interface the live card no longer declares,
// at the URL the stale card gives it. Every honest refusal passes: no
// connection, an HTTP error status (404 for a route the build no longer
// has), or the binding's own error. So does an answer that is still that
// binding's SendMessage response: the build serves the interface after all,
// and so does another binding's error (a handler mounted on a shared path
// prefix refusing in its own framing). An answer that accepts the request
// (2xx) with another binding's successful SendMessage response (a JSON-RPC
// result, an HTTP+JSON task or message) serves the stale claim as something
// else: a violation of the binding's response rules (§9.4 JSON-RPC, §11
// HTTP+JSON; A2A v1.0 §9, §11). Any other 2xx body (a web app's page,
// say) cannot be told apart and is left unchecked.
func actOnDroppedInterface(ctx context.Context, t *suites.T, iface a2a.AgentInterface, script suites.Script) (seen string, v *invariants.Violation) {
	c := t.ClientFor(iface)
	resp, err := onceMore(func() (*a2a.SendMessageResponse, error) {
		msg := t.Scripted(script)
		return t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg, Tenant: iface.Tenant,
			Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	})
	if err == nil {
		what := "a Message"
		if resp.Task != nil {
			what = "task " + resp.Task.ID
		}
		return "still served as " + iface.ProtocolBinding + " (" + what + "): the build serves the interface although its card no longer lists it", nil
	}
	ce, ok := client.AsError(err)
	switch {
	case !ok:
		return "refused: " + suites.ErrText(err), nil
	case ce.Class == client.Transport && ce.HTTPStatus == 0:
		return "refused: no HTTP answer (" + suites.ErrText(err) + ")", nil
	case ce.Class == client.Transport:
		// An answer began and was cut: what it was is unknown.
		t.Unchecked("SendMessage on the stale card's "+iface.ProtocolBinding+" interface "+suites.Cut(iface.URL, 200),
			"its answer was cut, twice: "+suites.ErrText(err))
		return "unknown: the answer was cut (" + suites.ErrText(err) + ")", nil
	case ce.HTTPStatus < 200 || ce.HTTPStatus > 299:
		return fmt.Sprintf("refused: HTTP %d (%s)", ce.HTTPStatus, suites.ErrText(err)), nil
	case ce.Class == client.A2A:
		return "refused with the binding's error: " + suites.ErrText(err), nil
	}
	other, served := framing(ce.Body, iface.ProtocolBinding)
	switch {
	case other != "" && !served:
		return "refused in another binding's framing" + other + ": " + suites.ErrText(err), nil
	case !served:
		t.Unchecked("SendMessage on the stale card's "+iface.ProtocolBinding+" interface "+suites.Cut(iface.URL, 200),
			fmt.Sprintf("it answered HTTP %d with neither a %s response nor another binding's, so whether it acted on the request is unknown: %s", ce.HTTPStatus, iface.ProtocolBinding, suites.ErrText(err)))
		return "unknown: an answer of no binding (" + suites.ErrText(err) + ")", nil
	}
	return "accepted and answered as something else", &invariants.Violation{Invariant: "stale-interface-refused",
		Where: "SendMessage on the stale card's " + iface.ProtocolBinding + " interface " + suites.Cut(iface.URL, 200) + ", which the live card no longer declares",
		Expected: "refused (no connection, an HTTP error status, or the binding's own error), or answered as " + iface.ProtocolBinding +
			" as the stale card declares (§5.3; the binding's response rules, A2A v1.0 §9, §11): never accepted and served as something else",
		Actual: fmt.Sprintf("accepted (HTTP %d) with an answer that is not a %s SendMessage response%s: %s",
			ce.HTTPStatus, iface.ProtocolBinding, other, suites.ErrText(err))}
}

// framing names what an answer that is not the declared binding's response
// looks like, when it looks like another binding's ("" when it does not),
// and whether it is that binding's success (the request was acted on)
// rather than its error.
func framing(body []byte, binding string) (other string, served bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(body), &m) != nil {
		return "", false
	}
	_, rpc := m["jsonrpc"]
	_, task := m["task"]
	_, message := m["message"]
	switch {
	case rpc && binding != a2a.BindingJSONRPC:
		res, ok := m["result"]
		switch {
		case ok && bytes.Contains(res, []byte(`"task"`)):
			return " (a JSON-RPC envelope with a task inside: another binding's answer)", true
		case ok:
			return " (a JSON-RPC envelope with a result: another binding's answer)", true
		}
		return " (a JSON-RPC error envelope: another binding's refusal)", false
	case (task || message) && binding == a2a.BindingJSONRPC:
		return " (an HTTP+JSON SendMessageResponse: another binding's answer)", true
	}
	return "", false
}

// actOnDroppedExtension sends SendMessage through the stale card's surviving
// interface, naming in A2A-Extensions an extension the live card no longer
// declares (and the run's own extensions). §4.6.3: an agent that does not
// support a requested extension SHOULD ignore it and proceed, unless "the
// AgentCard" marks it required, in which case it MUST return an error. The
// card the client holds is the stale one; the agent's own is the live one
// (UNSURE which is meant), so both a refusal and a plain answer pass, and
// the reading seen is returned. An answer that claims the extension
// activated (A2A-Extensions naming it, or the agent's own message or
// artifact listing it) fits neither reading, but the only text it breaks is
// the topic doc's SHOULD (the response lists the extensions it activated),
// so the caller records it with Should: a warning, never a fail.
func actOnDroppedExtension(ctx context.Context, t *suites.T, iface a2a.AgentInterface, x a2a.AgentExtension, script suites.Script) (seen string, v *invariants.Violation) {
	c := t.ClientFor(iface, client.WithExtensions(x.URI))
	msg := t.Scripted(script)
	req := a2a.SendMessageRequest{Message: &msg, Tenant: iface.Tenant, Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}}
	raw, err := onceMore(func() (*client.RawResponse, error) { return c.Raw(ctx, a2a.MethodSendMessage, req) })
	if err == nil {
		err = c.Classify(a2a.MethodSendMessage, raw)
	}
	reading := "served without it (§4.6.3 SHOULD: ignored, the live card no longer listing it)"
	if isTransport(err) {
		t.Unchecked("SendMessage naming the dropped extension "+suites.Cut(x.URI, 200), "no answer, twice: "+suites.ErrText(err))
		return "unknown: no answer (" + suites.ErrText(err) + ")", nil
	}
	if err != nil {
		reading = "refused (§4.6.3: an error, the held card marking it required)"
		if !x.Required {
			reading = "refused (§4.6.3 would have it ignored: a SHOULD, judged by DISC-018)"
		}
		return reading + ": " + suites.ErrText(err), nil
	}
	where := "SendMessage through the stale card's " + iface.ProtocolBinding + " interface with A2A-Extensions naming " + suites.Cut(x.URI, 200) +
		", an extension the held card lists and the live card no longer does"
	var claims []string
	for _, v := range raw.Header.Values(client.HeaderExtensions) {
		for _, uri := range strings.Split(v, ",") {
			if strings.TrimSpace(uri) == x.URI {
				claims = append(claims, "the answer's A2A-Extensions header names it ("+suites.Cut(v, 200)+")")
			}
		}
	}
	claims = append(claims, contentClaims(raw.Body, iface.ProtocolBinding, x.URI)...)
	if len(claims) == 0 {
		return reading, nil
	}
	return "served, claiming it activated", &invariants.Violation{Invariant: "stale-extension-refused", Where: where,
		Expected: "refused with an error (§4.6.3 MUST, the held card marking it required) or served without it (§4.6.3 SHOULD, ignored; A2A v1.0 §3.6); " +
			"an A2A-Extensions answer SHOULD list only the extensions activated (docs/topics/extensions.md), and the live card (capabilities.extensions) no longer lists this one",
		Actual: "served, and " + strings.Join(claims, "; ")}
}

// contentClaims lists where the agent's own content in a SendMessage answer
// names the extension (Message.extensions, Artifact.extensions: the URIs
// of extensions that are present or contributed to it, a2a.proto). The client's own message, echoed in history, is
// not the agent's claim.
func contentClaims(body []byte, binding, uri string) []string {
	doc := body
	if binding == a2a.BindingJSONRPC {
		var env struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(body, &env) != nil {
			return nil
		}
		doc = env.Result
	}
	var out a2a.SendMessageResponse
	if json.Unmarshal(doc, &out) != nil {
		return nil
	}
	var claims []string
	agentMsg := func(m *a2a.Message, where string) {
		if m != nil && m.Role == a2a.RoleAgent && slices.Contains(m.Extensions, uri) {
			claims = append(claims, where+" lists it in extensions")
		}
	}
	agentMsg(out.Message, "the agent's reply message "+suites.Cut(messageID(out.Message), 80))
	if task := out.Task; task != nil {
		agentMsg(task.Status.Message, "the status message of task "+suites.Cut(task.ID, 80))
		for i := range task.History {
			agentMsg(&task.History[i], "agent message "+suites.Cut(task.History[i].MessageID, 80)+" of task "+suites.Cut(task.ID, 80))
		}
		for _, art := range task.Artifacts {
			if slices.Contains(art.Extensions, uri) {
				claims = append(claims, "artifact "+suites.Cut(art.ArtifactID, 80)+" of task "+suites.Cut(task.ID, 80)+" lists it in extensions")
			}
		}
	}
	return claims
}

func messageID(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	return m.MessageID
}

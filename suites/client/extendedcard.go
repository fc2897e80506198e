package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// CLI-013: a client that fetched an extended card whose signature fails
// keeps the card it trusts. The public card is signed and claims no
// streaming; the extended card claims streaming, declares its interfaces
// under other URLs, and its signature (with a key set of its own) fails.
// The driver streams a message, fetches the extended card, and streams
// another: the second shows which card the client holds, through the URL it
// uses, or by streaming when the first (under the public card) did not. A
// client that fetched the extended card's key set verifies it (§8.4.3 MUST,
// read as CLI-027 reads it); one that did not, and used the card, missed
// only the SHOULD to verify before trusting.
var _ = suites.Spec("CLI-013", func(ctx context.Context, t *suites.T) {
	o := RunCase(ctx, t, Case{Name: "extended-card", Action: ExtendedCard, Agent: Agent{AlteredExtendedCard: true,
		Options: func(o *fakes.Options) { o.DisableStreaming = true }}})
	ops := o.Ops()
	var ext *Request
	var before, after []Request
	for i, r := range ops {
		switch {
		case r.Op == a2a.MethodGetExtendedAgentCard && ext == nil:
			ext = &ops[i]
		case r.Op != a2a.MethodSendMessage && r.Op != a2a.MethodSendStreamingMessage:
		case ext == nil:
			before = append(before, r)
		default:
			after = append(after, r)
		}
	}
	if ext == nil {
		t.Indeterminate("the client never asked for the extended card (no GetExtendedAgentCard; driver result: %s): nothing to judge.", cut(o.Driver.ResultLine, 300))
	}
	t.Observe("extended card", Where(*ext))
	verified := false
	for _, r := range o.Requests {
		if r.Op == clientrun.OpExtendedKeySet {
			verified = true
			t.Observe("extended card's key set fetched", Where(r))
			break
		}
	}
	if len(after) == 0 {
		if e := o.Result.Error; e != nil {
			t.Observe("outcome", fmt.Sprintf("the client sent no message after the extended card and raised %s (%s): it used nothing of that card", e.Class, cut(e.Message, 300)))
			return
		}
		t.Indeterminate("the client sent no message after it fetched the extended card, and raised nothing (driver result: %s): nothing shows which card it holds.", cut(o.Driver.ResultLine, 300))
	}
	streamedBefore := false
	for _, r := range before {
		streamedBefore = streamedBefore || r.Op == a2a.MethodSendStreamingMessage
	}
	switch {
	case len(before) == 0:
		t.Observe("streaming", "no message before the extended card: only the URLs used can show which card the client holds")
	case streamedBefore:
		t.Observe("streaming", "the client streamed under the public card too, which claims no streaming (CLI-039 judges that), so its streaming says nothing of the card it holds")
	}
	var used []string
	for _, r := range after {
		switch {
		case r.Extended:
			used = append(used, Where(r)+" through an interface only the extended card declares")
		case r.Op == a2a.MethodSendStreamingMessage && len(before) > 0 && !streamedBefore:
			used = append(used, Where(r)+" streamed, which only the extended card claims (the message before it, under the public card, was not)")
		}
	}
	if len(used) == 0 {
		t.Observe("after", fmt.Sprintf("%d message(s) after the extended card, all as the public card has it", len(after)))
		return
	}
	v := invariants.Violation{Invariant: "client-extended-card-signature", Where: "the message after " + Where(*ext),
		Expected: "the card the client trusted before (the public one): the extended card's signature does not verify (it was changed after signing)",
		Actual:   strings.Join(used, "; ")}
	if !verified {
		v.Expected += "; the client never fetched the extended card's key set, so it used a card it did not verify (§8.4.3: SHOULD verify before trusting)"
		t.Should(v)
		return
	}
	v.Actual += "; the client fetched the extended card's key set, so it verifies"
	t.Violated(v)
})

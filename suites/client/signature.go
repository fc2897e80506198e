package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Card signatures as a client meets them. The stage signs every card it
// serves (ES256, the key set at the signature's jku on the stage itself), so
// the one observable sign that a client verifies is its GET of that key set.
// A client that verifies against keys of its own cannot be told from one
// that does not verify; the specs say so rather than guess.

func keySetFetches(rs []Request) []Request {
	var out []Request
	for _, r := range rs {
		if r.Op == clientrun.OpKeySet {
			out = append(out, r)
		}
	}
	return out
}

// CLI-027: a verifying client does not use a card whose signature fails
// (§8.4.3 MUST): one changed after signing (its description rewritten), and
// one with a member added after signing, which a verifier that checks only
// the members it knows accepts.
var _ = suites.Spec("CLI-027", func(ctx context.Context, t *suites.T) {
	cases := []struct {
		c    Case
		what string
	}{
		{Case{Name: "altered-card", Action: Send, Agent: Agent{AlterSignedCard: true}}, "it was changed after signing"},
		{Case{Name: "injected-member", Action: Send, Agent: Agent{InjectAfterSigning: true}},
			"a member (" + clientrun.InjectedMember + ") was added after signing"},
	}
	verified := 0
	var vs []invariants.Violation
	for _, k := range cases {
		o := RunCase(ctx, t, k.c)
		keys := keySetFetches(o.Requests)
		ops := o.Ops()
		if len(keys) == 0 {
			t.Observe(k.c.Name, fmt.Sprintf("the client never fetched the key set; it sent %d operation request(s)", len(ops)))
			continue
		}
		verified++
		t.Observe(k.c.Name+": key set fetched", Where(keys[0]))
		if len(ops) > 0 {
			var names []string
			for _, r := range ops {
				names = append(names, Where(r))
			}
			vs = append(vs, invariants.Violation{Invariant: "client-card-signature", Where: k.c.Name + ": " + Where(ops[0]),
				Expected: "no request through a card whose signature does not verify (" + k.what + ")",
				Actual:   fmt.Sprintf("the client fetched the key set, so it verifies, and still sent %s", strings.Join(names, ", "))})
		}
		if r := o.Result; r.Error != nil {
			t.Observe(k.c.Name+": outcome", fmt.Sprintf("the client refused the card (%s: %s)", r.Error.Class, r.Error.Message))
		}
	}
	if verified == 0 && len(vs) == 0 {
		t.NotApplicable("the client never fetched the key set at the signature's jku: it does not verify card signatures (or verifies against keys of its own, which the harness cannot see), so the rule for verifying clients does not apply; CLI-028 says whether it should verify.")
	}
	t.Violated(vs...)
})

// CLI-028: a signed card is verified before it is used (§8.4.3 SHOULD).
var _ = suites.Spec("CLI-028", func(ctx context.Context, t *suites.T) {
	o := RunCase(ctx, t, Case{Name: "signed-card", Action: Send})
	keys := keySetFetches(o.Requests)
	var first *Request
	if ops := o.Ops(); len(ops) > 0 {
		first = &ops[0]
	}
	var vs []invariants.Violation
	switch {
	case first == nil:
		where := "the driver's result: " + o.Driver.ResultLine
		if len(keys) > 0 {
			vs = append(vs, invariants.Violation{Invariant: "client-card-signature", Where: where,
				Expected: "the card used once its signature verified (it does: the stage signs what it serves)",
				Actual:   "the client fetched the key set and then sent nothing: it refused a card that verifies"})
		} else {
			t.Indeterminate("the client sent no operation request, so its use of the card could not be judged (%s).", where)
		}
	case len(keys) == 0 || keys[0].Seq > first.Seq:
		vs = append(vs, invariants.Violation{Invariant: "client-card-signature", Where: Where(*first),
			Expected: "the card's signature verified (its key set fetched from the jku) before the card is used",
			Actual:   "the client used the signed card without fetching its key set (a client with a key store of its own cannot be told apart)"})
	default:
		t.Observe("verification", fmt.Sprintf("key set fetched at %s, before the first operation %s", Where(keys[0]), Where(*first)))
	}
	t.Violated(vs...)
})

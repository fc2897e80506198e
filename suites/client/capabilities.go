package client

import (
	"context"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// CLI-039: ACTS CLIENT-CAP-001, the card's capabilities checked before an
// optional operation (spec §3.3.4 v1.0.1: SHOULD, so a miss warns).
var _ = suites.Spec("CLI-039", func(ctx context.Context, t *suites.T) {
	noStreaming := Agent{Options: func(o *fakes.Options) { o.DisableStreaming = true }}
	var vs []invariants.Violation
	for _, c := range []Case{{Name: "stream", Action: Stream, Agent: noStreaming}, {Name: "subscribe", Action: Subscribe, Agent: noStreaming}} {
		o := RunCase(ctx, t, c)
		for _, r := range o.Ops() {
			if r.Op == a2a.MethodSendStreamingMessage || r.Op == a2a.MethodSubscribeToTask {
				vs = append(vs, invariants.Violation{Invariant: "client-capability-check", Where: "case " + c.Name + ": " + Where(r),
					Expected: "no " + r.Op + ": the card says capabilities.streaming false",
					Actual:   r.Op + " sent"})
			}
		}
		// What the client did instead is recorded, not judged: sending and
		// polling, or raising an error, are both what the sentence allows.
		t.Observe("case "+c.Name+": outcome", describe(o.Result))
	}
	t.Violated(vs...)
})

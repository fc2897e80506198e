package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// cutBehaviour is the task of the stream-cut case: WORKING after one step,
// then an artifact, then COMPLETED; the stage cuts the stream after the
// first two events (the task snapshot and WORKING), so the end is never
// streamed.
var cutBehaviour = directive.Directive{Version: 1, Outcome: directive.OutcomeCompleted, DelayMs: 300}

// CLI-036: a stream that ends before the task does, cut mid-body or closed
// cleanly, is raised or resynced, never taken for the end (no client MUST:
// warn). Two cases: the connection breaks after the first two events (a
// proxy's idle timeout), and the body ends as a complete response after them
// (an agent or proxy that ends streams early), which a client cannot tell
// from a finished stream by its transport alone.
var _ = suites.Spec("CLI-036", func(ctx context.Context, t *suites.T) {
	cases := []struct {
		name, how string
		agent     Agent
		ended     func(Request) bool
	}{
		{"stream-cut", "cut", Agent{Behaviour: cutBehaviour, CutStreamAfter: 2}, func(r Request) bool { return r.Cut }},
		{"stream-closed", "closed cleanly", Agent{Behaviour: cutBehaviour, CloseStreamAfter: 2}, func(r Request) bool { return r.Closed }},
	}
	var unjudged []string
	for _, k := range cases {
		o := RunCase(ctx, t, Case{Name: k.name, Action: Stream, Agent: k.agent})
		var end *Request
		var resync []Request
		for _, r := range o.Ops() {
			switch {
			case end == nil && r.Op == a2a.MethodSendStreamingMessage && k.ended(r):
				c := r
				end = &c
			case end != nil && (r.Op == a2a.MethodGetTask || r.Op == a2a.MethodSubscribeToTask):
				resync = append(resync, r)
			}
		}
		if end == nil {
			unjudged = append(unjudged, fmt.Sprintf("%s: no stream of the client's was %s (it opened none, or it ended before its second event; driver result: %s)", k.name, k.how, o.Driver.ResultLine))
			continue
		}
		r := o.Result
		t.Observe(k.name, fmt.Sprintf("%s, %s after its first 2 events; %d GetTask/SubscribeToTask after it", Where(*end), k.how, len(resync)))
		switch {
		case len(resync) > 0:
			t.Observe(k.name+" outcome", fmt.Sprintf("the client resynced (%s …) and believes %q", Where(resync[0]), r.State))
		case r.Error != nil:
			t.Observe(k.name+" outcome", fmt.Sprintf("the client raised the early end (%s: %s)", r.Error.Class, r.Error.Message))
		case isTerminal(r.State):
			t.Record(invariants.Violation{Invariant: "client-stream-cut", Where: k.name + ": the driver's result: " + o.Driver.ResultLine,
				Expected: "no terminal state the client was never shown: the stream " + k.how + " carried none, and the client asked for none since",
				Actual:   fmt.Sprintf("the client reports %s", r.State)})
		default:
			t.Record(invariants.Violation{Invariant: "client-stream-cut", Where: k.name + ": " + Where(*end),
				Expected: "the early end raised, or the task resynced (GetTask, SubscribeToTask): a stream ends only at a terminal or interrupted state",
				Actual:   fmt.Sprintf("no error and no resync: the client took the stream %s for its end and believes the task is %q", k.how, r.State)})
		}
	}
	switch len(unjudged) {
	case len(cases):
		t.Indeterminate("nothing to judge: %s.", strings.Join(unjudged, "; "))
	case 0:
	default:
		t.Unchecked("every early stream end is raised or resynced", strings.Join(unjudged, "; "))
	}
})

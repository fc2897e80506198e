package client

import (
	"context"
	"fmt"

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

// CLI-036: a stream cut before the task ends is raised or resynced, never taken for the end (no client MUST: warn).
var _ = suites.Spec("CLI-036", func(ctx context.Context, t *suites.T) {
	o := RunCase(ctx, t, Case{Name: "stream-cut", Action: Stream, Agent: Agent{Behaviour: cutBehaviour, CutStreamAfter: 2}})
	var cut *Request
	var resync []Request
	for _, r := range o.Ops() {
		switch {
		case cut == nil && r.Op == a2a.MethodSendStreamingMessage && r.Cut:
			c := r
			cut = &c
		case cut != nil && (r.Op == a2a.MethodGetTask || r.Op == a2a.MethodSubscribeToTask):
			resync = append(resync, r)
		}
	}
	if cut == nil {
		t.Indeterminate("no stream of the client's was cut (it opened none, or it ended before its second event): nothing to judge (driver result: %s).", o.Driver.ResultLine)
	}
	r := o.Result
	t.Observe("cut", fmt.Sprintf("%s, after its first 2 events; %d GetTask/SubscribeToTask after it", Where(*cut), len(resync)))
	switch {
	case len(resync) > 0:
		t.Observe("outcome", fmt.Sprintf("the client resynced (%s …) and believes %q", Where(resync[0]), r.State))
	case r.Error != nil:
		t.Observe("outcome", fmt.Sprintf("the client raised the broken stream (%s: %s)", r.Error.Class, r.Error.Message))
	case isTerminal(r.State):
		t.Violated(invariants.Violation{Invariant: "client-stream-cut", Where: "the driver's result: " + o.Driver.ResultLine,
			Expected: "no terminal state the client was never shown: the cut stream carried none, and the client asked for none since",
			Actual:   fmt.Sprintf("the client reports %s", r.State)})
	default:
		t.Violated(invariants.Violation{Invariant: "client-stream-cut", Where: Where(*cut),
			Expected: "the broken stream raised, or the task resynced (GetTask, SubscribeToTask): a stream ends only at a terminal or interrupted state",
			Actual:   fmt.Sprintf("no error and no resync: the client took the cut for the end of the stream and believes the task is %q", r.State)})
	}
})

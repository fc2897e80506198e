package client

import (
	"context"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// CLI-008: an error the agent sends inside a stream, after some events, is
// raised or followed by a resync, never read as an event or taken for the
// stream's end (no client keyword: warn). The text gives mid-stream errors no
// framing, so the stage sends the ones seen in practice: a JSON-RPC error
// response, and HTTP+JSON's {"error": Status} with and without an
// "event: error" line. Every case declares both bindings, so a client of
// either is judged in each, in the framing of the binding it picks: HTTP+JSON
// is listed first in the first two cases, JSON-RPC in the third.
var _ = suites.Spec("CLI-008", func(ctx context.Context, t *suites.T) {
	restFirst := []Interface{{Binding: a2a.BindingHTTPJSON}, {Binding: a2a.BindingJSONRPC}}
	rpcFirst := []Interface{{Binding: a2a.BindingJSONRPC}, {Binding: a2a.BindingHTTPJSON}}
	cases := []struct {
		name   string
		ifaces []Interface
		typed  bool
	}{
		{"error-data", restFirst, false},
		{"error-event", restFirst, true},
		{"jsonrpc-first", rpcFirst, false},
	}
	var unjudged []string
	judged := 0
	for _, k := range cases {
		o := RunCase(ctx, t, Case{Name: k.name, Action: Stream, Agent: Agent{
			Behaviour:       cutBehaviour,
			Interfaces:      k.ifaces,
			ErrorEventAfter: 2, ErrorEventTyped: k.typed,
		}})
		var sent *Request
		var resync []Request
		for _, r := range o.Ops() {
			switch {
			case sent == nil && r.Op == a2a.MethodSendStreamingMessage && r.ErrorEvent:
				c := r
				sent = &c
			case sent != nil && (r.Op == a2a.MethodGetTask || r.Op == a2a.MethodSubscribeToTask):
				resync = append(resync, r)
			}
		}
		if sent == nil {
			unjudged = append(unjudged, fmt.Sprintf("%s: the client opened no stream that reached the error (driver result: %s)", k.name, o.Driver.ResultLine))
			continue
		}
		judged++
		r := o.Result
		t.Observe(k.name, fmt.Sprintf("%s (%s): the error event after its first 2 events, then the end of the response; %d GetTask/SubscribeToTask after it", Where(*sent), sent.Binding, len(resync)))
		switch {
		case r.Error != nil:
			t.Observe(k.name+" outcome", fmt.Sprintf("the client raised it (%s: %s)", r.Error.Class, cut(r.Error.Message, 200)))
		case len(resync) > 0:
			t.Observe(k.name+" outcome", fmt.Sprintf("the client resynced (%s …) and believes %q", Where(resync[0]), r.State))
		default:
			t.Record(invariants.Violation{Invariant: "client-stream-error", Where: k.name + ": " + Where(*sent),
				Expected: "the error the agent sent inside the stream raised, or the task resynced (GetTask, SubscribeToTask)",
				Actual:   "no error and no resync: the client took the error for an event or for the end of the stream, and reports " + describe(r)})
		}
	}
	switch {
	case judged == 0:
		t.Indeterminate("nothing to judge: %s.", strings.Join(unjudged, "; "))
	case len(unjudged) > 0:
		t.Unchecked("an error inside every stream is raised or resynced", strings.Join(unjudged, "; "))
	}
})

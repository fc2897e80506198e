// Package client is the client suite: the harness plays a scripted A2A agent
// and judges a vendor's client, which a client driver (docs/client-driver.md)
// runs through one flow per case. `a2a-conform client --client-cmd T` runs
// these specs and only these; `a2a-conform run` never selects them unless
// asked (--suite client).
//
// # How to add a client spec
//
//  1. Register it: an Info with ID CLI-NNN, Suite suites.Client, its level,
//     sections, title and why, in a registry table of package suites
//     (suites/specs_client.go holds CLI-001…019; give a new range a file of
//     its own with its own init calling register). Add its line to
//     suites/specs.golden (UPDATE_GOLDEN=1 go test ./suites -run
//     TestGoldenList) and its level and the sentence it rests on to
//     docs/levels.md.
//
//  2. Write its body in this package (one file per area is fine), as in
//     the example below.
//     RunCase starts the scripted agent (Agent: the reference agent of
//     package fakes behind a front that rewrites the card and answers as
//     the script says, and records every request), runs the driver once
//     with the contract's environment, in its own process group, bounded in
//     time and output, and returns the requests and the parsed result. A
//     driver that hangs, crashes, prints no result or never connects makes
//     the spec could-not-run, with the cause (RunCase ends the spec itself);
//     a spec body only ever judges a driver that ran.
//
//  3. Judge fairly: a fail rests on a MUST sentence of the A2A text (Level
//     MUST, t.Violated); a SHOULD or a scenario guard with no MUST behind it
//     is Level SHOULD (its t.Violated warns) and says so in its Why.
//
//  4. Prove it both ways: the reference driver (internal/clientdriver,
//     `a2a-conform client-driver`) passes it, and a client fault of the
//     reference driver (internal/clientdriver/fault_<name>.go, naming the
//     spec in its Specs) fails it; suites/client's tests run both. The
//     correct variants of the reference driver
//     (internal/clientdriver/variant_<name>.go: clients that read the text
//     another allowed way) must all pass it too: a spec that fails or
//     warns one is taught to the reference driver.
//
// # What a scripted agent can do
//
// Agent (internal/clientrun.Script) is the reference agent of package fakes
// with, per case:
//
//   - Faults: any registered fakes fault ("cancel-then-complete", …);
//   - Behaviour / FollowUp: the directive the case text (A2A_CONFORM_TEXT)
//     and the follow-up text trigger (default: works 300 ms, completes);
//   - Interfaces: the card's supportedInterfaces, in order, each a Binding
//     (JSONRPC and HTTP+JSON served; any other declared at a URL that
//     answers 404), an optional Tenant, or Dead (a refusing port);
//   - UnknownFields, UnknownEvent, StreamError, CutStreamAfter,
//     CloseStreamAfter, CardMaxAge;
//   - Answer: a hand-made answer for a request (e.g. an ACTS CLIENT-PARSE-*
//     payload, plain or SSE; Request.RPCID to echo);
//   - Front: a handler wrapped around the agent for every operation request
//     (Watch records the states served and can end a stream after one);
//   - AlterSignedCard: the card changed after signing (the stage otherwise
//     re-signs every card it serves; the key set is at fakes.JWKSPath, a
//     request of Op clientrun.OpKeySet);
//   - Hook: acts before or after each request (AfterOp / BeforeOp): the
//     Stage then rotates the card (Rotate: new version and ETag, LoseTasks
//     for a restart that loses every task, MoveInterfaces for new interface
//     URLs under /m<N>), serves the previous card
//     (ServeStale: a stale CDN copy), or sends a push (Push: e.g. a forged
//     one without the token, to Request.PushURL; PushWith: with headers of
//     its own, such as a rotated generation's Authorization).
//
// Outcome.Requests are the requests as received (headers unredacted, Op,
// Binding, Interface, Tenant, TaskID, PushURL, CardETag, Cut), Outcome.Result
// the driver's report. Case.HangIsEvidence returns a driver that ran out of
// time instead of ending the spec, for a spec that judges a client that
// never reports.
//
// # Example
//
//	var _ = suites.Spec("CLI-0NN", func(ctx context.Context, t *suites.T) {
//		o := client.RunCase(ctx, t, client.Case{Name: "lost-task", Action: client.FollowUp,
//			Agent: client.Agent{
//				Behaviour: directive.Directive{Version: 1, Outcome: directive.OutcomeInputRequired},
//				Hook: client.AfterOp("SendMessage", func(s *client.Stage) {
//					_ = s.Rotate(ctx, client.Rotation{LoseTasks: true})
//				}),
//			}})
//		// judge o.Requests (what the client sent, recorded by the stage)
//		// and o.Result (what the driver says its client concluded)
//	})
package client

package client

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// The push receiver's two reconciliation points: a push it refused (401)
// after a card rotation sends the client back to the agent for the task
// (scenario 1), and a terminal state pushed after its acknowledged cancel
// is not merged (scenario 3, the push channel of CLI-023).

// stepWait waits one step d of the stage's agent, or until ctx ends: the
// time a worker that ignored a cancel takes to send its next push.
func stepWait(ctx context.Context, d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

// lateAfter bounds how long CLI-038's late push waits after the agent's
// push of CANCELED: well inside the 3 s of quiet after which the contract's
// push-cancel stops receiving, whatever the agent's step.
const lateAfter = time.Second

// refusedPush is the push CLI-037 made the client's receiver refuse.
type refusedPush struct {
	taskID  string
	rotated string
	// before is how many requests had reached the stage when the push was
	// posted: a request with a higher Seq came after it.
	before int
	status int
	err    error
}

// CLI-037: after its receiver refused a push (401), the client re-fetches the task first (scenario 1; no MUST: warn).
var _ = suites.Spec("CLI-037", func(ctx context.Context, t *suites.T) {
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		got   *refusedPush
		bound = 2 * pushBehaviour.Delay()
	)
	agent := Agent{Behaviour: pushBehaviour, Options: func(o *fakes.Options) {
		mu.Lock()
		bound = 2 * stepOf(o, pushBehaviour)
		mu.Unlock()
	}}
	agent.Hook = onRegistered(ctx, func(s *Stage, cfg a2a.TaskPushNotificationConfig) {
		wg.Add(1)
		mu.Lock()
		wait := bound
		mu.Unlock()
		go func() {
			defer wg.Done()
			ag := s.Agent()
			// A quiet moment, as for CLI-024: the task is WORKING and the
			// agent has delivered every push it owes.
			awaitState(ctx, ag, cfg.TaskID, a2a.TaskStateWorking, wait)
			awaitStore(ctx, ag, wait, func() bool {
				n, err := ag.Store().PendingDeliveries(ctx)
				return err != nil || n == 0
			})
			p := &refusedPush{taskID: cfg.TaskID}
			if err := s.Rotate(ctx, Rotation{Version: "2.0.0", AuthScheme: "Bearer"}); err != nil {
				p.err = fmt.Errorf("the stage could not rotate its card: %w", err)
			} else {
				p.rotated = "the card rotated (version 2.0.0, Bearer advertised) while task " + cfg.TaskID + " was working"
				contextID := ""
				if rec, err := ag.Store().GetTask(ctx, cfg.TaskID); err == nil {
					contextID = rec.Task.ContextID
				}
				// The new generation's credentials, not the config's token.
				h := http.Header{"Authorization": {"Bearer a2a-conform-generation-2-" + randomHex(8)}}
				p.before = len(s.Requests())
				p.status, p.err = s.PushWith(ctx, cfg.URL, h, statusPush(cfg.TaskID, contextID, a2a.TaskStateWorking))
			}
			mu.Lock()
			got = p
			mu.Unlock()
		}()
	})
	o := RunCase(ctx, t, Case{Name: "push-refused-after-rotation", Action: Push, Agent: agent})
	wg.Wait()
	mu.Lock()
	p := got
	mu.Unlock()
	if p == nil {
		t.Indeterminate("the client registered no push config, so no push could be refused (driver result: %s).", o.Driver.ResultLine)
	}
	if p.err != nil {
		t.CouldNotRun("the push of the rotated generation did not reach the client's receiver: %v.", p.err)
	}
	t.Observe("scripted agent", p.rotated)
	t.Observe("push of the new generation (Bearer, not the config's token)", fmt.Sprintf("answered %d, after request %d", p.status, p.before))
	if p.status < 400 || p.status >= 500 {
		t.Indeterminate("the receiver answered %d, not a refusal, to a push without its config's token (CLI-024 judges that): there was no refused push to re-fetch after.", p.status)
	}
	var after []Request
	for _, r := range o.Ops() {
		if r.Seq > p.before && r.TaskID == p.taskID {
			after = append(after, r)
		}
	}
	r := o.Result
	refused := fmt.Sprintf("after its receiver refused a push for task %s (HTTP %d)", p.taskID, p.status)
	switch {
	case len(after) > 0 && (after[0].Op == a2a.MethodGetTask || after[0].Op == a2a.MethodSubscribeToTask):
		// SubscribeToTask's first event is the task's snapshot: a re-fetch
		// too (A2A v1.0.1 §3.1.3 names GetTask, and docs/topics/streaming-and-async.md
		// SubscribeToTask, for catching up after a push or a broken stream).
		t.Observe("re-fetch", fmt.Sprintf("%s, %s", Where(after[0]), refused))
	case len(after) > 0:
		t.Violated(invariants.Violation{Invariant: "client-refetch-after-401", Where: Where(after[0]),
			Expected: "GetTask (or SubscribeToTask) for the task before anything else about it, " + refused,
			Actual:   fmt.Sprintf("%s naming the task with no GetTask before it: the client acts on a task it has not re-fetched", after[0].Op)})
	case r.ErrorClass() == clientrun.ClassTransport || r.ErrorClass() == clientrun.ClassParse:
		// The client stopped because it could not talk to the agent or
		// read it, not because it chose to raise the refusal.
		t.Indeterminate("%s the client neither re-fetched the task nor sent anything about it, and stopped on a %s error (%s): that says it could not go on, not that it raised the refusal for reconciliation.", refused, r.ErrorClass(), r.Error.Message)
	case r.ErrorClass() != "" && r.ErrorClass() != clientrun.ClassTimeout:
		t.Observe("outcome", fmt.Sprintf("the client raised %q (%s) rather than go on with the task", r.ErrorClass(), r.Error.Message))
	case (r.TaskID == "" || r.TaskID == p.taskID) && isTerminal(r.State):
		t.Violated(invariants.Violation{Invariant: "client-refetch-after-401", Where: "the driver's result: " + o.Driver.ResultLine,
			Expected: "the task re-fetched (GetTask) before a final state is reported, or raised for reconciliation, " + refused,
			Actual:   fmt.Sprintf("the client reports %s with no request about the task since: a 401 on a push is the sign that the card generation changed, and it was never followed up", r.State)})
	default:
		t.Indeterminate("%s the client neither re-fetched the task, nor sent anything about it, nor reported a final state or an error (it reports state %q, error class %q): it never reached the decision the spec judges.", refused, r.State, r.ErrorClass())
	}
})

// CLI-038: after its cancel is acknowledged, the client never takes a later pushed terminal state (scenario 3 invariant).
var _ = suites.Spec("CLI-038", func(ctx context.Context, t *suites.T) {
	type latePush struct {
		taskID string
		status int
		err    error
	}
	var (
		served Served
		mu     sync.Mutex
		wg     sync.WaitGroup
		late   *latePush
		step   = pushCancelBehaviour.Delay()
		once   sync.Once
	)
	hook := func(s *Stage, e HookEvent) {
		r := e.Request
		if !e.After || r.Op != a2a.MethodCancelTask || r.TaskID == "" {
			return
		}
		acked := false
		for _, st := range served.States() {
			acked = acked || st.Op == a2a.MethodCancelTask && st.TaskID == r.TaskID && st.State == a2a.TaskStateCanceled
		}
		var cfg *a2a.TaskPushNotificationConfig
		for _, c := range pushConfigs(ctx, s.Agent()) {
			if c.TaskID == r.TaskID {
				cfg = &c
				break
			}
		}
		if !acked || cfg == nil {
			return
		}
		once.Do(func() {
			wg.Add(1)
			mu.Lock()
			d := step
			mu.Unlock()
			go func() {
				defer wg.Done()
				ag := s.Agent()
				// The agent's own push of CANCELED goes first; a step later
				// the worker that ignored the cancel pushes COMPLETED, with
				// the config's own credentials.
				awaitStore(ctx, ag, 2*d, func() bool {
					n, err := ag.Store().PendingDeliveries(ctx)
					return err != nil || n == 0
				})
				stepWait(ctx, min(d, lateAfter))
				contextID := ""
				if rec, err := ag.Store().GetTask(ctx, cfg.TaskID); err == nil {
					contextID = rec.Task.ContextID
				}
				p := &latePush{taskID: cfg.TaskID}
				p.status, p.err = s.PushWith(ctx, cfg.URL, fakes.PushCredentials(*cfg), statusPush(cfg.TaskID, contextID, a2a.TaskStateCompleted))
				mu.Lock()
				late = p
				mu.Unlock()
			}()
		})
	}
	o := RunCase(ctx, t, Case{Name: "push-cancel-then-complete", Action: PushCancel, Agent: Agent{
		Behaviour: pushCancelBehaviour,
		Options: func(o *fakes.Options) {
			mu.Lock()
			step = stepOf(o, pushCancelBehaviour)
			mu.Unlock()
		},
		Front: Watch(&served, ""),
		Hook:  hook,
	}})
	wg.Wait()
	mu.Lock()
	p := late
	mu.Unlock()
	if p == nil {
		if len(pushConfigs(ctx, o.Stage.Agent())) == 0 && !registered(o.Requests) {
			t.Indeterminate("the client registered no push config, so nothing could be pushed after its cancel (driver result: %s).", o.Driver.ResultLine)
		}
		t.Indeterminate("no cancel of the client's was acknowledged with TASK_STATE_CANCELED (the client may not have canceled: driver result %s), so there was nothing to guard. Served: %s.", o.Driver.ResultLine, describeServed(served.States()))
	}
	if p.err != nil {
		t.Indeterminate("the push of TASK_STATE_COMPLETED after the acknowledged cancel did not reach the client's receiver (%v): it had stopped receiving, so nothing was offered to merge.", p.err)
	}
	later := []string{fmt.Sprintf("%s pushed with the config's own credentials after the acknowledgement, answered %d", a2a.TaskStateCompleted, p.status)}
	t.Observe("pushed after the acknowledged cancel", later[0])
	judgeAfterCancel(t, o, p.taskID, later)
})

// pushCancelBehaviour is CLI-038's task: pushBehaviour's pace with eight
// artifact chunks, so that it stays WORKING for nine steps (5.4 s on the
// clean agent) and a client that takes a second or more to act on the
// pushed WORKING still cancels a running task (client variant slow); the
// agent stops at the cancel, so the chunks cost a prompt client nothing.
var pushCancelBehaviour = directive.Directive{Version: 1, Outcome: directive.OutcomeCompleted, DelayMs: pushBehaviour.DelayMs, ArtifactChunks: intPtr(8)}

// registered reports whether the client sent a push config with any request.
func registered(rs []Request) bool {
	for _, r := range rs {
		if r.PushURL != "" {
			return true
		}
	}
	return false
}

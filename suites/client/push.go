package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// The client as a webhook receiver: pushes the harness forges, and the
// tokens the client registers.

// forged is one push the harness posted to the client's receiver.
type forged struct {
	what string
	// header, when set, is sent instead of what in the token header: the
	// config's own credentials as the agent puts them (pushHeader).
	header http.Header
	taskID string
	state  a2a.TaskState
	status int
	err    error
}

// statusPush is a push body: a StreamResponse statusUpdate (spec §4.3.3).
func statusPush(taskID, contextID string, st a2a.TaskState) []byte {
	b, _ := json.Marshal(a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: taskID, ContextID: contextID,
		Status: a2a.TaskStatus{State: st, Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z")}}})
	return b
}

// forgeOnWorking is a Hook that, once the client registered its push config
// and its task is WORKING, posts the pushes build makes to the config's URL
// (on its own goroutine, so the client's answer is not held back); wait
// blocks until they were posted.
//
// The wait for the quiet moment is bounded by two steps of pushBehaviour as
// the stage's agent takes them (agent, from the script's Options): by then
// the client has had the send's answer and knows its task.
func forgeOnWorking(ctx context.Context, agent *Agent, build func(cfg a2a.TaskPushNotificationConfig) []forged) (hook func(*Stage, HookEvent), wait func() []forged) {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		out   []forged
		bound = 2 * pushBehaviour.Delay()
	)
	agent.Options = func(o *fakes.Options) {
		mu.Lock()
		bound = 2 * stepOf(o, pushBehaviour)
		mu.Unlock()
	}
	hook = onRegistered(ctx, func(s *Stage, cfg a2a.TaskPushNotificationConfig) {
		wg.Add(1)
		agent := s.Agent()
		mu.Lock()
		forgeAfter := bound
		mu.Unlock()
		go func() {
			defer wg.Done()
			// A quiet moment: the task is WORKING and the agent has
			// delivered every push it owes, so that a forged push is not
			// overtaken by a real one before the client reports.
			awaitState(ctx, agent, cfg.TaskID, a2a.TaskStateWorking, forgeAfter)
			awaitStore(ctx, agent, forgeAfter, func() bool {
				n, err := agent.Store().PendingDeliveries(ctx)
				return err != nil || n == 0
			})
			for _, f := range build(cfg) {
				rec, _ := agent.Store().GetTask(ctx, cfg.TaskID)
				contextID := ""
				if rec != nil && f.taskID == cfg.TaskID {
					contextID = rec.Task.ContextID
				}
				if f.header != nil {
					f.status, f.err = s.PushWith(ctx, cfg.URL, f.header, statusPush(f.taskID, contextID, f.state))
				} else {
					f.status, f.err = s.Push(ctx, cfg.URL, f.what, statusPush(f.taskID, contextID, f.state))
				}
				mu.Lock()
				out = append(out, f)
				mu.Unlock()
			}
		}()
	})
	wait = func() []forged {
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return append([]forged(nil), out...)
	}
	return hook, wait
}

// awaitState waits, at most max, until the instance's task is in state
// want or past it (terminal), woken by the store's writes.
func awaitState(ctx context.Context, a *fakes.Agent, id string, want a2a.TaskState, max time.Duration) {
	awaitStore(ctx, a, max, func() bool {
		rec, err := a.Store().GetTask(ctx, id)
		return err != nil || rec.Task.Status.State == want || rec.Task.Status.State.Terminal()
	})
}

// awaitStore waits, at most max, until cond holds, checking it again at
// every write to the instance's store.
func awaitStore(ctx context.Context, a *fakes.Agent, max time.Duration, cond func() bool) {
	wake, stop := a.Store().Notify()
	defer stop()
	timer := time.NewTimer(max)
	defer timer.Stop()
	for !cond() {
		select {
		case <-wake:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// tookState lists the client's evidence of having taken state st for its
// task: its final belief, and the pushes it says it merged.
func tookState(r *Result, taskID string, st a2a.TaskState) []string {
	var out []string
	if r.State == string(st) && (r.TaskID == "" || r.TaskID == taskID) {
		out = append(out, fmt.Sprintf("the client believes task %s is %s", taskID, st))
	}
	for _, e := range r.EventsVia("push") {
		if e.TaskID == taskID && e.State == string(st) {
			out = append(out, fmt.Sprintf("it reports a push of %s for its task", st))
			break
		}
	}
	return out
}

func describeForged(fs []forged) string {
	var out []string
	for _, f := range fs {
		if f.err != nil {
			out = append(out, fmt.Sprintf("%s: not delivered (%v)", f.label(), f.err))
			continue
		}
		out = append(out, fmt.Sprintf("%s: answered %d", f.label(), f.status))
	}
	return strings.Join(out, "; ")
}

func (f forged) label() string {
	tok := "no token"
	switch {
	case f.header != nil:
		tok = "the config's own credentials"
	case f.what != "":
		tok = "a wrong token"
	}
	return fmt.Sprintf("push of %s for task %s with %s", f.state, f.taskID, tok)
}

// CLI-024: forged pushes (no token, wrong token) are refused and not taken (§13.2 MUST).
var _ = suites.Spec("CLI-024", func(ctx context.Context, t *suites.T) {
	wrong := "a2a-conform-forged-" + randomHex(8)
	var taskID string
	agent := Agent{Behaviour: pushBehaviour}
	hook, wait := forgeOnWorking(ctx, &agent, func(cfg a2a.TaskPushNotificationConfig) []forged {
		taskID = cfg.TaskID
		return []forged{{what: "", taskID: cfg.TaskID, state: a2a.TaskStateFailed},
			{what: wrong, taskID: cfg.TaskID, state: a2a.TaskStateFailed}}
	})
	agent.Hook = hook
	o := RunCase(ctx, t, Case{Name: "forged-push", Action: Push, Agent: agent})
	fs := wait()
	if len(fs) == 0 {
		t.Indeterminate("the client registered no push config, so no push could be forged (driver result: %s).", o.Driver.ResultLine)
	}
	t.Observe("forged pushes", describeForged(fs))
	var vs, soft []invariants.Violation
	delivered := 0
	for _, f := range fs {
		if f.err != nil {
			continue
		}
		delivered++
		if f.status >= 200 && f.status < 300 {
			soft = append(soft, invariants.Violation{Invariant: "client-push-authenticity", Where: "the receiver at " + o.WebhookURL,
				Expected: "a refusal (401) of a " + f.label(), Actual: fmt.Sprintf("HTTP %d: acknowledged as if authentic", f.status)})
		}
	}
	if delivered == 0 {
		t.CouldNotRun("no forged push reached the client's receiver (%s).", describeForged(fs))
	}
	if took := tookState(o.Result, taskID, a2a.TaskStateFailed); len(took) > 0 {
		vs = append(vs, invariants.Violation{Invariant: "client-push-authenticity", Where: "the driver's result: " + o.Driver.ResultLine,
			Expected: fmt.Sprintf("task %s never taken as TASK_STATE_FAILED: only forged pushes (no token, a wrong token) said so", taskID),
			Actual:   strings.Join(took, "; ")})
	}
	t.Should(soft...)
	t.Violated(vs...)
})

// CLI-025: a push about another task does not change the client's task (§4.3.3 MUST vs §13.2 SHOULD: warn).
var _ = suites.Spec("CLI-025", func(ctx context.Context, t *suites.T) {
	other := "a2a-conform-not-yours-" + randomHex(6)
	var taskID string
	agent := Agent{Behaviour: pushBehaviour}
	hook, wait := forgeOnWorking(ctx, &agent, func(cfg a2a.TaskPushNotificationConfig) []forged {
		taskID = cfg.TaskID
		// The config's own credentials, carried as the agent carries them
		// (its token header, or the Authorization its authentication
		// specifies): a client that registered authentication rather than a
		// token must be offered an authentic push too, or it refuses this one
		// for its credentials and the task-id check is never asked.
		return []forged{{header: fakes.PushCredentials(cfg), taskID: other, state: a2a.TaskStateFailed}}
	})
	agent.Hook = hook
	o := RunCase(ctx, t, Case{Name: "push-for-another-task", Action: Push, Agent: agent})
	fs := wait()
	if len(fs) == 0 {
		t.Indeterminate("the client registered no push config, so no push could be sent (driver result: %s).", o.Driver.ResultLine)
	}
	if fs[0].err != nil {
		t.CouldNotRun("the push naming another task did not reach the client's receiver: %v.", fs[0].err)
	}
	t.Observe("push for task "+other+" (the config's own credentials)", fmt.Sprintf("answered %d", fs[0].status))
	r := o.Result
	var took []string
	if r.TaskID == other {
		took = append(took, fmt.Sprintf("the client now tracks task %s, which it never created", other))
	}
	took = append(took, tookState(r, taskID, a2a.TaskStateFailed)...)
	if len(took) > 0 {
		t.Violated(invariants.Violation{Invariant: "client-push-task-id", Where: "the driver's result: " + r2s(o),
			Expected: fmt.Sprintf("task %s unaffected by a push about task %s", taskID, other),
			Actual:   strings.Join(took, "; ")})
	}
})

func r2s(o *Outcome) string { return o.Driver.ResultLine }

// CLI-026: a token of its own in each push config (§13.2 SHOULD).
var _ = suites.Spec("CLI-026", func(ctx context.Context, t *suites.T) {
	type reg struct {
		given, used string
	}
	var regs []reg
	for _, name := range []string{"first-config", "second-config"} {
		var mu sync.Mutex
		var used string
		hook := onRegistered(ctx, func(_ *Stage, cfg a2a.TaskPushNotificationConfig) {
			mu.Lock()
			used = configToken(cfg)
			mu.Unlock()
		})
		o := RunCase(ctx, t, Case{Name: name, Action: Push, Agent: Agent{Behaviour: pushBehaviour, Hook: hook}})
		mu.Lock()
		regs = append(regs, reg{given: o.PushToken, used: used})
		mu.Unlock()
		if used == "" {
			t.Violated(invariants.Violation{Invariant: "client-push-token", Where: "case " + name,
				Expected: "a push config with a token (or authentication credentials)", Actual: "a config with none, or no config (driver result: " + o.Driver.ResultLine + ")"})
		}
	}
	same := 0
	for _, r := range regs {
		if r.used == r.given {
			same++
		}
	}
	t.Observe("tokens registered", fmt.Sprintf("%d of %d configs carry the token the driver was given", same, len(regs)))
	if regs[0].used == regs[1].used {
		t.Violated(invariants.Violation{Invariant: "client-push-token", Where: "the two push configs",
			Expected: "a token of its own in each config", Actual: "both carry the same token: one leak forges pushes for every task"})
	}
})

package client

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Scenario 1 as a client meets it: the card rotates between the client's
// first message and its follow-up, the task may not survive, and webhooks
// must stay bound to the task's own push config.

// inputRequired is the first message's behaviour in the follow-up cases:
// the task stops at INPUT_REQUIRED, waiting for the follow-up.
var inputRequired = directive.Directive{Version: 1, Outcome: directive.OutcomeInputRequired, DelayMs: 100}

// sends reports whether op sends a message.
func sends(op string) bool {
	return op == a2a.MethodSendMessage || op == a2a.MethodSendStreamingMessage
}

// firstAndFollowUp finds the client's first message (it names no task) and
// the first later message that names a task: the follow-up.
func firstAndFollowUp(rs []Request) (first, follow *Request) {
	for i := range rs {
		r := &rs[i]
		switch {
		case r.Card || !sends(r.Op):
		case first == nil && r.TaskID == "":
			first = r
		case first != nil && r.TaskID != "":
			return first, r
		}
	}
	return first, nil
}

// CLI-020: the expired card is revalidated before the follow-up (§8.6.2 SHOULD; scenario 1).
var _ = suites.Spec("CLI-020", func(ctx context.Context, t *suites.T) {
	o := RunCase(ctx, t, Case{Name: "expired-card", Action: FollowUp,
		Agent: Agent{Behaviour: inputRequired, CardMaxAge: -1}})
	rs := o.Requests
	first, follow := firstAndFollowUp(rs)
	if first == nil {
		t.Indeterminate("the client sent no message, so no transition of its own could be judged (driver result: %s).", o.Driver.ResultLine)
	}
	if follow == nil {
		// A revalidation answered 304 and then no follow-up, with an
		// error: the client took the confirmation of its copy for a failure.
		for _, r := range rs {
			if r.Card && r.Seq > first.Seq && r.Status == http.StatusNotModified && o.Result.Error != nil {
				t.Violated(invariants.Violation{Invariant: "client-card-revalidation", Where: Where(r),
					Expected: "the 304 Not Modified read as confirming the cached card (RFC 9110 §15.4.5), and the follow-up sent on it",
					Actual:   fmt.Sprintf("no follow-up: the client raised %s (%s) after the 304", o.Result.Error.Class, cut(o.Result.Error.Message, 200))})
			}
		}
		t.Indeterminate("the client never sent a follow-up naming its task (the transition the spec judges); driver result: %s.", o.Driver.ResultLine)
	}
	var served string
	for _, r := range rs {
		if r.Card && r.Seq < first.Seq && r.CardETag != "" {
			served = r.CardETag
		}
	}
	if served == "" {
		t.Indeterminate("the client fetched no card with an ETag before its first message (it may have been configured with the card); nothing to revalidate.")
	}
	var between []Request
	for _, r := range rs {
		if r.Card && r.Seq > first.Seq && r.Seq < follow.Seq {
			between = append(between, r)
		}
	}
	t.Observe("card served (ETag, max-age=0)", served)
	t.Observe("card fetches between the first message and the follow-up", describeFetches(between))
	for _, r := range between {
		if inm := r.Header.Values("If-None-Match"); len(inm) > 0 && strings.Contains(strings.Join(inm, ","), served) {
			t.Observe("revalidation", fmt.Sprintf("%s with If-None-Match %s, answered %d", Where(r), strings.Join(inm, ","), r.Status))
			return
		}
		if r.Header.Get("If-Modified-Since") != "" {
			t.Observe("revalidation", fmt.Sprintf("%s with If-Modified-Since (the other validator §8.6.2 names), answered %d", Where(r), r.Status))
			return
		}
	}
	v := invariants.Violation{Invariant: "client-card-revalidation", Where: "before " + Where(*follow),
		Expected: fmt.Sprintf("a conditional GET of the expired card (If-None-Match: %s) between the answer to the first message and the follow-up", served)}
	if len(between) > 0 {
		v.Actual = fmt.Sprintf("%d unconditional re-fetch(es) of the card, %s: the ETag it was served was never used", len(between), describeFetches(between))
	} else {
		v.Actual = "no card request at all: the follow-up went out on a card that had expired (max-age=0)"
	}
	t.Violated(v)
})

func describeFetches(rs []Request) string {
	if len(rs) == 0 {
		return "none"
	}
	var out []string
	for _, r := range rs {
		inm := r.Header.Get("If-None-Match")
		if inm == "" {
			inm = "no If-None-Match"
		} else {
			inm = "If-None-Match " + inm
		}
		out = append(out, fmt.Sprintf("request %d (%s, answered %d)", r.Seq, inm, r.Status))
	}
	return strings.Join(out, ", ")
}

// lostTasks watches a case whose stage rotates away from its tasks: which
// requests named a task the serving instance does not have, and which tasks
// the new instance created.
type lostTasks struct {
	mu       sync.Mutex
	rotated  bool
	rotateAt int // Seq of the request after which the stage rotated
	named    []Request
	sendsTo  map[string]int // requests naming each lost task
	created  map[string]bool
	recorded bool
}

// lostLimit is how many requests naming the lost task the spec lets pass:
// the follow-up, one GetTask to reconcile (scenario 1's own advice) and one
// retry. A fourth request for a task the agent said does not exist is going
// on as if it had survived: a client that hangs on it.
const lostLimit = 3

// CLI-021: a task lost in a rotation is reported lost or re-submitted openly (scenario 1; no MUST: warn).
var _ = suites.Spec("CLI-021", func(ctx context.Context, t *suites.T) {
	w := &lostTasks{sendsTo: map[string]int{}, created: map[string]bool{}}
	hook := func(s *Stage, e HookEvent) {
		r := e.Request
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.rotated {
			if e.After && sends(r.Op) && r.TaskID == "" {
				if err := s.Rotate(ctx, Rotation{LoseTasks: true}); err == nil {
					w.rotated, w.rotateAt = true, r.Seq
				}
			}
			return
		}
		if e.After {
			if sends(r.Op) && r.TaskID == "" {
				for _, id := range storeTasks(ctx, s.Agent()) {
					w.created[id] = true
				}
			}
			return
		}
		if r.TaskID == "" || !lost(ctx, s.Agent(), r.TaskID) {
			return
		}
		w.named = append(w.named, r)
		w.sendsTo[r.TaskID]++
		if w.sendsTo[r.TaskID] > lostLimit && !w.recorded {
			// Recorded now: a client that goes on re-sending until its
			// driver is killed still has this violation reported.
			w.recorded = true
			t.Record(invariants.Violation{Invariant: "client-lost-task", Where: Where(r),
				Expected: fmt.Sprintf("after TaskNotFoundError for task %s, the task reported lost or re-submitted as a new task", r.TaskID),
				Actual:   fmt.Sprintf("request %d naming the lost task (%s): the client goes on as if it had survived", w.sendsTo[r.TaskID], r.Op)})
		}
	}
	o := RunCase(ctx, t, Case{Name: "lost-task", Action: FollowUp,
		Agent: Agent{Behaviour: inputRequired, Hook: hook}})
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.rotated {
		t.Indeterminate("the client's first message was never answered, so the stage never rotated (driver result: %s).", o.Driver.ResultLine)
	}
	if len(w.named) == 0 {
		t.Indeterminate("after the rotation the client sent no request naming its lost task (no follow-up, no GetTask), so it never met the loss (driver result: %s).", o.Driver.ResultLine)
	}
	r := o.Result
	lostID := w.named[0].TaskID
	var resubmits []Request
	for _, q := range o.Requests {
		if q.Seq > w.named[0].Seq && sends(q.Op) && q.TaskID == "" {
			resubmits = append(resubmits, q)
		}
	}
	var names []string
	for _, q := range w.named {
		names = append(names, Where(q))
	}
	t.Observe("requests naming the lost task "+lostID, strings.Join(names, "; "))
	t.Observe("card fetches after the rotation", describeFetches(cardFetchesAfter(o.Requests, w.rotateAt)))
	var vs []invariants.Violation
	if len(resubmits) > 0 {
		// A re-submission is a transition the client initiates, made
		// because the task did not survive a rotation: scenario 1 has the
		// card re-resolved before it, so the new task goes to the
		// deployment the current card describes.
		resolved := 0
		for _, q := range cardFetchesAfter(o.Requests, w.rotateAt) {
			if q.Seq < resubmits[0].Seq {
				resolved++
			}
		}
		if resolved == 0 {
			vs = append(vs, invariants.Violation{Invariant: "client-lost-task", Where: Where(resubmits[0]),
				Expected: "the card re-resolved after the rotation and before the lost task was re-submitted (scenario 1: re-resolve the card before every transition the client initiates)",
				Actual:   fmt.Sprintf("no card request since the rotation (after request %d): the new task was sent on the card fetched before it", w.rotateAt)})
		}
	}
	where := "the driver's result: " + o.Driver.ResultLine
	switch {
	case r.ResubmittedTaskID != "":
		if len(resubmits) == 0 || !w.created[r.ResubmittedTaskID] {
			vs = append(vs, invariants.Violation{Invariant: "client-lost-task", Where: where,
				Expected: "resubmittedTaskId naming the new task the client created after TaskNotFoundError",
				Actual:   fmt.Sprintf("resubmittedTaskId %q, but the agent created no such task after the loss (%d new messages)", r.ResubmittedTaskID, len(resubmits))})
		} else {
			t.Finding("the client re-submitted the lost task %s as a new task %s (scenario 1's bounded re-submission)", lostID, r.ResubmittedTaskID)
		}
	case len(resubmits) > 0:
		vs = append(vs, invariants.Violation{Invariant: "client-lost-task", Where: Where(resubmits[0]),
			Expected: "a re-submission reported as such (resubmittedTaskId), or the task reported lost",
			Actual: fmt.Sprintf("the client created a new task after TaskNotFoundError for %s and reported task %q in state %q with error class %q, without saying it re-submitted: a silent re-creation",
				lostID, r.TaskID, r.State, r.ErrorClass())})
	case r.ErrorClass() == clientrun.ClassTaskNotFound:
		t.Observe("outcome", "the client reported the task lost (task-not-found)")
	case r.ErrorClass() != "" && r.ErrorClass() != clientrun.ClassTimeout:
		t.Observe("outcome", fmt.Sprintf("the client raised %q (%s) rather than task-not-found: the loss is reported, under another name", r.ErrorClass(), r.Error.Message))
	case r.ErrorClass() == clientrun.ClassTimeout:
		vs = append(vs, invariants.Violation{Invariant: "client-lost-task", Where: where,
			Expected: "the task reported lost or re-submitted once the agent answered TaskNotFoundError",
			Actual:   fmt.Sprintf("the client ran out of time after %d request(s) naming the lost task: it went on waiting for a task that no longer exists", w.sendsTo[lostID])})
	default:
		vs = append(vs, invariants.Violation{Invariant: "client-lost-task", Where: where,
			Expected: "the task reported lost (task-not-found) or re-submitted as a new task",
			Actual:   fmt.Sprintf("no error and no re-submission: the client reports task %q in state %q, as if the task had survived the rotation", r.TaskID, r.State)})
	}
	t.Violated(vs...)
})

func cardFetchesAfter(rs []Request, seq int) []Request {
	var out []Request
	for _, r := range rs {
		if r.Card && r.Seq > seq {
			out = append(out, r)
		}
	}
	return out
}

// lost reports whether the serving instance has no task with that id.
func lost(ctx context.Context, a *fakes.Agent, id string) bool {
	_, err := a.Store().GetTask(ctx, id)
	return errors.Is(err, store.ErrNotFound)
}

// storeTasks lists the ids of the instance's tasks.
func storeTasks(ctx context.Context, a *fakes.Agent) []string {
	ts, _, err := a.Store().ListTasks(ctx, store.ListQuery{Limit: 100})
	if err != nil {
		return nil
	}
	var ids []string
	for _, t := range ts {
		ids = append(ids, t.Task.ID)
	}
	sort.Strings(ids)
	return ids
}

// pushLog keeps what the reference agent logs about its push deliveries: a
// drop names the task, the config and why (an HTTP status the receiver
// answered, or a transport error).
type pushLog struct {
	mu    sync.Mutex
	drops []string
}

func (p *pushLog) Enabled(context.Context, slog.Level) bool { return true }
func (p *pushLog) WithAttrs([]slog.Attr) slog.Handler       { return p }
func (p *pushLog) WithGroup(string) slog.Handler            { return p }
func (p *pushLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "push dropped" {
		return nil
	}
	var parts []string
	r.Attrs(func(a slog.Attr) bool {
		parts = append(parts, a.Key+"="+a.Value.String())
		return true
	})
	p.mu.Lock()
	p.drops = append(p.drops, strings.Join(parts, " "))
	p.mu.Unlock()
	return nil
}

func (p *pushLog) Drops() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.drops...)
}

// refused lists the drops the receiver caused by answering a 4xx.
func (p *pushLog) refused() []string {
	var out []string
	for _, d := range p.Drops() {
		if strings.Contains(d, "reason=HTTP 4") {
			out = append(out, d)
		}
	}
	return out
}

// pushConfigs returns the push configs the instance holds.
func pushConfigs(ctx context.Context, a *fakes.Agent) []a2a.TaskPushNotificationConfig {
	keys, err := a.Store().ConfigKeys(ctx)
	if err != nil {
		return nil
	}
	var out []a2a.TaskPushNotificationConfig
	for _, k := range keys {
		if c, err := a.Store().GetConfig(ctx, k[0], k[1]); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// configToken is the credential a config carries: its token, or the
// credentials of its authentication.
func configToken(c a2a.TaskPushNotificationConfig) string {
	if c.Token != "" {
		return c.Token
	}
	if c.Authentication != nil {
		return c.Authentication.Credentials
	}
	return ""
}

// pushBehaviour is the task of the push cases: it works long enough for the
// harness to act between the registration and the terminal push.
var pushBehaviour = directive.Directive{Version: 1, Outcome: directive.OutcomeCompleted, DelayMs: 600}

// onRegistered is a Hook that calls f once, after the first request that
// left the instance with a push config.
func onRegistered(ctx context.Context, f func(s *Stage, cfg a2a.TaskPushNotificationConfig)) func(*Stage, HookEvent) {
	var once sync.Once
	return func(s *Stage, e HookEvent) {
		if !e.After || !(sends(e.Request.Op) || e.Request.Op == a2a.MethodCreateTaskPushNotificationConfig) {
			return
		}
		cfgs := pushConfigs(ctx, s.Agent())
		if len(cfgs) == 0 {
			return
		}
		once.Do(func() { f(s, cfgs[0]) })
	}
}

// CLI-022: pushes carrying the task's own credentials are acknowledged after a rotation (§13.2 MUST; scenario 1).
var _ = suites.Spec("CLI-022", func(ctx context.Context, t *suites.T) {
	logs := &pushLog{}
	var (
		mu      sync.Mutex
		rotated string
		cfg     a2a.TaskPushNotificationConfig
	)
	o := RunCase(ctx, t, Case{Name: "rotation-after-registration", Action: Push, Agent: Agent{
		Behaviour: pushBehaviour,
		Options:   func(o *fakes.Options) { o.Logger = slog.New(logs) },
		Hook: onRegistered(ctx, func(s *Stage, c a2a.TaskPushNotificationConfig) {
			gen := s.Agent().Rotate(fakes.Rotation{Version: "2.0.0", AuthScheme: "Basic"})
			mu.Lock()
			cfg, rotated = c, fmt.Sprintf("card rotated to generation %d (version 2.0.0, HTTP Basic advertised) once task %s had its push config", gen, c.TaskID)
			mu.Unlock()
		}),
	}})
	mu.Lock()
	defer mu.Unlock()
	if rotated == "" {
		t.Indeterminate("the client registered no push config, so no binding could be judged (driver result: %s).", o.Driver.ResultLine)
	}
	t.Observe("scripted agent", rotated)
	if d := logs.Drops(); len(d) > 0 {
		t.Observe("pushes the agent dropped", strings.Join(d, "; "))
	}
	var vs []invariants.Violation
	for _, d := range logs.refused() {
		vs = append(vs, invariants.Violation{Invariant: "client-push-acknowledged", Where: "the agent's push to " + cfg.URL,
			Expected: "2xx for a push carrying the credentials of the task's own push config",
			Actual:   "the receiver refused it after the card rotated (" + d + "): the webhook is bound to the card, not to the task's config"})
	}
	t.Record(vs...)
	r := o.Result
	var terminal bool
	for _, e := range r.EventsVia("push") {
		if e.TaskID == cfg.TaskID && isTerminal(e.State) {
			terminal = true
		}
	}
	switch {
	case len(vs) > 0:
	case terminal:
		t.Observe("outcome", fmt.Sprintf("the client took the terminal push of task %s after the rotation; it believes %s", cfg.TaskID, r.State))
	case len(logs.Drops()) > 0:
		t.CouldNotRun("the agent's pushes did not reach the receiver, for another reason than a refusal: %s.", strings.Join(logs.Drops(), "; "))
	default:
		t.Indeterminate("no terminal push reached the client before its driver ended (the agent dropped none, so it may be late, not lost); driver result: %s.", o.Driver.ResultLine)
	}
})

func isTerminal(s string) bool { return a2a.TaskState(s).Terminal() }

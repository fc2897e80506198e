package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Scoping (spec §13.1, §3.3.2): the run's own identity (--header) creates a
// task; a second identity (--second-header), one the agent's authorization
// model keeps from it, then asks for that task by id on every operation that
// names a task, and lists its context. LIFE-031 judges that nothing was
// served to it; LIFE-032 that every refusal looks exactly like the refusal
// of an id that does not exist, asked the same way by the same identity on
// the same binding. Both judge only the task the spec created.

// probe is what the second identity got for one operation on the run
// identity's task, and for the same operation on an id nobody issued.
type probe struct {
	op    string
	other answer
	fresh answer
}

// answer is one reply as a caller can tell it apart: served (and what), or
// refused (and how), or not known (a transport failure, a silent stream).
type answer struct {
	err error
	// served says what the caller got when the operation succeeded.
	served string
	// unknown says why what the agent meant could not be told.
	unknown string
}

func (a answer) refused() bool { return a.served == "" && a.unknown == "" && a.err != nil }

// shape is what distinguishes one refusal from another on the wire, for a
// caller: class, A2A error, JSON-RPC code, HTTP status, status name, the
// ErrorInfo reason, and whether it came inside a stream. Messages are left
// out: they name the id asked for.
func (a answer) shape() string {
	switch {
	case a.served != "":
		return "served: " + a.served
	case a.unknown != "":
		return a.unknown
	}
	ce, ok := client.AsError(a.err)
	if !ok {
		return "error: " + a.err.Error()
	}
	s := suites.ErrFields(ce)
	if ce.Status != "" {
		s += " status " + ce.Status
	}
	if ce.Reason != "" {
		s += " reason " + ce.Reason
	}
	if ce.InStream {
		s += " (as a stream event)"
	}
	return s
}

// scopeRun is everything the second identity saw of one binding.
type scopeRun struct {
	binding string
	task    *a2a.Task
	probes  []probe
	// listOwn is the second identity's ListTasks of the task's context,
	// listFresh of a context nobody issued, listAll its unfiltered first page.
	listOwn, listFresh, listAll listAnswer
	// after is the task as its owner saw it once the probes were done.
	after *a2a.Task
	// canceled says the second identity's cancel was refused and yet the
	// task turned CANCELED.
	canceled bool
}

type listAnswer struct {
	resp *a2a.ListTasksResponse
	err  error
}

func (l listAnswer) has(id string) bool {
	if l.resp == nil {
		return false
	}
	for _, t := range l.resp.Tasks {
		if t.ID == id {
			return true
		}
	}
	return false
}

// unknown says why what the agent meant by a ListTasks answer cannot be
// told (no answer), or "".
func (l listAnswer) unknown() string {
	return answerOf(l.err, func() string { return "" }).unknown
}

func (l listAnswer) shape() string {
	if l.err != nil {
		return answer{err: l.err}.shape()
	}
	return fmt.Sprintf("served: %d tasks, totalSize %d", len(l.resp.Tasks), l.resp.TotalSize)
}

// authRefusal reports an answer that refuses the caller itself (401, 403,
// UNAUTHENTICATED, PERMISSION_DENIED, or a JSON-RPC error that is no A2A
// error and not "method not found"), which a spec cannot tell from a
// refusal of the task.
func authRefusal(err error) bool {
	ce, ok := client.AsError(err)
	if !ok {
		return false
	}
	return ce.HTTPStatus == http.StatusUnauthorized || ce.HTTPStatus == http.StatusForbidden ||
		ce.Status == "UNAUTHENTICATED" || ce.Status == "PERMISSION_DENIED" ||
		(ce.Class == client.A2A && ce.Kind == "" && ce.Code != 0 && ce.Code != a2a.CodeMethodNotFound && ce.Binding == a2a.BindingJSONRPC)
}

// probeScope runs the scoping probes on every binding, judging each binding
// as soon as it was probed (its violations are recorded, so that a later
// binding's could-not-run does not hide them), or ends the spec when there
// is nothing to judge: a card without security and no second identity (one
// identity: not applicable), no second identity (could-not-run, naming the
// key), a second identity the agent does not accept (could-not-run).
func probeScope(ctx context.Context, t *suites.T, judge func(*suites.T, scopeRun) []invariants.Violation) {
	card := t.Card()
	if len(card.SecurityRequirements) == 0 && t.Env.SecondHeaders == nil {
		t.NotApplicable("the card declares no securityRequirements and the run names no second identity: every caller is the same anonymous one, so there is no other identity to keep tasks from (spec §13.1 scopes by the authenticated caller).")
	}
	if t.Env.SecondHeaders == nil {
		t.CouldNotRun("the card requires credentials, and the run has only one identity: to see whether another caller is kept from this one's tasks, the harness needs a second one (config key second-header).")
	}
	if len(t.Env.Headers) == 0 {
		t.CouldNotRun("the run has a second identity but no credentials of its own (--header), so there is no first identity whose tasks the second could be kept from.")
	}
	if sameHeaders(t.Env.Headers, t.Env.SecondHeaders) {
		t.CouldNotRun("the second identity's headers (second-header) are the run's own, so it is the same caller.")
	}
	firsts, seconds := t.Clients(), t.SecondClients()
	for i, a := range firsts {
		t.Record(judge(t, probeBinding(ctx, t, a, seconds[i]))...)
	}
}

func sameHeaders(a, b http.Header) bool {
	return maps.EqualFunc(a, b, func(x, y []string) bool { return slices.Equal(x, y) })
}

// unauthenticated reports a refusal of the caller's credentials: HTTP 401
// or gRPC UNAUTHENTICATED.
func unauthenticated(err error) bool {
	ce, ok := client.AsError(err)
	return ok && (ce.HTTPStatus == http.StatusUnauthorized || ce.Status == "UNAUTHENTICATED")
}

// probeBinding creates the run identity's task on one binding and asks the
// second identity about it on the same binding.
func probeBinding(ctx context.Context, t *suites.T, a, b *client.Client) scopeRun {
	r := scopeRun{binding: a.Binding()}
	// The second identity must be served at all, or every refusal below
	// would prove nothing: it lists a context nobody issued.
	fresh := suites.NewID("a2a-conform-no-such-context")
	resp, err := b.ListTasks(ctx, &a2a.ListTasksRequest{ContextID: fresh})
	r.listFresh = listAnswer{resp, err}
	if err != nil {
		if authRefusal(err) {
			t.CouldNotRun("the agent refused the second identity's credentials (ListTasks on %s: %s), so its refusals of another caller's task would prove nothing; give a second-header the agent accepts.", a.Binding(), suites.ErrText(err))
		}
		t.CouldNotRun("the second identity's ListTasks of a context nobody issued failed on %s (%s), so it is unknown whether the agent serves that identity at all.", a.Binding(), suites.ErrText(err))
	}

	// The task stays put if the agent can be asked to wait for input, so
	// that cancelling and subscribing mean something; else any task does.
	s := suites.Script{Outcome: directive.OutcomeInputRequired}
	if !canScript(t, s) {
		s = suites.Script{Outcome: directive.OutcomeCompleted}
	}
	task := createTaskIn(ctx, t, a, "", s)
	r.task = task
	t.Observe("task-"+a.Binding(), string(task.Status.State))
	defer func() {
		if cur, err := a.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID}); err == nil && !cur.Status.State.Terminal() {
			_, _ = a.CancelTask(ctx, &a2a.CancelTaskRequest{ID: task.ID})
		}
	}()

	card := t.Card()
	cfgID := suites.NewID("a2a-conform-config")
	// accepted is a webhook URL the agent took from the run's identity: the
	// second identity's config falls back to it when its own URL is refused
	// as a URL (see secondConfig).
	var accepted string
	if cfg, _ := pushChannel(t); cfg != nil {
		cfg.TaskID = task.ID
		got, err := t.CreatePushConfig(ctx, a, cfg)
		switch {
		case err == nil && got.ID != "":
			cfgID, accepted = got.ID, cfg.URL
			defer a.DeleteTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: got.ID})
		case err != nil:
			t.Observe("own-config-"+a.Binding(), "the run identity's config on its own task was refused: "+suites.ErrText(err))
		}
	}

	type op struct {
		name string
		call func(id string) answer
		// pair, when set, makes both calls (the task's, then an unknown
		// id's) itself, instead of call.
		pair func(task, fresh string) (other, unknown answer)
	}
	ops := []op{
		{name: "GetTask", call: func(id string) answer {
			got, err := b.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
			return answerOf(err, func() string { return "task " + got.ID + " in " + string(got.Status.State) })
		}},
	}
	if card.PushNotifications() {
		ops = append(ops,
			op{name: "ListTaskPushNotificationConfigs", call: func(id string) answer {
				got, err := b.ListTaskPushNotificationConfigs(ctx, &a2a.ListTaskPushNotificationConfigsRequest{TaskID: id})
				return answerOf(err, func() string { return fmt.Sprintf("%d configs", len(got.Configs)) })
			}},
			op{name: "GetTaskPushNotificationConfig", call: func(id string) answer {
				got, err := b.GetTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: id, ID: cfgID})
				return answerOf(err, func() string { return "config " + got.ID + " (" + suites.Cut(got.URL, 80) + ")" })
			}})
		if t.Env.Webhook != nil {
			// A write: a webhook of the second identity's on the task. The
			// harness's receiver, under a token nobody authorized, so a
			// config wrongly created delivers nowhere else; its owner
			// deletes it.
			create := func(id, url string) answer {
				got, err := b.CreateTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: id, URL: url})
				if err == nil && got != nil && got.ID != "" {
					_ = a.DeleteTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: id, ID: got.ID})
				}
				return answerOf(err, func() string {
					if got == nil {
						return "a config created on it"
					}
					return "config " + got.ID + " created on it (url " + suites.Cut(url, 80) + ")"
				})
			}
			ops = append(ops, op{name: "CreateTaskPushNotificationConfig", pair: func(task, fresh string) (answer, answer) {
				return secondConfig(create, task, fresh, t.Env.Webhook.URL(t.WebhookToken()), accepted)
			}})
		}
	}
	if card.Streaming() {
		ops = append(ops,
			op{name: "SubscribeToTask", call: func(id string) answer {
				return streamAnswer(ctx, t, func(sctx context.Context) (*client.Stream, error) {
					return b.SubscribeToTask(sctx, &a2a.SubscribeToTaskRequest{ID: id})
				})
			}},
			op{name: "SendStreamingMessage naming the task", call: func(id string) answer {
				m := userText("a2a-conform: a streamed message from another caller, which must not reach this task")
				m.TaskID = id
				return streamAnswer(ctx, t, func(sctx context.Context) (*client.Stream, error) {
					return b.SendStreamingMessage(sctx, &a2a.SendMessageRequest{Message: &m})
				})
			}})
	}
	ops = append(ops,
		op{name: "SendMessage naming the task", call: func(id string) answer {
			m := userText("a2a-conform: a message from another caller, which must not reach this task")
			m.TaskID = id
			got, err := b.SendMessage(ctx, &a2a.SendMessageRequest{Message: &m,
				Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
			return answerOf(err, func() string {
				if got.Task != nil {
					return "task " + got.Task.ID + " in " + string(got.Task.Status.State)
				}
				return "a Message"
			})
		}},
	)
	// Delete and Cancel last: wrongly served, they remove the run
	// identity's config (deleted again at the end, idempotently) and end the
	// task.
	if card.PushNotifications() {
		ops = append(ops, op{name: "DeleteTaskPushNotificationConfig", call: func(id string) answer {
			err := b.DeleteTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: id, ID: cfgID})
			return answerOf(err, func() string { return "config " + cfgID + " deleted" })
		}})
	}
	ops = append(ops,
		op{name: "CancelTask", call: func(id string) answer {
			got, err := b.CancelTask(ctx, &a2a.CancelTaskRequest{ID: id})
			return answerOf(err, func() string { return "task " + got.ID + " in " + string(got.Status.State) })
		}},
	)
	for _, o := range ops {
		fresh := suites.NewID("a2a-conform-no-such-task")
		if o.pair != nil {
			p := probe{op: o.name}
			p.other, p.fresh = o.pair(task.ID, fresh)
			r.probes = append(r.probes, p)
			continue
		}
		r.probes = append(r.probes, probe{op: o.name, other: o.call(task.ID), fresh: o.call(fresh)})
	}
	// An id nobody issued must be refused as a task, not the caller: an
	// agent that did not authenticate the second identity refuses every
	// call (ListTasks above may be public), and its refusals of another
	// caller's task would then prove nothing.
	for _, p := range r.probes {
		if p.fresh.refused() && unauthenticated(p.fresh.err) {
			t.CouldNotRun("the agent did not authenticate the second identity: %s of an id nobody issued got %s on %s, a refusal of the caller rather than of a task, so its refusals of the run identity's task prove nothing; give a second-header the agent accepts.",
				p.op, suites.ErrText(p.fresh.err), a.Binding())
		}
	}

	resp, err = b.ListTasks(ctx, &a2a.ListTasksRequest{ContextID: task.ContextID})
	r.listOwn = listAnswer{resp, err}
	resp, err = b.ListTasks(ctx, &a2a.ListTasksRequest{})
	r.listAll = listAnswer{resp, err}

	if after, err := a.GetTask(ctx, &a2a.GetTaskRequest{ID: task.ID}); err == nil {
		r.after = after
		cancel := r.probes[len(r.probes)-1]
		r.canceled = cancel.other.refused() && after.Status.State == a2a.TaskStateCanceled && task.Status.State != a2a.TaskStateCanceled
	}
	return r
}

// secondConfig is the second identity's CreateTaskPushNotificationConfig on
// the run identity's task and on an id nobody issued, both with the same URL.
// An agent may check the URL before the caller's access to the task (SSRF
// rules, §13.2): a refusal of the URL then says nothing of ownership, and
// the identity might still attach a webhook with a URL the agent accepts.
// So own, a fresh token path on the harness's receiver, is tried first;
// when it is refused as a URL, the URL the agent accepted from the run's
// identity (accepted) is tried instead. When no URL the agent accepts is
// known, or that one is refused as a URL too, the part is unknown (reported
// unchecked), never a pass.
func secondConfig(create func(id, url string) answer, task, fresh, own, accepted string) (answer, answer) {
	url := own
	other := create(task, url)
	if urlRefused(other) && accepted != "" && accepted != own {
		url = accepted
		other = create(task, url)
	}
	if urlRefused(other) {
		why := "no webhook URL this agent accepts is known (the run identity's own config was not accepted), so whether it would have checked the caller's access was not seen"
		if accepted != "" {
			why = "the URL the agent accepted from the run's identity (" + accepted + ") was refused as a URL for this one too, so whether it would have checked the caller's access was not seen"
		}
		other.unknown = fmt.Sprintf("the webhook URL was refused (%s) before any check of the task: %s; give the run a --webhook-url this agent accepts", suites.ErrText(other.err), why)
		return other, answer{err: other.err, unknown: "not asked (the URL was refused)"}
	}
	return other, create(fresh, url)
}

// urlRefused reports a refusal that is about the request's content (the
// webhook URL, for a config create), not the task or the caller:
// InvalidParams, or a 400 or INVALID_ARGUMENT that names no A2A error. It is
// the rule the webhook suite applies to a refused receiver URL, with gRPC's
// INVALID_ARGUMENT included.
func urlRefused(a answer) bool {
	if !a.refused() {
		return false
	}
	ce, ok := client.AsError(a.err)
	return ok && ce.Class == client.A2A && (ce.Code == a2a.CodeInvalidParams ||
		(ce.Kind == "" && (ce.HTTPStatus == http.StatusBadRequest || ce.Status == "INVALID_ARGUMENT")))
}

// answerOf is a reply: refused with err, or served what describes. No
// answer (transport), and a 5xx or 429 without the binding's error body (a
// gateway's, or the agent overloaded), tell nothing of what the agent meant.
func answerOf(err error, describe func() string) answer {
	if err != nil {
		ce, ok := client.AsError(err)
		switch {
		case ok && ce.Class == client.Transport:
			return answer{err: err, unknown: "no answer: " + suites.ErrText(err)}
		case ok && ce.Class == client.Refused:
			return answer{err: err, unknown: "refused \"not now\" past the patience: " + suites.ErrText(err)}
		case ok && ce.Class == client.HTTP && (ce.HTTPStatus >= 500 || ce.HTTPStatus == http.StatusTooManyRequests):
			return answer{err: err, unknown: "no answer of the agent's binding: " + suites.ErrText(err)}
		}
		return answer{err: err}
	}
	return answer{served: describe()}
}

// streamAnswer opens a stream (a subscription, or a streamed message) and
// reads its first event: a refusal before the stream or as its first event,
// or a served stream. A stream that stays silent for the run's patience is
// neither (a served stream's first event is the task's snapshot, which a
// slow agent may still take seconds to send).
func streamAnswer(ctx context.Context, t *suites.T, open func(context.Context) (*client.Stream, error)) answer {
	sctx, cancel := suites.Ctx(ctx, t.Patience())
	defer cancel()
	s, err := open(sctx)
	if err != nil {
		if sctx.Err() != nil && ctx.Err() == nil {
			return answer{err: err, unknown: fmt.Sprintf("no answer within %s", t.Patience())}
		}
		return answerOf(err, nil)
	}
	defer s.Close()
	ev, silent, err := suites.FirstEvent(sctx, s)
	switch {
	case silent:
		return answer{err: errors.New("silent stream"), unknown: fmt.Sprintf("a stream that opened and sent nothing within %s", t.Patience())}
	case errors.Is(err, io.EOF):
		return answer{served: "a stream that closed without an event"}
	case err != nil:
		return answerOf(err, nil)
	}
	return answer{served: "a stream whose first event is " + suites.EventLabel(ev)}
}

// judgeServed is LIFE-031's judgement of one binding: nothing of the task
// reached the second identity.
func judgeServed(t *suites.T, r scopeRun) []invariants.Violation {
	var vs []invariants.Violation
	where := func(what string) string {
		return fmt.Sprintf("%s by the second identity, task %s of the run's identity (%s)", what, r.task.ID, r.binding)
	}
	for _, p := range r.probes {
		switch {
		case p.other.served != "":
			vs = append(vs, invariants.Violation{Invariant: "auth-scope", Where: where(p.op),
				Expected: "refused: the task is another caller's (spec §13.1 MUST verify access on every task operation)",
				Actual:   "served: " + p.other.served})
		case p.other.unknown != "":
			t.Unchecked(where(p.op), p.other.unknown)
		}
	}
	t.Observe("list-context-"+r.binding, r.listOwn.shape())
	uncheckedLists(t, r, where)
	if r.listOwn.has(r.task.ID) {
		vs = append(vs, invariants.Violation{Invariant: "auth-scope", Where: where("ListTasks of the task's context " + r.task.ContextID),
			Expected: "the task left out (spec §13.1: results scoped to the caller)", Actual: "listed"})
	}
	if r.listAll.has(r.task.ID) {
		vs = append(vs, invariants.Violation{Invariant: "auth-scope", Where: where("ListTasks without filters"),
			Expected: "the task left out (spec §13.1: scoped even without filters)", Actual: "listed on the first page"})
	}
	if r.canceled {
		vs = append(vs, invariants.Violation{Invariant: "auth-scope", Where: where("CancelTask"),
			Expected: "the task left as it was", Actual: "the cancel was refused, yet the task is now TASK_STATE_CANCELED"})
	}
	return vs
}

// judgeDisclosed is LIFE-032's judgement of one binding: each answer about
// the task is indistinguishable from the answer about an id nobody issued.
func judgeDisclosed(t *suites.T, r scopeRun) []invariants.Violation {
	var vs []invariants.Violation
	where := func(what string) string {
		return fmt.Sprintf("%s by the second identity, task %s of the run's identity (%s)", what, r.task.ID, r.binding)
	}
	var same []string
	for _, p := range r.probes {
		o, f := p.other.shape(), p.fresh.shape()
		switch {
		case p.other.served != "":
			vs = append(vs, invariants.Violation{Invariant: "no-disclosure", Where: where(p.op),
				Expected: "the answer an unknown id gets (" + f + "; spec §3.3.2 MUST NOT reveal the task exists)",
				Actual:   o})
		case p.other.unknown != "" || p.fresh.unknown != "":
			t.Unchecked(where(p.op), "for the task: "+o+"; for an unknown id: "+f)
		case o != f:
			vs = append(vs, invariants.Violation{Invariant: "no-disclosure", Where: where(p.op),
				Expected: "the answer an unknown id gets: " + f + " (spec §3.3.2 MUST NOT reveal the task exists)",
				Actual:   o})
		default:
			same = append(same, p.op+": "+o)
		}
	}
	if len(same) > 0 {
		t.Observe("refusals-"+r.binding, strings.Join(same, "; "))
	}
	own, fresh := r.listOwn.shape(), r.listFresh.shape()
	uncheckedLists(t, r, where)
	if r.listOwn.has(r.task.ID) || (own != fresh && r.listOwn.unknown() == "") {
		vs = append(vs, invariants.Violation{Invariant: "no-disclosure", Where: where("ListTasks of the task's context " + r.task.ContextID),
			Expected: "what a context nobody issued lists: " + fresh + " (spec §3.3.2, §13.1)", Actual: own})
	}
	if r.listAll.has(r.task.ID) {
		vs = append(vs, invariants.Violation{Invariant: "no-disclosure", Where: where("ListTasks without filters"),
			Expected: "the task left out", Actual: "listed on the first page"})
	}
	return vs
}

// uncheckedLists marks the second identity's ListTasks calls that got no
// answer as unchecked: what they would have listed is unknown.
func uncheckedLists(t *suites.T, r scopeRun, where func(string) string) {
	if why := r.listOwn.unknown(); why != "" {
		t.Unchecked(where("ListTasks of the task's context "+r.task.ContextID), why)
	}
	if why := r.listAll.unknown(); why != "" {
		t.Unchecked(where("ListTasks without filters"), why)
	}
}

// LIFE-031 (spec §13.1; TCK AUTH-SCOPE-002): results are limited to what
// the caller may access. A second identity that names the run identity's
// task gets nothing of it on any binding: GetTask, the push configs (read,
// a config of its own created on the task, the run identity's deleted),
// SubscribeToTask, a message naming it (sent and streamed) and CancelTask
// are refused (and the task is left as it was), and ListTasks, of the
// task's own context or unfiltered, leaves it out. A config refused for its URL proves nothing
// about the task: it is retried with the URL the agent accepted from the run's
// identity, or left unchecked (secondConfig).
var _ = suites.Spec("LIFE-031", func(ctx context.Context, t *suites.T) {
	probeScope(ctx, t, judgeServed)
})

// LIFE-032 (spec §3.3.2, §13.1; TCK AUTH-SCOPE-003): the server does not
// disclose that a task the caller may not access exists. Every answer the
// second identity gets about the run identity's task is the answer it gets
// about an id nobody issued, on the same operation and binding: the same
// class, A2A error, code, HTTP status, status name and ErrorInfo reason
// (messages, which name the id, are not compared); its ListTasks of the
// task's context looks like that of a context nobody issued. A refusal
// that differs (an authorization error where the unknown id gets
// TaskNotFoundError) tells the caller the task exists.
var _ = suites.Spec("LIFE-032", func(ctx context.Context, t *suites.T) {
	probeScope(ctx, t, judgeDisclosed)
})

package suites

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
)

// PushHook is one push config of a spec's own, in whatever suite: a receiver
// token claimed for the spec, credentials invented for it (redacted from
// every report) that the receiver requires, and the config to register.
// Every config the harness registers carries credentials of its own, so that
// every delivery to it can be checked against them, before and after any
// change of the deployment (scenario 1: an agent that signs pushes the
// card's way after a rotation).
type PushHook struct {
	// Token is the receiver token (the URL's last segment).
	Token string
	// Auth is the Authorization header the receiver requires.
	Auth string
	// Config is the config as registered; its TaskID and ID are filled in
	// once the agent accepted it.
	Config a2a.TaskPushNotificationConfig
	// Acked is when the agent acknowledged the config.
	Acked time.Time
}

// NewPushHook makes a config for the run's receiver with scheme ("Bearer"
// or "Basic") and fresh credentials and token. The run must have a receiver
// (Env.Webhook).
func (t *T) NewPushHook(scheme string) *PushHook {
	token := t.WebhookToken()
	secret := "a2a-conform-push-" + webhook.NewToken()
	if strings.EqualFold(scheme, "Basic") {
		secret = base64.StdEncoding.EncodeToString([]byte("a2a-conform:" + webhook.NewToken()))
	}
	tok := "a2a-conform-token-" + webhook.NewToken()
	if t.Env.Transcript != nil {
		t.Env.Transcript.AddSecret(secret, tok)
	}
	h := &PushHook{Token: token, Auth: scheme + " " + secret, Config: a2a.TaskPushNotificationConfig{
		URL: t.Env.Webhook.URL(token), Token: tok,
		Authentication: &a2a.AuthenticationInfo{Scheme: scheme, Credentials: secret}}}
	t.Env.Webhook.Authorize(token, h.Auth)
	return h
}

// For returns a copy of the hook's config naming taskID, to register.
func (h *PushHook) For(taskID string) *a2a.TaskPushNotificationConfig {
	cfg := h.Config
	cfg.TaskID = taskID
	return &cfg
}

// Accepted records that the agent accepted the config for taskID (got is
// the agent's answer, which may carry the config's id).
func (h *PushHook) Accepted(taskID string, got *a2a.TaskPushNotificationConfig) {
	h.Acked = time.Now()
	h.Config.TaskID = taskID
	if got != nil && got.ID != "" {
		h.Config.ID = got.ID
	}
}

// Deliveries are the POSTs to the hook so far, trusted or not.
func (h *PushHook) Deliveries(t *T) []webhook.Delivery { return t.Env.Webhook.Deliveries(h.Token) }

// Acknowledged are the trusted deliveries the receiver acknowledged.
func (h *PushHook) Acknowledged(t *T) []webhook.Delivery {
	var out []webhook.Delivery
	for _, d := range h.Deliveries(t) {
		if d.Trusted() && d.Acknowledged() {
			out = append(out, d)
		}
	}
	return out
}

// States lists the states of taskID that the hook's acknowledged deliveries
// carried. A delivery about another task never counts (PushBodies reports
// it).
func (h *PushHook) States(t *T, taskID string) []a2a.TaskState {
	var out []a2a.TaskState
	for _, d := range h.Acknowledged(t) {
		if s, ok := d.Resp.State(); ok && d.TaskID() == taskID {
			out = append(out, s)
		}
	}
	return out
}

// Pushed reports whether a trusted, acknowledged delivery to the hook carried
// a state of taskID that ok accepts.
func (h *PushHook) Pushed(t *T, taskID string, ok func(a2a.TaskState) bool) bool {
	for _, s := range h.States(t, taskID) {
		if ok(s) {
			return true
		}
	}
	return false
}

// PushBodies returns a violation for every delivery to the hook that is not
// a valid one-member StreamResponse about taskID (and contextID, when not
// empty), or that does not carry the config's own credentials. where names
// the spec's situation (e.g. "after the roll"), and is prefixed to each.
func (t *T) PushBodies(h *PushHook, taskID, contextID, where string) []invariants.Violation {
	var out []invariants.Violation
	for _, d := range h.Deliveries(t) {
		at := fmt.Sprintf("push #%d to config %s of task %s", d.Attempt, orNone(h.Config.ID), taskID)
		if where != "" {
			at = where + ": " + at
		}
		switch d.Untrusted {
		case webhook.Unauthenticated:
			out = append(out, invariants.Violation{Invariant: "push-credentials", Where: at,
				Expected: "Authorization: " + h.Config.Authentication.Scheme + " <the config's own credentials> (§4.3.3: the credentials given in the task's push config)",
				Actual:   RedactedAuth(d.Header.Get("Authorization"))})
			continue
		case webhook.OverCap:
			out = append(out, invariants.Violation{Invariant: "push-body", Where: at,
				Expected: fmt.Sprintf("a StreamResponse of at most %d bytes", webhook.MaxBody), Actual: "a larger body"})
			continue
		}
		for _, v := range d.Invalid {
			v.Where = at + " body " + v.Where
			out = append(out, v)
		}
		if d.DecodeErr != nil || len(d.Invalid) > 0 {
			continue
		}
		if got := d.TaskID(); got != taskID {
			out = append(out, invariants.Violation{Invariant: "push-body", Where: at,
				Expected: "an event about task " + taskID + " (the config's task)", Actual: "an event about task " + fmt.Sprintf("%q", got)})
		}
		if su := d.Resp.StatusUpdate; su != nil && contextID != "" && su.ContextID != contextID {
			out = append(out, invariants.Violation{Invariant: "push-body", Where: at,
				Expected: "contextId " + contextID, Actual: fmt.Sprintf("%q", su.ContextID)})
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(no id)"
	}
	return s
}

// RedactedAuth shows the scheme of an Authorization header the agent sent,
// never its credentials.
func RedactedAuth(got string) string {
	if got == "" {
		return "no Authorization header"
	}
	scheme, _, _ := strings.Cut(got, " ")
	return fmt.Sprintf("Authorization with scheme %q and other credentials (%d bytes)", Cut(scheme, 40), len(got))
}

// DescribeDeliveries summarises what reached a hook, for a reason or an
// observation.
func DescribeDeliveries(ds []webhook.Delivery) string {
	if len(ds) == 0 {
		return "nothing arrived"
	}
	var parts []string
	for _, d := range ds {
		p := fmt.Sprintf("#%d HTTP %d", d.Attempt, d.Status)
		if s, ok := d.Resp.State(); ok {
			p += " " + string(s)
		} else if m := d.Resp.Members(); len(m) > 0 {
			p += " " + strings.Join(m, "+")
		}
		if d.Untrusted != "" {
			p += " (" + d.Untrusted + ")"
		}
		parts = append(parts, p)
	}
	return fmt.Sprintf("%d POSTs: %s", len(ds), Cut(strings.Join(parts, ", "), 600))
}

// RefusesWebhookURL is the one rule, in every suite, for an agent's refusal
// of the harness's receiver URL itself: an A2A invalid-params error (or a
// bare HTTP 400, or gRPC INVALID_ARGUMENT, of no A2A kind). Agents SHOULD keep loopback and private
// addresses out (§13.2), so such a refusal is the harness's problem, not the
// agent's: the part that needed the config could not run (WebhookURLRefused).
func RefusesWebhookURL(err error) bool {
	ce, ok := client.AsError(err)
	return ok && ce.Class == client.A2A && (ce.Code == a2a.CodeInvalidParams || (ce.HTTPStatus == 400 && ce.Kind == "") ||
		(ce.Binding == a2a.BindingGRPC && ce.Status == "INVALID_ARGUMENT" && ce.Kind == ""))
}

// WebhookURLRefused is the reason given when the agent refused the
// receiver's URL (RefusesWebhookURL): what to give the run instead.
func (t *T) WebhookURLRefused(url, op string, err error) string {
	return fmt.Sprintf("the agent refused the harness's receiver URL %s as a webhook (%s: %s); agents SHOULD refuse loopback and private addresses (§13.2), so give the run a --webhook-url this agent accepts.",
		url, op, ErrText(err))
}

// PushGrace is how long a wait for a push keeps listening after the
// patience ran out: a queue-backed dispatcher delivers seconds late, and a
// push that comes in the grace is late, not lost (its latency is recorded).
const PushGrace = 2 * time.Second

// PushWait is the outcome of one wait for a push (AwaitPush).
type PushWait struct {
	// Came says the push arrived; At is when, Latency is At minus the time
	// the wait counted from (the event, or the end of the task).
	Came    bool
	At      time.Time
	Latency time.Duration
	// Late says it came only in the grace, after the patience.
	Late bool
	// Waited is how long the wait lasted.
	Waited time.Duration
}

// AwaitPush waits until a trusted, acknowledged push to h carried a state of
// taskID that ok accepts: the patience from now, then PushGrace more. since
// is what the latency counts from (the event's time; zero: now).
func (t *T) AwaitPush(ctx context.Context, h *PushHook, taskID string, ok func(a2a.TaskState) bool, since time.Time) PushWait {
	began := time.Now()
	if since.IsZero() {
		since = began
	}
	patience := t.Patience()
	deadline := began.Add(patience + PushGrace)
	for {
		if at, came := h.firstPushed(t, taskID, ok); came {
			return PushWait{Came: true, At: at, Latency: at.Sub(since), Late: at.Sub(began) > patience, Waited: time.Since(began)}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return PushWait{Waited: time.Since(began)}
		}
		select {
		case <-ctx.Done():
		case <-time.After(Poll):
		}
	}
}

// PushedAt is when the first trusted, acknowledged push of a state of
// taskID that ok accepts arrived, if one did.
func (h *PushHook) PushedAt(t *T, taskID string, ok func(a2a.TaskState) bool) (time.Time, bool) {
	return h.firstPushed(t, taskID, ok)
}

func (h *PushHook) firstPushed(t *T, taskID string, ok func(a2a.TaskState) bool) (time.Time, bool) {
	for _, d := range h.Acknowledged(t) {
		if s, has := d.Resp.State(); has && d.TaskID() == taskID && ok(s) {
			return d.At, true
		}
	}
	return time.Time{}, false
}

// Reach is the run's fact of whether the agent reaches the receiver
// (Env.WebhookReach). A run prepared without the probe (a unit test's Env)
// reads Env.WebhookReachable as a fact vouched for by the harness.
func (t *T) Reach() *WebhookReach {
	if t.Env.WebhookReach != nil {
		return t.Env.WebhookReach
	}
	r := NewWebhookReach(t.Env.WebhookReachable)
	if t.Env.WebhookReachable {
		r.Decide(ReachProven, "the harness configured the agent to reach its receiver")
	}
	return r
}

// ReachUnshown says why the run cannot show that the agent reaches the
// receiver, or "" when it can: the probe's push arrived, or h (when not nil)
// got a POST of its own. A spec whose check rests on silence at a config
// (nothing pushed after a delete, nothing pushed to a canary) cannot pass
// without it.
func (t *T) ReachUnshown(h *PushHook) string {
	if h != nil && len(h.Deliveries(t)) > 0 {
		return ""
	}
	r := t.Reach()
	state, reason := r.State()
	if delivered, _ := r.Delivered(); delivered || (state == ReachProven && r.Vouched()) {
		return ""
	}
	if state == ReachRefused {
		return reason
	}
	if reason == "" {
		reason = "the run has no proof"
	}
	if state == ReachUnreachable {
		if why := t.Env.NoNetworkBetween(); why != "" {
			if !strings.Contains(reason, "SSRF guard") {
				reason += "; " + GuardAdvice(t.Env.Webhook.Base(), why)
			}
			return reason
		}
	}
	return fmt.Sprintf("the run could not show that the agent reaches the harness's receiver at %s (%s: %s); give --webhook-url with a base URL the agent reaches",
		t.Env.Webhook.Base(), state, reason)
}

// NoNetworkBetween says why no network stands between the agent and the
// harness's receiver, so that silence at the receiver is the agent's own
// choice, not a network fault: the receiver is on loopback, and the
// harness started the agent on this machine (the embedded or process
// driver) or the target itself is on loopback. "" when it cannot say.
func (e *Env) NoNetworkBetween() string {
	if e == nil || e.Webhook == nil || !listensAt(e.Webhook.Base(), e.Webhook.Addr()) {
		return ""
	}
	if e.Topology != nil {
		switch e.Topology.Driver() {
		case "embedded":
			return "the agent runs inside the harness, and the harness's receiver listens on loopback"
		case "process":
			return "the harness started the agent on this machine (--agent-cmd), and its receiver listens on loopback " +
				"(unless the command runs the agent in a network namespace of its own, such as a container without host networking)"
		}
	}
	if loopbackURL(e.BaseURL) {
		return "the target and the harness's receiver are both on loopback"
	}
	return ""
}

// listensAt reports whether base, a receiver's base URL, is a loopback URL
// that reaches the receiver's own listener at addr directly (not one given
// with --webhook-url that leads elsewhere).
func listensAt(base, addr string) bool {
	if !loopbackURL(base) {
		return false
	}
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	lhost, lport, err := net.SplitHostPort(addr)
	if err != nil || u.Port() != lport {
		return false
	}
	ip := net.ParseIP(lhost)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// GuardAdvice is what a run says of an agent that acknowledged a webhook
// on loopback and never connected to it, though no network stands between
// them (why): the agent chose not to deliver, as an SSRF guard does (A2A
// v1.0.1 §13.2 asks agents to validate webhook URLs). It names the URL to
// allow and the switches known in the SDKs (docs/vendor-guide.md).
func GuardAdvice(base, why string) string {
	return fmt.Sprintf("%s, so no network stands between them: the agent acknowledged the webhook and chose not to deliver to it, "+
		"as an SSRF guard on loopback and private addresses does (A2A v1.0.1 §13.2). For this run, allow the webhook URL prefix %s/hook/ "+
		"in the agent's webhook policy (a2a-go v2.4.0 and later: push.HTTPSenderConfig.AllowPrivateNetworks; others: docs/vendor-guide.md, "+
		"\"Webhooks behind an SSRF guard\"), or give --webhook-url with a base URL the guard allows. "+
		"An agent that refuses such a URL when the config is created, rather than acknowledging it, says so to its client", why, base)
}

// loopbackURL reports whether u's host is a loopback address or localhost.
func loopbackURL(u string) bool {
	p, err := url.Parse(u)
	if err != nil {
		return false
	}
	h := p.Hostname()
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// PushFlush shows whether the agent delivers a push now: a fresh task that
// completes (the least behaviour), with a fresh config given inline, and
// its terminal state awaited for the patience. A push that it gets while an
// earlier event is still missing elsewhere is a later event delivered while
// the earlier one was not: loss, not lateness (STYLE.md "Late is not
// lost"). It returns the proof ("" when the flush showed nothing) and never
// ends the spec.
func (t *T) PushFlush(ctx context.Context, c *client.Client) string {
	if t.Env.Behaviour == nil || t.Env.Webhook == nil {
		return ""
	}
	s := Script{Outcome: directive.OutcomeCompleted, Least: PromptComplete}
	msg, err := t.Env.Behaviour.Message(s)
	if err != nil {
		return ""
	}
	f := t.NewPushHook("Bearer")
	created := time.Now()
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg, Configuration: &a2a.SendMessageConfiguration{
		ReturnImmediately: true, TaskPushNotificationConfig: f.For(""),
	}})
	if err != nil || resp == nil || resp.Task == nil {
		return ""
	}
	f.Accepted(resp.Task.ID, nil)
	w := t.AwaitPush(ctx, f, resp.Task.ID, func(s a2a.TaskState) bool { return s.Terminal() }, created)
	if !w.Came {
		t.Observe("push.flush", fmt.Sprintf("task %s, created to see whether the agent delivers now: its terminal state was not pushed to its own config either within %s", resp.Task.ID, w.Waited.Round(time.Millisecond)))
		return ""
	}
	proof := fmt.Sprintf("a later task (%s, created after that, with a config of its own) had its terminal state pushed %s after its creation",
		resp.Task.ID, w.Latency.Round(time.Millisecond))
	t.Observe("push.flush", proof)
	return proof
}

// PushOwed decides a push that did not come within its wait (AwaitPush).
// When the agent is shown to deliver (the run's probe, or this config), a
// flush task (PushFlush, through c) tells lost from late: a later task's
// push that arrives while this one is still missing proves it lost; the
// push may also come meanwhile, and then it was only late (its latency is
// recorded and PushOwed returns true). Otherwise PushMissing judges:
// indeterminate when the agent reaches the receiver, could-not-run when the
// run cannot show that it does.
func (t *T) PushOwed(ctx context.Context, c *client.Client, h *PushHook, taskID, what string, w PushWait, ok func(a2a.TaskState) bool, since time.Time) bool {
	GinkgoHelper()
	proof := ""
	if t.ReachUnshown(h) == "" {
		proof = t.PushFlush(ctx, c)
	}
	if proof != "" {
		// The later push came: the earlier one gets one more grace, so
		// that it is missing while the later one is not, not merely
		// overtaken by it.
		for end := time.Now().Add(PushGrace); time.Now().Before(end) && ctx.Err() == nil; {
			if _, came := h.PushedAt(t, taskID, ok); came {
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(Poll):
			}
		}
	}
	if at, came := h.PushedAt(t, taskID, ok); came {
		t.Observe("push.late", fmt.Sprintf("%s came %s after the event, after the wait of %s: late, not lost", what, at.Sub(since).Round(time.Millisecond), w.Waited.Round(time.Millisecond)))
		return true
	}
	if proof != "" {
		proof = fmt.Sprintf("after the wait ran out, %s, and this push still had not come %s after that", proof, PushGrace)
	}
	waited := w.Waited
	if !since.IsZero() {
		waited = time.Since(since)
	}
	t.PushMissing(h, taskID, what, waited, proof)
	return false
}

// PushMissing decides a push that did not come within a wait (AwaitPush):
// what names the event, waited how long the wait lasted, and lost the proof
// that the push is lost, not late ("" when there is none). Late is not lost
// (STYLE.md): without a proof the spec is indeterminate, the time waited
// and the agent's measured latency in its reason. With a proof, or when the
// harness vouches for the path and the agent has delivered nothing to any
// config of the run (the probe's included, registered before the specs), it
// is a violation, recorded without ending the spec. When the run cannot show
// that the agent reaches the receiver at all, the spec could not run.
func (t *T) PushMissing(h *PushHook, taskID, what string, waited time.Duration, lost string) {
	GinkgoHelper()
	where := fmt.Sprintf("push config %s of task %s", orNone(h.Config.ID), taskID)
	expected := what + " pushed to " + h.Config.URL
	seen := DescribeDeliveries(h.Deliveries(t))
	if lost != "" {
		t.Record(invariants.Violation{Invariant: "push-delivered", Where: where, Expected: expected,
			Actual: fmt.Sprintf("never pushed: not within %s (%s); %s", waited.Round(time.Millisecond), seen, lost)})
		return
	}
	r := t.Reach()
	state, reason := r.State()
	delivered, latency := r.Delivered()
	switch {
	case len(h.Deliveries(t)) > 0 || delivered || (state == ReachProven && r.Vouched() && r.Since() == 0):
		// The agent reaches the receiver: the push may only be late.
		shown := "this config got other POSTs"
		if delivered {
			shown = fmt.Sprintf("the run's probe config got its first push %s after it was registered", latency.Round(time.Millisecond))
		}
		t.Indeterminate("%s was not pushed to config %s of task %s within %s (%s), though the agent reaches the receiver (%s). Late is not lost: no later event was seen delivered while this one was missing, so the push may still come; raise --patience for an agent whose pushes take longer.",
			what, orNone(h.Config.ID), taskID, waited.Round(time.Millisecond), seen, shown)
	case state == ReachRefused:
		// The reason names what to change (the URL to allow, the agent's
		// switch); the spec's own Enable text would ask for what the run
		// already did (a card with push, the directive).
		t.CouldNotRunAsSaid("%s", reason)
	case t.VouchedSilence() != "":
		t.Record(invariants.Violation{Invariant: "push-delivered", Where: where, Expected: expected,
			Actual: fmt.Sprintf("never pushed: not within %s (%s); %s", waited.Round(time.Millisecond), seen, t.VouchedSilence())})
	default:
		t.CouldNotRunAsSaid("the agent accepted push config %s for task %s (url %s) but nothing arrived for it in %s, and %s. (Give --webhook-listen for the address to listen on.)",
			orNone(h.Config.ID), taskID, h.Config.URL, waited.Round(time.Millisecond), t.ReachUnshown(h))
	}
}

// Busy reports a refusal that says "not now" rather than "no": 503 (or 502,
// 504 from a proxy, 429), gRPC or HTTP+JSON UNAVAILABLE, or no answer at all.
// Scenario 2's advice to an instance that cannot yet confirm a registration
// is exactly this ("return 503 with Retry-After; do not accept and drop"), so
// a client, and the harness, retries it. A spec's client has already
// retried 429 and 503 within the patience (busy.go): a call it gave up on
// (client.Refused) keeps its status, and is Busy too.
func Busy(err error) bool {
	ce, ok := client.AsError(err)
	if !ok || ce == nil {
		return false
	}
	switch ce.HTTPStatus {
	case 429, 502, 503, 504:
		return true
	}
	return ce.Class == client.Transport || ce.Status == "UNAVAILABLE"
}

// busyPause is the pause between two tries of a call the agent answered
// Busy.
const busyPause = 250 * time.Millisecond

// CreatePushConfig creates cfg through c as a client should: a Busy refusal
// is retried until the patience runs out, and only the last answer is
// returned. The number of busy refusals is recorded in the observation
// push-config.busy.
func (t *T) CreatePushConfig(ctx context.Context, c *client.Client, cfg *a2a.TaskPushNotificationConfig) (*a2a.TaskPushNotificationConfig, error) {
	until := time.Now().Add(t.Patience())
	refusals := 0
	for {
		got, err := c.CreateTaskPushNotificationConfig(ctx, cfg)
		if err == nil || !Busy(err) || time.Now().After(until) || ctx.Err() != nil {
			if refusals > 0 {
				t.Observe("push-config.busy", fmt.Sprintf("%d busy refusal(s) retried before the last answer (%s)", refusals, answerText(err)))
			}
			return got, err
		}
		refusals++
		select {
		case <-ctx.Done():
		case <-time.After(busyPause):
		}
	}
}

func answerText(err error) string {
	if err == nil {
		return "created"
	}
	return ErrText(err)
}

// VouchedSilence is the proof of loss that needs no later push, in every
// suite: on a path the harness configured itself (the embedded agent, no
// --webhook-url), the agent has not delivered even to the probe's config,
// registered before the specs. It rests on the run-level fact alone, never
// on what other specs' configs got, so no spec's verdict hangs on the order
// specs ran in. "" when that is not so.
func (t *T) VouchedSilence() string {
	r := t.Reach()
	if delivered, _ := r.Delivered(); delivered || !r.Vouched() || r.Since() <= 0 {
		return ""
	}
	return fmt.Sprintf("on a path the harness configured itself, the agent has not delivered to the run's probe config either, registered before the specs %s ago: lost, not late", r.Since().Round(time.Second))
}

package suites

import (
	"context"
	"errors"
	"fmt"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
)

// Supported reports whether the harness speaks a binding: JSONRPC,
// HTTP+JSON and GRPC.
func Supported(binding string) bool { return client.Speaks(binding) }

// Card returns the card the run fetched, or ends the spec as could-not-run
// when there is none to work from (DISC-001/002 say why).
func (t *T) Card() *a2a.AgentCard {
	GinkgoHelper()
	if t.Env == nil || t.Env.Card == nil {
		t.CouldNotRun("the agent has no usable card (see DISC-001 and DISC-002), so there is no interface to call.")
	}
	return t.Env.Card
}

// ClientFor builds a recorded client for one interface, with the run's
// headers, subscribe verb and the behaviour's extensions.
func (t *T) ClientFor(iface a2a.AgentInterface, extra ...client.Option) *client.Client {
	GinkgoHelper()
	return t.clientAs(t.Env.Headers, iface, extra...)
}

// ClientAtInstance is ClientFor for an interface on one instance's own
// address, called there and not moved to the balancer as ClientFor moves
// an instance's address (throughBalancer): for a spec that must reach that
// very instance, such as one draining after the balancer has let it go.
func (t *T) ClientAtInstance(iface a2a.AgentInterface, extra ...client.Option) *client.Client {
	GinkgoHelper()
	return t.newClient(t.Env.Headers, iface, extra...)
}

// Transport are the options every client of the run needs to reach the
// agent: the recorded HTTP client, the gRPC call recorder and schema, the
// trusted roots and the TLS log, the retry of "not now" answers within the
// spec's patience and the run's pace (busy.go). Credentials are not among
// them.
func (t *T) Transport() []client.Option {
	opts := []client.Option{client.WithHTTPClient(t.Env.HTTP)}
	if t.Env.RecordCall != nil {
		opts = append(opts, client.WithCallRecorder(t.Env.RecordCall))
	}
	if t.Env.GRPCSchema != nil {
		opts = append(opts, client.WithGRPCSchema(t.Env.GRPCSchema))
	}
	if t.Env.TLSConfig != nil {
		opts = append(opts, client.WithTLSConfig(t.Env.TLSConfig))
	}
	if t.Env.TLS != nil {
		opts = append(opts, client.WithTLSObserver(t.Env.TLS.Note))
	}
	return append(opts, t.busyOptions()...)
}

// clientAs builds ClientFor's client with the given header set (an
// identity's credentials).
func (t *T) clientAs(headers http.Header, iface a2a.AgentInterface, extra ...client.Option) *client.Client {
	GinkgoHelper()
	return t.newClient(headers, throughBalancer(t.Env.Topology, iface), extra...)
}

// newClient builds a recorded client for iface as given.
func (t *T) newClient(headers http.Header, iface a2a.AgentInterface, extra ...client.Option) *client.Client {
	GinkgoHelper()
	opts := t.Transport()
	for name, values := range headers {
		for _, v := range values {
			opts = append(opts, client.WithHeader(name, v))
		}
	}
	if t.Env.Options.SubscribeVerb != "" {
		opts = append(opts, client.WithSubscribeVerb(t.Env.Options.SubscribeVerb))
	}
	if t.Env.Behaviour != nil {
		if ext := t.Env.Behaviour.Extensions(); len(ext) > 0 {
			opts = append(opts, client.WithExtensions(ext...))
		}
	}
	c, err := client.New(iface, append(opts, extra...)...)
	if err != nil {
		t.CouldNotRun("cannot build a client for interface %s %s: %v.", iface.ProtocolBinding, iface.URL, err)
	}
	if c.Plaintext() {
		t.Observe("grpc-transport", "plaintext h2c to "+iface.URL+" (loopback only; spec §10.1 wants TLS outside testing)")
	}
	return c
}

// throughBalancer points an interface that names one instance's own address
// at the harness's balancer (InstanceOrigins), keeping its path. The
// balancer's policy then picks the instance (sticky: one for every unpinned
// call); the recorded exchanges name it. Any other interface is unchanged.
func throughBalancer(topo Topology, iface a2a.AgentInterface) a2a.AgentInterface {
	fronted, ok := topo.(InstanceOrigins)
	if !ok {
		return iface
	}
	u, err := url.Parse(iface.URL)
	if err != nil || !fronted.IsInstanceOrigin(u.Scheme+"://"+u.Host) {
		return iface
	}
	lb, err := url.Parse(fronted.BalancerURL())
	if err != nil || lb.Host == "" {
		return iface
	}
	u.Scheme, u.Host = lb.Scheme, lb.Host
	iface.URL = u.String()
	return iface
}

// Client is the client for the first declared interface the harness speaks
// (the card's order is its preference, §8.3.2).
func (t *T) Client(extra ...client.Option) *client.Client {
	GinkgoHelper()
	cs := t.Clients(extra...)
	return cs[0]
}

// Clients returns one client per declared binding the harness speaks, first
// interface of each binding, in card order. Specs that must hold on every
// binding loop over them.
func (t *T) Clients(extra ...client.Option) []*client.Client {
	GinkgoHelper()
	return t.clientsAs(t.Env.Headers, extra...)
}

// SecondClients are Clients for the run's second identity
// (Env.SecondHeaders), in the same order; the spec must have checked that
// there is one.
func (t *T) SecondClients(extra ...client.Option) []*client.Client {
	GinkgoHelper()
	if t.Env.SecondHeaders == nil {
		t.CouldNotRun("the run has no second identity (config key second-header).")
	}
	return t.clientsAs(t.Env.SecondHeaders, extra...)
}

func (t *T) clientsAs(headers http.Header, extra ...client.Option) []*client.Client {
	GinkgoHelper()
	card := t.Card()
	var out []*client.Client
	seen := map[string]bool{}
	var other []string
	for _, i := range card.SupportedInterfaces {
		if !Supported(i.ProtocolBinding) {
			other = append(other, i.ProtocolBinding)
			continue
		}
		if seen[i.ProtocolBinding] {
			continue
		}
		seen[i.ProtocolBinding] = true
		out = append(out, t.clientAs(headers, i, extra...))
	}
	if len(out) == 0 {
		t.CouldNotRun("the card declares no interface the harness speaks (declared: %s); the harness speaks %s.", strings.Join(other, ", "), strings.Join(client.Bindings, ", "))
	}
	return out
}

// Scripted returns the user message that makes the agent show behaviour s, or
// ends the spec as could-not-run naming how to enable it.
func (t *T) Scripted(s Script) a2a.Message {
	GinkgoHelper()
	if t.Env.Behaviour == nil {
		t.CouldNotRun("the agent offers no scripted behaviour: its card does not advertise the directive extension and the config has no prompt map.")
	}
	m, err := t.Env.Behaviour.Message(t.Stretched(s))
	if err != nil {
		t.CouldNotRun("%v.", err)
	}
	t.Observe("behaviour", t.Env.Behaviour.Kind())
	if t.Env.Behaviour.Kind() != "directive" {
		t.usedKey(KeyOf(t.Env.Behaviour, s))
	}
	return m
}

// usedKey records a prompt-map key the spec used; the observation
// "prompt-keys" lists them all.
func (t *T) usedKey(key string) {
	t.mu.Lock()
	if !slices.Contains(t.keys, key) {
		t.keys = append(t.keys, key)
		slices.Sort(t.keys)
	}
	keys := strings.Join(t.keys, ", ")
	t.mu.Unlock()
	t.Observe("prompt-keys", keys)
}

// WebhookToken returns a fresh token of the run's push receiver, claimed
// for this spec so that its deliveries join the spec's transcript.
func (t *T) WebhookToken() string {
	token := webhook.NewToken()
	if t.Env.Webhook != nil {
		t.Env.Webhook.Claim(token, t.Info.ID)
		t.watchToken(token)
	}
	return token
}

// History returns the spec's observation history, created on first use.
func (t *T) History() *invariants.History {
	t.mu.Lock()
	h, fresh := t.history, t.history == nil
	if fresh {
		h = invariants.NewHistory()
		t.history = h
	}
	t.mu.Unlock()
	if fresh && t.Info.Suite != Client {
		// What it sees terminal is watched until the run's end (watch.go).
		t.watching()
	}
	return h
}

// ref names the exchange an observation came from by the run-wide number
// the transcript shows (#seq), so that a violation and the exchange it cites
// carry one numbering; "(not recorded)" when the call made no exchange the
// recorder saw.
func ref(op string, seq int64) string {
	if seq <= 0 {
		return op + " (not recorded)"
	}
	return fmt.Sprintf("%s #%d", op, seq)
}

// Recorded returns ctx asking the recorder for the sequence number of the
// exchange a call with it becomes, for ObserveTaskAt.
func Recorded(ctx context.Context) (context.Context, *atomic.Int64) { return recorded(ctx) }

// recorded returns ctx asking the recorder for the sequence number of the
// exchange a call with it becomes.
func recorded(ctx context.Context) (context.Context, *atomic.Int64) {
	seq := new(atomic.Int64)
	return recorder.WithSeqSink(ctx, seq), seq
}

// ObserveTask records a task seen in an answer to a request issued at issued.
// Prefer ObserveTaskAt, which cites the exchange.
func (t *T) ObserveTask(src invariants.Source, task *a2a.Task, issued time.Duration, binding string) {
	t.ObserveTaskAt(src, task, issued, binding, 0)
}

// ObserveTaskAt records a task seen in the answer of transcript exchange
// seq (0 when unknown), issued at issued.
func (t *T) ObserveTaskAt(src invariants.Source, task *a2a.Task, issued time.Duration, binding string, seq int64) {
	if task == nil {
		return
	}
	h := t.History()
	o := invariants.Observation{TaskID: task.ID, State: task.Status.State, Source: src,
		Issued: issued, Received: h.Now(), Ref: ref(string(src), seq) + " (" + binding + ")", Stamp: task.Status.Timestamp}
	// ListTasks leaves artifacts out unless asked (includeArtifacts): its
	// tasks say nothing of them.
	if src != invariants.FromList {
		o.Snapshot, o.Artifacts = true, invariants.ArtifactsOf(task.Artifacts)
	}
	h.Add(o)
}

// Send sends a message and records the task it returns.
func (t *T) Send(ctx context.Context, c *client.Client, req *a2a.SendMessageRequest) (*a2a.SendMessageResponse, error) {
	issued := t.History().Now()
	ctx, seq := recorded(ctx)
	resp, err := c.SendMessage(ctx, req)
	if err == nil && resp != nil {
		t.ObserveTaskAt(invariants.FromSend, resp.Task, issued, c.Binding(), seq.Load())
		if resp.Task != nil {
			t.touch(resp.Task.ID, c)
		}
	}
	return resp, err
}

// NoTask ends the spec when a send meant to create a task did not: a
// transport failure says nothing about the protocol (indeterminate), an A2A
// error answering a scripted message is a violation, and a Message reply
// means the agent did not show the behaviour asked of it (indeterminate,
// never fail: STYLE.md "Ask for the least"). It returns when resp holds a
// task.
func (t *T) NoTask(c *client.Client, s Script, resp *a2a.SendMessageResponse, err error) {
	GinkgoHelper()
	where := "SendMessage (" + c.Binding() + ")"
	if err != nil {
		if ce, ok := client.AsError(err); ok && ce.Class == client.Transport {
			t.Indeterminate("could not reach the agent to create the spec's task: %s at %s", ErrText(err), where)
		}
		t.Violated(invariants.Violation{Invariant: "send", Where: where,
			Expected: "a Task for the scripted message", Actual: ErrText(err)})
	}
	if resp == nil || resp.Task == nil {
		t.Indeterminate("the agent did not show the behaviour asked of it: %s asked for a task that ends %s, and the agent answered with a Message at %s",
			t.servedBy(s), s.Settles(), where)
	}
}

// Get reads a task and records what it showed.
func (t *T) Get(ctx context.Context, c *client.Client, id string) (*a2a.Task, error) {
	return t.GetTask(ctx, c, &a2a.GetTaskRequest{ID: id})
}

// GetTask is Get with the request's other members (historyLength).
func (t *T) GetTask(ctx context.Context, c *client.Client, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	id := req.ID
	issued := t.History().Now()
	ctx, seq := recorded(ctx)
	task, err := c.GetTask(ctx, req)
	if err == nil {
		t.ObserveTaskAt(invariants.FromGet, task, issued, c.Binding(), seq.Load())
		t.touch(id, c)
	}
	return task, err
}

// Cancel cancels a task and records the task the answer carried.
func (t *T) Cancel(ctx context.Context, c *client.Client, id string) (*a2a.Task, error) {
	issued := t.History().Now()
	ctx, seq := recorded(ctx)
	task, err := c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: id})
	if err == nil {
		t.ObserveTaskAt(invariants.FromCancel, task, issued, c.Binding(), seq.Load())
		t.touch(id, c)
	}
	return task, err
}

// Poll is the least interval between GetTask polls while waiting for a
// state (and the interval of the harness's polls of its own receivers).
const Poll = 20 * time.Millisecond

// maxAwaitPoll bounds the interval between Await's polls.
const maxAwaitPoll = 250 * time.Millisecond

// AwaitPoll is the pause before Await's next GetTask, a tenth of the time
// waited so far, between Poll and maxAwaitPoll: a task that ends in
// milliseconds is seen within Poll, one that takes seconds within a tenth of
// its time, and a slow agent is asked a dozen times for a task of a few
// seconds, not a hundred and fifty (the least behaviour a poll asks of it,
// and of a rate-limited one). A spec that polls a task by a rule of its own
// (reading every answer, as the rollout specs' fate of a task after a roll
// does) keeps this pace too.
func AwaitPoll(waited time.Duration) time.Duration {
	return min(max(waited/10, Poll), maxAwaitPoll)
}

// WaitFor polls GetTask until the task's state satisfies ok or patience
// (T.Patience) runs out. Running out of patience is not a violation the spec
// text names, so the spec ends indeterminate, saying how long it waited, for
// what, and what the task still showed.
func (t *T) WaitFor(ctx context.Context, c *client.Client, id string, what string, ok func(a2a.TaskState) bool) *a2a.Task {
	GinkgoHelper()
	return t.waitFor(ctx, c, id, what, ok, t.Patience())
}

func (t *T) waitFor(ctx context.Context, c *client.Client, id string, what string, ok func(a2a.TaskState) bool, patience time.Duration) *a2a.Task {
	GinkgoHelper()
	start := time.Now()
	last, lastErr, matched := t.Await(ctx, c, id, ok, patience)
	if matched {
		return last
	}
	still := "no answer"
	if last != nil {
		still = "still " + string(last.Status.State)
	}
	if lastErr != nil {
		still += " (last error: " + lastErr.Error() + ")"
	}
	t.Indeterminate("timed out after %s waiting for task %s to be %s, %s (patience %s: raise --patience for a slower agent)",
		time.Since(start).Round(time.Millisecond), id, what, still, patience.Round(time.Millisecond))
	return nil
}

// Await polls task id until ok holds for its state, for at most patience,
// and never ends the spec, so a spec's own goroutines may call it (WaitFor
// is Await that ends the spec indeterminate on a timeout). It returns the
// last task seen (nil if none), the last error when the last read failed,
// and whether ok held. A terminal state it sees counts towards the run's
// measure of the agent's pace.
func (t *T) Await(ctx context.Context, c *client.Client, id string, ok func(a2a.TaskState) bool, patience time.Duration) (last *a2a.Task, lastErr error, matched bool) {
	start := time.Now()
	for {
		task, err := t.Get(ctx, c, id)
		if err == nil {
			last, lastErr = task, nil
			if task.Status.State.Terminal() {
				t.sawEnd(id)
			}
			if ok(task.Status.State) {
				return task, nil, true
			}
		} else {
			lastErr = err
		}
		if time.Since(start) > patience || ctx.Err() != nil {
			return last, lastErr, false
		}
		select {
		case <-ctx.Done():
		case <-time.After(AwaitPoll(time.Since(start))):
		}
	}
}

// Terminal and TerminalOrInterrupted are WaitFor predicates.
func Terminal(s a2a.TaskState) bool              { return s.Terminal() }
func TerminalOrInterrupted(s a2a.TaskState) bool { return s.Terminal() || s.Interrupted() }

// Event is one stream event as a spec sees it.
type Event struct {
	At   time.Duration
	Resp a2a.StreamResponse
	Err  error
}

// Drain reads a stream to its end (io.EOF), recording every event under the
// channel name, until the context ends. closed says whether the agent closed
// the stream (as opposed to the context ending first).
func (t *T) Drain(ctx context.Context, s *client.Stream, channel string) (events []Event, closed bool) {
	h := t.History()
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-done:
		}
	}()
	defer close(done)
	for i := 1; ; i++ {
		resp, err := s.Next()
		if errors.Is(err, io.EOF) {
			return events, true
		}
		at := h.Now()
		if err != nil {
			if ctx.Err() != nil {
				return events, false
			}
			if ce, ok := client.AsError(err); ok && ce.Class == client.Transport {
				return append(events, Event{At: at, Err: err}), false
			}
			events = append(events, Event{At: at, Err: err})
			continue
		}
		events = append(events, Event{At: at, Resp: resp})
		if state, ok := resp.State(); ok {
			h.Add(invariants.Observation{TaskID: resp.TaskID(), State: state, Source: invariants.FromStream,
				Issued: at, Received: at, Channel: channel, Ref: fmt.Sprintf("%s event %d", channel, i)})
		}
	}
}

// Settle is how long Consistently-style checks watch a value that must not change.
func (t *T) Settle() time.Duration {
	if d := t.Env.Options.Settle; d > 0 {
		return d
	}
	return 300 * time.Millisecond
}

// Ctx bounds a sub-step of a spec.
func Ctx(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, d)
}

// ErrFields names what identifies an agent's error on the wire before any
// binding-specific detail: its class, A2A error kind, JSON-RPC code and HTTP
// status, each when present.
func ErrFields(ce *client.Error) string {
	s := string(ce.Class)
	if ce.Kind != "" {
		s += " " + string(ce.Kind)
	}
	if ce.Code != 0 {
		s += fmt.Sprintf(" code %d", ce.Code)
	}
	if ce.HTTPStatus != 0 {
		s += fmt.Sprintf(" HTTP %d", ce.HTTPStatus)
	}
	return s
}

// ErrText names an error the way a report reader needs it: the class, the
// A2A error kind, the JSON-RPC code, the HTTP status and the start of the
// agent's message (cut on a rune boundary). nil is "success", for the
// "expected an error, got …" case.
func ErrText(err error) string {
	if err == nil {
		return "success"
	}
	ce, ok := client.AsError(err)
	if !ok {
		return err.Error()
	}
	s := ErrFields(ce)
	if ce.Binding == a2a.BindingGRPC && ce.Status != "" {
		s += " gRPC " + ce.Status
	}
	if ce.Message != "" {
		s += ": " + Cut(ce.Message, 160)
	}
	return s
}

// Cut shortens agent-supplied text to at most n bytes on a rune boundary,
// marking the cut, so that reports stay bounded and valid UTF-8.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// FirstEvent reads the first event of s, waiting until ctx ends: silent
// says none came by then (s is closed, which ends the read). A stream that
// ended before any event gives io.EOF.
func FirstEvent(ctx context.Context, s *client.Stream) (ev a2a.StreamResponse, silent bool, err error) {
	type first struct {
		ev  a2a.StreamResponse
		err error
	}
	got := make(chan first, 1)
	go func() {
		ev, err := s.Next()
		got <- first{ev, err}
	}()
	select {
	case f := <-got:
		return f.ev, false, f.err
	case <-ctx.Done():
		s.Close()
		<-got
		return a2a.StreamResponse{}, true, nil
	}
}

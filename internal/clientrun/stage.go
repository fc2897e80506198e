package clientrun

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
)

// Interface is one entry the scripted agent's card declares, in order.
type Interface struct {
	// Binding is a2a.BindingJSONRPC, a2a.BindingHTTPJSON, a2a.BindingGRPC or
	// any other string (a custom binding URI, §5.8). JSON-RPC and HTTP+JSON
	// are served by the reference agent; any other binding is declared at a
	// URL of the stage that answers 404 to everything (a binding a client
	// must not pick when it does not speak it).
	Binding string
	// Tenant is declared on the interface; requests through it may carry it
	// (JSON-RPC params.tenant, HTTP+JSON /{tenant}/… path prefix or body).
	Tenant string
	// Dead declares the interface at a loopback port nothing listens on: a
	// connection to it is refused (a client should fall back, §5.2).
	Dead bool
	// Version is the protocolVersion the interface declares ("": the
	// harness's, 1.0). An interface of another major version answers every
	// request with VersionNotSupportedError, as an interface that does not
	// support the requested version must (§3.6.2): the stage serves 1.0 only.
	Version string
}

// Script is what the scripted agent does in one case. The zero value is the
// plain reference agent, whose task (for the case's text) completes after
// DefaultBehaviour's delay.
type Script struct {
	// Faults are fakes fault names to switch on (e.g. "cancel-then-complete").
	Faults []string
	// Behaviour is what the case's text (A2A_CONFORM_TEXT) makes the agent do
	// (DefaultBehaviour when zero).
	Behaviour directive.Directive
	// FollowUp is what the follow-up text makes it do (completes at once
	// when zero).
	FollowUp directive.Directive
	// Interfaces replaces the card's supportedInterfaces (nil: JSON-RPC then
	// HTTP+JSON, as the reference agent declares them).
	Interfaces []Interface
	// UnknownFields adds a member no version of A2A defines to every object
	// of every response body and stream event (the JSON-RPC envelope and
	// error objects excepted), and to the card (§5.7: SHOULD be ignored).
	UnknownFields bool
	// UnknownEvent adds, after the first event of every SSE answer, an event
	// whose StreamResponse holds only a member no version of A2A defines (a
	// kind of event added after v1.0; §5.7: SHOULD be ignored).
	UnknownEvent bool
	// StreamError answers every SendStreamingMessage with a plain, non-SSE
	// error response (JSON-RPC: HTTP 200 with a JSON-RPC error object;
	// HTTP+JSON: HTTP 400 with a google.rpc.Status body).
	StreamError bool
	// CutStreamAfter aborts every SSE response's connection after this many
	// events (0: never), as a proxy that drops the connection mid-task does.
	CutStreamAfter int
	// CloseStreamAfter ends every SSE response cleanly after this many
	// events (0: never): the body is finished as a complete response, no
	// connection error, while the task goes on, as an agent or proxy that
	// ends streams early does.
	CloseStreamAfter int
	// ErrorEventAfter sends, after this many events of every SSE answer (0:
	// never), one error event in the binding's framing and then ends the
	// response cleanly, as an agent whose stream fails mid-task does:
	// JSON-RPC, an error response with the request's id; HTTP+JSON,
	// {"error": google.rpc.Status}. ErrorEventTyped also names the event
	// "error" (an event: error line), the other framing seen in practice.
	ErrorEventAfter int
	ErrorEventTyped bool
	// CardMaxAge is the card's Cache-Control max-age (0: the reference
	// agent's 30 s; negative: max-age=0).
	CardMaxAge time.Duration
	// Options adjusts the reference agent's options (applied to every
	// instance the stage starts, before Faults and the prompt map are set).
	Options func(*fakes.Options)
	// Answer, when set and returning non-nil for a request, is sent in place
	// of the reference agent's answer (the unknown-field and cut-stream
	// rewrites still apply): a hand-made payload such as the ACTS
	// CLIENT-PARSE-* ones, for the operation and point of the flow the case
	// needs.
	Answer func(s *Stage, r Request) *Answer
	// Hook is called before each request is served (After false) and after
	// it was answered (After true): rotate the card, switch to a stale copy,
	// lose the tasks, at the point of the flow the case needs.
	Hook func(s *Stage, e HookEvent)
	// AlterSignedCard serves the card changed after it was signed (a
	// sentence added to its description), as an edge that rewrites cards
	// does: its signature no longer verifies. Without it the stage signs
	// the card it serves (the reference agent's key, key set at
	// fakes.JWKSPath on the stage), so that a verifying client can use it.
	AlterSignedCard bool
	// InjectAfterSigning serves the card with a member no A2A version
	// defines added at its top level after it was signed, as an edge that
	// injects fields does: a verifier that checks only the members it knows
	// accepts it, one that checks what it received does not.
	InjectAfterSigning bool
	// AlteredExtendedCard answers GetExtendedAgentCard (without asking for
	// credentials) with an extended card that differs from the public one
	// where a client would notice it used it: it claims streaming, and its
	// interfaces are the public ones under ExtendedPrefix (served alike,
	// their requests marked Request.Extended). It is signed with a key set
	// of its own (ExtendedKeySetPath, the same key; OpExtendedKeySet), then
	// altered (a sentence added to its description), so its signature
	// does not verify.
	AlteredExtendedCard bool
	// Front, when set, wraps the reference agent for every operation
	// request the stage forwards (the card and unserved paths excepted):
	// a case's own server behaviour that the options above do not give,
	// such as answering with a canned payload (the ACTS CLIENT-PARSE-*
	// cases) or ending a stream after a given state. It sees the request
	// with the stage's interface prefix removed, as the agent does.
	Front func(agent http.Handler) http.Handler
}

// Answer is a hand-made answer (Script.Answer). With Events it is an SSE
// stream (Content-Type text/event-stream, one data: line per event, each
// flushed); otherwise Body is sent as is (Content-Type default
// application/json).
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
	Events [][]byte
	// EventGap is waited between events (0: none).
	EventGap time.Duration
}

// DefaultBehaviour is the task the case text triggers when Script.Behaviour
// is zero: it works for 300 ms, then completes with one artifact.
var DefaultBehaviour = directive.Directive{Version: 1, Outcome: directive.OutcomeCompleted, DelayMs: 300}

// HookEvent is a point in the flow a Script.Hook can act at.
type HookEvent struct {
	After   bool
	Request Request
	// Status is the answer's HTTP status (After only).
	Status int
}

// Request is one request the client sent to the stage, as received.
type Request struct {
	Seq int
	// At is when it arrived, since the stage started.
	At     time.Duration
	Method string
	// Path and Query as received.
	Path  string
	Query string
	// Header is the request's header (unredacted: for judging only; the
	// transcript is redacted by the recorder).
	Header http.Header
	Body   []byte
	// Card is true for a GET of the agent card.
	Card bool
	// Interface is the index of the declared interface the request came
	// through (-1: none, e.g. the card).
	Interface int
	// Binding is the binding of that interface ("" for the card).
	Binding string
	// Op is the A2A operation (SendMessage, GetTask, …) or "card"; "" when
	// not recognised.
	Op string
	// Tenant is the tenant the request carried (body or path prefix); "".
	Tenant string
	// TaskID is the task the request names, when it names one.
	TaskID string
	// RPCID is a JSON-RPC request's id, for a hand-made answer (Answer) to
	// echo; nil on other bindings.
	RPCID json.RawMessage
	// PushURL and PushToken are the push config the request registers
	// (SendMessage's configuration, or CreateTaskPushNotificationConfig).
	PushURL, PushToken string
	// Status is the HTTP status the stage answered (0 until answered).
	Status int
	// CardETag is the ETag of the card served (card requests; "" for 304).
	CardETag string
	// Cut says the stage cut this streamed answer mid-body
	// (Script.CutStreamAfter).
	Cut bool
	// Closed says the stage ended this streamed answer cleanly before the
	// agent did (Script.CloseStreamAfter, Script.ErrorEventAfter).
	Closed bool
	// ErrorEvent says the stage sent an error event in this streamed answer
	// (Script.ErrorEventAfter) before it ended it.
	ErrorEvent bool
	// Moved is the generation whose moved URL the request came through
	// (Rotation.MoveInterfaces); 0 for the URLs declared first.
	Moved int
	// Extended says the request came through an interface only the
	// extended card declares (Script.AlteredExtendedCard).
	Extended bool
}

// ServedRecorder is where the stage records what it served: the run's
// recorder (internal/recorder). Each request is recorded when it arrives and
// each event of a streamed answer when it is sent, so the transcript reads
// as a timeline.
type ServedRecorder interface {
	BeginServed(req *http.Request, reqBody []byte, began time.Time) *recorder.ServedExchange
}

// StageOptions configure one stage.
type StageOptions struct {
	// Text and FollowUpText are the phrases the agent's prompt map answers.
	Text, FollowUpText string
	// Recorder, when set, gets every exchange; Owner is what the exchanges
	// are owned by (the spec ID).
	Recorder ServedRecorder
	Owner    string
}

// Stage is the scripted agent of one case: a loopback listener serving the
// card (rewritten per the script) and the declared interfaces, in front of
// one reference-agent instance.
type Stage struct {
	script Script
	opts   StageOptions
	ln     net.Listener
	srv    *http.Server
	base   string
	start  time.Time
	// dead is the address of the refusing interfaces, held refusing by
	// deadHold until Close (deadAddr).
	dead     string
	deadHold io.Closer

	mu       sync.Mutex
	agent    *fakes.Agent
	retired  []*fakes.Agent
	requests []Request
	stale    bool
	prev     *servedCard
	lastCard *servedCard
	gen      int
	// moved is the generation whose rotation moved the interfaces
	// (Rotation.MoveInterfaces; 0: never): they are declared under /m<N>,
	// and their first URLs keep working.
	moved    int
	rotation []string
}

type servedCard struct {
	body []byte
	etag string
}

// UnknownField is the member the stage adds to every object under
// Script.UnknownFields.
const UnknownField = "a2aConformFutureField"

// StartStage starts the scripted agent on 127.0.0.1.
func StartStage(ctx context.Context, script Script, o StageOptions) (*Stage, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Stage{script: script, opts: o, ln: ln, base: "http://" + ln.Addr().String(), start: time.Now(), gen: 1}
	for _, i := range script.Interfaces {
		if i.Dead {
			if s.dead, s.deadHold, err = deadAddr(); err != nil {
				ln.Close()
				return nil, err
			}
			break
		}
	}
	ag, err := s.newAgent(ctx, 1)
	if err != nil {
		ln.Close()
		return nil, err
	}
	s.agent = ag
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Tweak, when set, adjusts every stage agent's options first (tests: a slow
// reference agent, fakes.Options.StepDelay).
var Tweak func(*fakes.Options)

func (s *Stage) newAgent(ctx context.Context, gen int) (*fakes.Agent, error) {
	o := fakes.Options{Name: fmt.Sprintf("stage-g%d", gen), Generation: gen}
	if Tweak != nil {
		Tweak(&o)
	}
	if s.script.Options != nil {
		s.script.Options(&o)
	}
	o.Faults = append(o.Faults, s.script.Faults...)
	o.PromptMap = true
	b := s.script.Behaviour
	if b.Version == 0 {
		b = DefaultBehaviour
	}
	f := s.script.FollowUp
	if f.Version == 0 {
		f = directive.Directive{Version: 1, Outcome: directive.OutcomeCompleted}
	}
	o.Prompts = map[string]directive.Directive{}
	if s.opts.Text != "" {
		o.Prompts[s.opts.Text] = b
	}
	if s.opts.FollowUpText != "" {
		o.Prompts[s.opts.FollowUpText] = f
	}
	if s.script.CardMaxAge != 0 {
		o.CardMaxAge = s.script.CardMaxAge
	}
	ag, err := fakes.New(o)
	if err != nil {
		return nil, err
	}
	if err := ag.Start(ctx); err != nil {
		return nil, err
	}
	return ag, nil
}

// CardURL is the card's URL.
func (s *Stage) CardURL() string { return s.base + a2a.WellKnownCardPath }

// BaseURL is the stage's origin.
func (s *Stage) BaseURL() string { return s.base }

// Agent is the reference-agent instance now serving.
func (s *Stage) Agent() *fakes.Agent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agent
}

// StageTask is a task the stage's agent holds, with the URLs of the push
// configs registered for it (inline or separately).
type StageTask struct {
	ID       string
	State    a2a.TaskState
	Created  time.Time
	PushURLs []string
}

// Tasks lists the tasks the stage's current agent holds, in the order they
// were created, with
// their push configs: what the client created, in the agent's own record.
func (s *Stage) Tasks(ctx context.Context) ([]StageTask, error) {
	st := s.Agent().Store()
	tasks, _, err := st.ListTasks(ctx, store.ListQuery{OldestFirst: true, Limit: 100})
	if err != nil {
		return nil, err
	}
	out := make([]StageTask, 0, len(tasks))
	for _, t := range tasks {
		rec := StageTask{ID: t.Task.ID, State: t.Task.Status.State, Created: t.CreatedAt}
		cfgs, err := st.ListConfigs(ctx, t.Task.ID)
		if err != nil {
			return nil, err
		}
		for _, c := range cfgs {
			rec.PushURLs = append(rec.PushURLs, c.URL)
		}
		out = append(out, rec)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, nil
}

// Requests returns every request received so far, in order.
func (s *Stage) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Rotation is one card rotation of the stage.
type Rotation struct {
	// Version is the card's new version (default: the reference agent's
	// 1.<generation>.0).
	Version string
	// LoseTasks replaces the agent by a new instance over an empty store: a
	// restart that loses every task (GetTask, follow-ups and cancels of the
	// old tasks get TaskNotFoundError).
	LoseTasks bool
	// AuthScheme is the HTTP authentication scheme the new card advertises
	// (fakes.Rotation.AuthScheme; "" keeps the current one).
	AuthScheme string
	// MoveInterfaces declares every interface at a new URL (under /m<N>,
	// N the new generation) from now on; the URLs declared before keep
	// working, as a deployment that moved its endpoint but still routes the
	// old one does.
	MoveInterfaces bool
}

// Rotate rotates the card (new version, new ETag) and, with LoseTasks, the
// agent's state. The card served before is kept for ServeStale.
func (s *Stage) Rotate(ctx context.Context, r Rotation) error {
	s.mu.Lock()
	s.prev = s.lastCard
	s.gen++
	gen := s.gen
	cur := s.agent
	if r.MoveInterfaces {
		s.moved = gen
	}
	s.mu.Unlock()
	if !r.LoseTasks {
		cur.Rotate(fakes.Rotation{Version: r.Version, AuthScheme: r.AuthScheme})
		s.note(fmt.Sprintf("rotated the card to generation %d", gen))
		return nil
	}
	ag, err := s.newAgent(ctx, gen)
	if err != nil {
		return err
	}
	if r.Version != "" || r.AuthScheme != "" {
		ag.Rotate(fakes.Rotation{Version: r.Version, AuthScheme: r.AuthScheme})
	}
	s.mu.Lock()
	s.retired = append(s.retired, s.agent)
	s.agent = ag
	s.mu.Unlock()
	s.note(fmt.Sprintf("rotated the card to generation %d and lost every task", gen))
	return nil
}

// ServeStale makes the card endpoint serve the card (and ETag) it served
// before the last rotation, as a stale CDN copy does, until turned off.
func (s *Stage) ServeStale(on bool) {
	s.mu.Lock()
	s.stale = on
	s.mu.Unlock()
	s.note(fmt.Sprintf("stale card: %v", on))
}

// Notes lists what the stage did (rotations, stale card), for the report.
func (s *Stage) Notes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.rotation...)
}

func (s *Stage) note(n string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rotation = append(s.rotation, fmt.Sprintf("%s: %s", time.Since(s.start).Round(time.Millisecond), n))
}

// Push POSTs a push notification body to a URL on loopback, with token as
// X-A2A-Notification-Token unless empty: a forged push when the token is
// not the config's. It returns the status the receiver answered.
func (s *Stage) Push(ctx context.Context, target, token string, body []byte) (int, error) {
	h := http.Header{}
	if token != "" {
		h.Set(fakes.TokenHeader, token)
	}
	return s.PushWith(ctx, target, h, body)
}

// PushWith POSTs a push notification body to a URL on loopback with the
// given headers (e.g. only an Authorization of a scheme the client never
// registered, as a rotated card generation would send). It returns the
// status the receiver answered.
func (s *Stage) PushWith(ctx context.Context, target string, header http.Header, body []byte) (int, error) {
	u, err := url.Parse(target)
	if err != nil {
		return 0, err
	}
	if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return 0, fmt.Errorf("stage: push target %q is not on loopback", target)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// Close stops the stage and every agent instance it started.
func (s *Stage) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = s.srv.Shutdown(ctx)
	_ = s.srv.Close()
	s.mu.Lock()
	all := append(append([]*fakes.Agent(nil), s.retired...), s.agent)
	s.mu.Unlock()
	for _, a := range all {
		_ = a.Shutdown(ctx)
	}
	if s.deadHold != nil {
		_ = s.deadHold.Close()
	}
}

// interfaces is what the card declares.
func (s *Stage) interfaces() []Interface {
	if s.script.Interfaces != nil {
		return s.script.Interfaces
	}
	return []Interface{{Binding: a2a.BindingJSONRPC}, {Binding: a2a.BindingHTTPJSON}}
}

// ifacePath is where interface i is served on the stage.
func (s *Stage) ifaceURL(i int, in Interface) string {
	host := s.base
	if in.Dead {
		host = "http://" + s.dead
	}
	s.mu.Lock()
	if s.moved > 0 {
		host += fmt.Sprintf("/m%d", s.moved)
	}
	s.mu.Unlock()
	switch in.Binding {
	case a2a.BindingJSONRPC:
		return fmt.Sprintf("%s/i%d%s", host, i, fakes.JSONRPCPath)
	case a2a.BindingHTTPJSON:
		return fmt.Sprintf("%s/i%d%s", host, i, fakes.RESTPath)
	default:
		return fmt.Sprintf("%s/i%d/unserved", host, i)
	}
}

// serve records the request, runs the hooks and answers it.
func (s *Stage) serve(w http.ResponseWriter, r *http.Request) {
	began := time.Now()
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body.Close()
	req := s.classify(r, body)
	s.mu.Lock()
	req.Seq = len(s.requests) + 1
	req.At = began.Sub(s.start)
	s.requests = append(s.requests, req)
	idx := len(s.requests) - 1
	s.mu.Unlock()
	var served *recorder.ServedExchange
	if rec := s.opts.Recorder; rec != nil {
		served = rec.BeginServed(r.Clone(withOwner(r.Context(), s.opts.Owner)), body, began)
	}
	if h := s.script.Hook; h != nil {
		h(s, HookEvent{Request: req})
	}
	// The answer's context ends when the stage closes its stream early
	// (Script.CloseStreamAfter), so that the agent behind stops at once and
	// the response ends cleanly.
	actx, stop := context.WithCancel(r.Context())
	defer stop()
	r = r.WithContext(actx)
	cw := &captureWriter{w: w, script: &s.script, jsonrpc: req.Binding == a2a.BindingJSONRPC, served: served, stop: stop,
		mark: func(f func(*Request)) {
			s.mu.Lock()
			f(&s.requests[idx])
			s.mu.Unlock()
		}}
	var etag string
	func() {
		defer func() {
			if v := recover(); v != nil && v != http.ErrAbortHandler {
				panic(v)
			}
		}()
		if s.script.Answer != nil {
			if a := s.script.Answer(s, req); a != nil {
				writeAnswer(r.Context(), cw, a)
				return
			}
		}
		switch {
		case req.Card:
			etag = s.serveCard(cw, r)
		case req.Op == OpKeySet:
			s.Agent().ServeHTTP(cw, r)
		case req.Op == OpExtendedKeySet:
			r2 := r.Clone(r.Context())
			r2.URL.Path, r2.RequestURI = fakes.JWKSPath, ""
			s.Agent().ServeHTTP(cw, r2)
		case s.script.AlteredExtendedCard && req.Op == a2a.MethodGetExtendedAgentCard && req.Interface >= 0:
			s.serveExtendedCard(cw, req)
		case req.Interface >= 0 && (req.Binding == a2a.BindingJSONRPC || req.Binding == a2a.BindingHTTPJSON):
			if v := s.interfaces()[req.Interface].Version; v != "" && !strings.HasPrefix(v, "1.") {
				s.versionNotSupported(cw, req, v)
				return
			}
			if s.script.StreamError && req.Op == "SendStreamingMessage" {
				s.streamError(cw, req, body)
				return
			}
			s.forward(cw, r, req, body)
		default:
			writePlain(cw, http.StatusNotFound, "a2a-conform stage: nothing is served at "+r.URL.Path)
		}
	}()
	cw.note(func(r *Request) { r.CardETag = etag })
	cw.finish()
	s.mu.Lock()
	s.requests[idx].Status = cw.status
	s.requests[idx].CardETag = etag
	s.requests[idx].Cut = cw.cut
	s.requests[idx].Closed = cw.closed
	s.requests[idx].ErrorEvent = cw.errorSent
	final := s.requests[idx]
	s.mu.Unlock()
	if served != nil {
		served.Finish(cw.status, cw.Header(), cw.body.Bytes())
	}
	if h := s.script.Hook; h != nil {
		h(s, HookEvent{After: true, Request: final, Status: cw.status})
	}
	if cw.cut {
		panic(http.ErrAbortHandler)
	}
}

func writePlain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, msg+"\n")
}

// classify names the request: card, interface, op, tenant, task.
func (s *Stage) classify(r *http.Request, body []byte) Request {
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(),
		Body: body, Interface: -1}
	if r.URL.Path == a2a.WellKnownCardPath {
		req.Card, req.Op = true, "card"
		return req
	}
	if r.URL.Path == fakes.JWKSPath {
		req.Op = OpKeySet
		return req
	}
	if r.URL.Path == ExtendedKeySetPath {
		req.Op = OpExtendedKeySet
		return req
	}
	var idx int
	var rest string
	p := r.URL.Path
	if strings.HasPrefix(p, ExtendedPrefix+"/") {
		req.Extended, p = true, strings.TrimPrefix(p, ExtendedPrefix)
	}
	if n, _ := fmt.Sscanf(p, "/m%d/", &req.Moved); n == 1 {
		p = strings.TrimPrefix(p, fmt.Sprintf("/m%d", req.Moved))
	}
	if n, _ := fmt.Sscanf(p, "/i%d", &idx); n == 1 {
		rest = strings.TrimPrefix(p, fmt.Sprintf("/i%d", idx))
		ifs := s.interfaces()
		if idx >= 0 && idx < len(ifs) {
			req.Interface, req.Binding = idx, ifs[idx].Binding
		}
	}
	type pushConf struct {
		URL   string `json:"url"`
		Token string `json:"token"`
	}
	type conf struct {
		Push *pushConf `json:"taskPushNotificationConfig"`
	}
	var generic struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Tenant  string `json:"tenant"`
			ID      string `json:"id"`
			TaskID  string `json:"taskId"`
			Message struct {
				TaskID string `json:"taskId"`
			} `json:"message"`
			Configuration conf `json:"configuration"`
			pushConf
		} `json:"params"`
		Tenant  string `json:"tenant"`
		Message struct {
			TaskID string `json:"taskId"`
		} `json:"message"`
		Configuration conf `json:"configuration"`
		pushConf
	}
	_ = json.Unmarshal(body, &generic)
	switch {
	case generic.Params.Configuration.Push != nil:
		req.PushURL, req.PushToken = generic.Params.Configuration.Push.URL, generic.Params.Configuration.Push.Token
	case generic.Configuration.Push != nil:
		req.PushURL, req.PushToken = generic.Configuration.Push.URL, generic.Configuration.Push.Token
	case generic.Params.URL != "":
		req.PushURL, req.PushToken = generic.Params.URL, generic.Params.Token
	case generic.URL != "":
		req.PushURL, req.PushToken = generic.URL, generic.Token
	}
	switch req.Binding {
	case a2a.BindingJSONRPC:
		req.Op, req.RPCID = generic.Method, generic.ID
		req.Tenant = generic.Params.Tenant
		req.TaskID = firstNonEmpty(generic.Params.ID, generic.Params.TaskID, generic.Params.Message.TaskID)
	case a2a.BindingHTTPJSON:
		route := strings.TrimPrefix(rest, fakes.RESTPath)
		if t := s.interfaces()[req.Interface].Tenant; t != "" && strings.HasPrefix(route, "/"+t+"/") {
			req.Tenant = t
			route = strings.TrimPrefix(route, "/"+t)
		}
		if req.Tenant == "" {
			req.Tenant = generic.Tenant
		}
		req.Op, req.TaskID = restOp(r.Method, route)
		if req.TaskID == "" {
			req.TaskID = generic.Message.TaskID
		}
	}
	return req
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// restOp names the HTTP+JSON route's operation and the task it names.
func restOp(method, route string) (op, task string) {
	segs := strings.Split(strings.Trim(route, "/"), "/")
	switch {
	case route == "/message:send":
		return "SendMessage", ""
	case route == "/message:stream":
		return "SendStreamingMessage", ""
	case route == "/extendedAgentCard" || route == "/card":
		return "GetExtendedAgentCard", ""
	case len(segs) == 1 && segs[0] == "tasks":
		return "ListTasks", ""
	case len(segs) >= 2 && segs[0] == "tasks":
		id := segs[1]
		switch {
		case strings.HasSuffix(id, ":cancel"):
			return "CancelTask", strings.TrimSuffix(id, ":cancel")
		case strings.HasSuffix(id, ":subscribe"):
			return "SubscribeToTask", strings.TrimSuffix(id, ":subscribe")
		case len(segs) == 2:
			return "GetTask", id
		case len(segs) >= 3 && segs[2] == "pushNotificationConfigs":
			switch {
			case method == http.MethodPost:
				return "CreateTaskPushNotificationConfig", id
			case method == http.MethodDelete:
				return "DeleteTaskPushNotificationConfig", id
			case len(segs) == 3:
				return "ListTaskPushNotificationConfigs", id
			default:
				return "GetTaskPushNotificationConfig", id
			}
		}
	}
	return "", ""
}

// forward hands the request to the reference agent, with the stage's
// interface prefix (and a tenant path prefix) removed.
func (s *Stage) forward(w http.ResponseWriter, r *http.Request, req Request, body []byte) {
	path := r.URL.Path
	if req.Extended {
		path = strings.TrimPrefix(path, ExtendedPrefix)
	}
	if req.Moved > 0 {
		path = strings.TrimPrefix(path, fmt.Sprintf("/m%d", req.Moved))
	}
	path = strings.TrimPrefix(path, fmt.Sprintf("/i%d", req.Interface))
	if req.Binding == a2a.BindingHTTPJSON && req.Tenant != "" {
		path = strings.Replace(path, fakes.RESTPath+"/"+req.Tenant+"/", fakes.RESTPath+"/", 1)
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path, r2.URL.RawPath = path, ""
	r2.RequestURI = ""
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	var h http.Handler = s.Agent()
	if s.script.Front != nil {
		h = s.script.Front(h)
	}
	h.ServeHTTP(w, r2)
}

// versionNotSupported answers a request to an interface of another protocol
// version than the one the request names: VersionNotSupportedError (JSON-RPC
// -32009; HTTP+JSON 400 with ErrorInfo VERSION_NOT_SUPPORTED).
func (s *Stage) versionNotSupported(w http.ResponseWriter, req Request, declared string) {
	msg := fmt.Sprintf("a2a-conform scripted agent: this interface serves A2A %s only; the request asked for %q", declared, req.Header.Get("A2A-Version"))
	if req.Binding == a2a.BindingJSONRPC {
		id := req.RPCID
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32009, "message": msg}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(b)
		return
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": 400, "status": "INVALID_ARGUMENT", "message": msg,
		"details": []any{map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "VERSION_NOT_SUPPORTED", "domain": "a2a-protocol.org"}}}})
	w.Header().Set("Content-Type", "application/a2a+json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(b)
}

// streamError answers a streaming request with a plain error response.
func (s *Stage) streamError(w http.ResponseWriter, req Request, body []byte) {
	msg := "a2a-conform scripted agent: this streaming request is refused with a plain error response"
	if req.Binding == a2a.BindingJSONRPC {
		var env struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(body, &env)
		if len(env.ID) == 0 {
			env.ID = json.RawMessage("null")
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": env.ID,
			"error": map[string]any{"code": -32603, "message": msg}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(b)
		return
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": 400, "status": "INVALID_ARGUMENT", "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(b)
}

// serveCard serves the card as the script has it, and returns the ETag it
// carried.
func (s *Stage) serveCard(w http.ResponseWriter, r *http.Request) string {
	cur, cacheControl, err := s.currentCard()
	if err != nil {
		writePlain(w, http.StatusServiceUnavailable, err.Error())
		return ""
	}
	s.mu.Lock()
	s.lastCard = cur
	served := cur
	if s.stale && s.prev != nil {
		served = s.prev
	}
	s.mu.Unlock()
	h := w.Header()
	h.Set("ETag", served.etag)
	if cacheControl != "" {
		h.Set("Cache-Control", cacheControl)
	}
	h.Set("Vary", "A2A-Version")
	for _, v := range r.Header.Values("If-None-Match") {
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimPrefix(strings.TrimSpace(t), "W/"); t == served.etag || t == "*" {
				w.WriteHeader(http.StatusNotModified)
				return ""
			}
		}
	}
	h.Set("Content-Type", "application/json")
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return served.etag
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(served.body)
	return served.etag
}

// currentCard builds the card the stage serves now: the reference agent's,
// with the script's interfaces and unknown fields.
func (s *Stage) currentCard() (*servedCard, string, error) {
	rr := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, s.base+a2a.WellKnownCardPath, nil)
	req.Host = strings.TrimPrefix(s.base, "http://")
	s.Agent().ServeHTTP(rr, req)
	if rr.Code != http.StatusOK {
		return nil, "", fmt.Errorf("the reference agent answered its card with %d", rr.Code)
	}
	var card map[string]any
	dec := json.NewDecoder(bytes.NewReader(rr.Body.Bytes()))
	dec.UseNumber()
	if err := dec.Decode(&card); err != nil {
		return nil, "", err
	}
	card["supportedInterfaces"] = s.declared("")
	if s.script.UnknownFields {
		addUnknown(card)
	}
	_, signed := card["signatures"]
	body, err := json.Marshal(card)
	if err != nil {
		return nil, "", err
	}
	if signed {
		// The rewrite broke the agent's signature: sign what is served.
		if body, err = fakes.SignCard(body, s.base+fakes.JWKSPath); err != nil {
			return nil, "", err
		}
		if s.script.AlterSignedCard {
			body = alterDescription(body)
		}
		if s.script.InjectAfterSigning {
			body = injectMember(body)
		}
	}
	sum := sha256.Sum256(body)
	return &servedCard{body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}, rr.Header().Get("Cache-Control"), nil
}

// declared is the card's supportedInterfaces: the script's interfaces at
// their stage URLs, with prefix inserted after the stage's origin in the
// URLs served there (ExtendedPrefix for the extended card; "" for the card).
func (s *Stage) declared(prefix string) []any {
	var ifs []any
	for i, in := range s.interfaces() {
		u := s.ifaceURL(i, in)
		if prefix != "" && strings.HasPrefix(u, s.base+"/") {
			u = s.base + prefix + strings.TrimPrefix(u, s.base)
		}
		version := in.Version
		if version == "" {
			version = a2a.ProtocolVersion
		}
		m := map[string]any{"url": u, "protocolBinding": in.Binding, "protocolVersion": version}
		if in.Tenant != "" {
			m["tenant"] = in.Tenant
		}
		ifs = append(ifs, m)
	}
	return ifs
}

// OpKeySet is Request.Op for a GET of the card-signing key set
// (fakes.JWKSPath), the jku of the card's signature.
const OpKeySet = "key-set"

// OpExtendedKeySet is Request.Op for a GET of ExtendedKeySetPath, the jku of
// the extended card's signature (Script.AlteredExtendedCard): a client that
// fetches it verifies the extended card.
const OpExtendedKeySet = "extended-key-set"

// ExtendedKeySetPath is where the stage serves the key set the extended
// card's signature names (the same key as the public card's).
const ExtendedKeySetPath = "/.well-known/a2a-conform-extended-card-keys.json"

// ExtendedPrefix is the path prefix of the interfaces only the extended card
// declares.
const ExtendedPrefix = "/x"

// serveExtendedCard answers GetExtendedAgentCard with the altered extended
// card (Script.AlteredExtendedCard), in the request's binding.
func (s *Stage) serveExtendedCard(w http.ResponseWriter, req Request) {
	card, err := s.extendedCard()
	if err != nil {
		writePlain(w, http.StatusInternalServerError, "a2a-conform stage: "+err.Error())
		return
	}
	body := card
	if req.Binding == a2a.BindingJSONRPC {
		id := req.RPCID
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		body, _ = json.Marshal(map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`), "id": id, "result": card})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// extendedCard builds the altered extended card from the public card served
// now: named as extended, claiming streaming, with one more skill and the
// interfaces under ExtendedPrefix; signed with ExtendedKeySetPath as jku,
// then altered.
func (s *Stage) extendedCard() ([]byte, error) {
	cur, _, err := s.currentCard()
	if err != nil {
		return nil, err
	}
	var card map[string]any
	dec := json.NewDecoder(bytes.NewReader(cur.body))
	dec.UseNumber()
	if err := dec.Decode(&card); err != nil {
		return nil, err
	}
	name, _ := card["name"].(string)
	card["name"] = name + " (extended)"
	caps, _ := card["capabilities"].(map[string]any)
	if caps == nil {
		caps = map[string]any{}
	}
	caps["streaming"] = true
	card["capabilities"] = caps
	skills, _ := card["skills"].([]any)
	card["skills"] = append(skills, map[string]any{"id": "extended", "name": "Extended-card skill",
		"description": "Listed only on the extended card.", "tags": []any{"extended"}})
	card["supportedInterfaces"] = s.declared(ExtendedPrefix)
	delete(card, "signatures")
	body, err := json.Marshal(card)
	if err != nil {
		return nil, err
	}
	if body, err = fakes.SignCard(body, s.base+ExtendedKeySetPath); err != nil {
		return nil, err
	}
	return alterDescription(body), nil
}

// alterDescription adds a sentence to a signed card's description, leaving
// its signature as it was.
// InjectedMember is the member Script.InjectAfterSigning adds to the card.
const InjectedMember = "a2aConformInjectedAfterSigning"

// injectMember adds InjectedMember at the top of a card.
func injectMember(doc []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(doc, &m) != nil {
		return doc
	}
	m[InjectedMember], _ = json.Marshal(map[string]string{"endpoint": "added by an edge after the card was signed"})
	out, err := json.Marshal(m)
	if err != nil {
		return doc
	}
	return out
}

func alterDescription(doc []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(doc, &m) != nil {
		return doc
	}
	var desc string
	_ = json.Unmarshal(m["description"], &desc)
	m["description"], _ = json.Marshal(desc + " Served by an edge that rewrites cards.")
	out, err := json.Marshal(m)
	if err != nil {
		return doc
	}
	return out
}

// mapMembers are members whose value is a proto map or a
// google.protobuf.Struct: a key added there is an entry, not an unknown
// field, so they are left alone (securitySchemes would gain a scheme that is
// a string).
var mapMembers = map[string]bool{"securitySchemes": true, "schemes": true, "metadata": true, "params": true, "data": true}

// addUnknown adds UnknownField to every message object under v.
func addUnknown(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if !mapMembers[k] {
				addUnknown(c)
			}
		}
		x[UnknownField] = "a member of a future A2A version; §5.7: ignore it"
	case []any:
		for _, c := range x {
			addUnknown(c)
		}
	}
}

// withUnknown rewrites one JSON document: every object gets UnknownField;
// on JSON-RPC only the result's objects do.
func withUnknown(doc []byte, jsonrpc bool) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return doc
	}
	if m, ok := v.(map[string]any); ok && jsonrpc {
		if res, ok := m["result"]; ok {
			addUnknown(res)
		}
	} else {
		addUnknown(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return doc
	}
	return b
}

// UnknownEventMember is the only member of the event Script.UnknownEvent
// adds.
const UnknownEventMember = "a2aConformFutureEvent"

// unknownEvent is the event Script.UnknownEvent adds after first, the first
// event of a stream: a StreamResponse whose only member no version of A2A
// defines, in first's framing (a JSON-RPC response with first's id, or the
// bare object).
func unknownEvent(first []byte, jsonrpc bool) []byte {
	sr := map[string]any{UnknownEventMember: map[string]any{"note": "a kind of stream event newer than A2A v1.0"}}
	if !jsonrpc {
		b, _ := json.Marshal(sr)
		return b
	}
	var env struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(first, &env)
	if len(env.ID) == 0 {
		env.ID = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": env.ID, "result": sr})
	return b
}

// StreamErrorMessage is the message of the error event Script.ErrorEventAfter
// sends.
const StreamErrorMessage = "a2a-conform scripted agent: this stream failed mid-task (an internal error)"

// errorEvent is the data of the error event Script.ErrorEventAfter sends: an
// internal error, as a JSON-RPC error response with id, or as HTTP+JSON's
// {"error": google.rpc.Status}.
func errorEvent(id json.RawMessage, jsonrpc bool) []byte {
	if jsonrpc {
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
			"error": map[string]any{"code": -32603, "message": StreamErrorMessage}})
		return b
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": 500, "status": "INTERNAL", "message": StreamErrorMessage}})
	return b
}

// captureWriter passes the agent's answer to the client, rewritten as the
// script says, and keeps a copy for the recorder.
type captureWriter struct {
	w       http.ResponseWriter
	script  *Script
	jsonrpc bool
	status  int
	wrote   bool
	sse     bool
	buf     bytes.Buffer // non-SSE body, written at finish
	body    bytes.Buffer // copy for the recorder (capped)
	line    bytes.Buffer // SSE: the partial line
	evData  bytes.Buffer
	nEvents int
	cut     bool
	// closed: the stage ended this stream cleanly (Script.CloseStreamAfter);
	// stop ends the answer's context then.
	closed bool
	stop   func()
	// errorSent: the stage sent its error event (Script.ErrorEventAfter).
	errorSent bool
	// mark updates the request's record at once, before the answer ends:
	// a client that stops reading at the cut, the close or the error may
	// be judged before the stage's handler returns.
	mark func(func(*Request))
	// rpcID is the JSON-RPC id of the first event, for the error event.
	rpcID json.RawMessage
	// served records each event as it goes out (nil: no recorder).
	served *recorder.ServedExchange
}

func (c *captureWriter) Header() http.Header { return c.w.Header() }

func (c *captureWriter) WriteHeader(code int) {
	if c.wrote {
		return
	}
	c.wrote, c.status = true, code
	c.sse = strings.HasPrefix(c.w.Header().Get("Content-Type"), "text/event-stream")
	if c.sse {
		c.note(func(r *Request) { r.Status = code })
		c.w.WriteHeader(code)
	}
}

func (c *captureWriter) Write(p []byte) (int, error) {
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	if c.cut {
		return 0, errors.New("stage: stream cut")
	}
	if c.closed {
		return 0, errors.New("stage: stream closed")
	}
	if !c.sse {
		c.buf.Write(p)
		return len(p), nil
	}
	c.line.Write(p)
	for {
		b := c.line.Bytes()
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		l := append([]byte(nil), b[:i+1]...)
		c.line.Next(i + 1)
		if err := c.sseLine(l); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// note applies f to the request's record now (mark).
func (c *captureWriter) note(f func(*Request)) {
	if c.mark != nil {
		c.mark(f)
	}
}

// sseLine passes one SSE line on, rewritten, counting events.
func (c *captureWriter) sseLine(l []byte) error {
	t := bytes.TrimRight(l, "\r\n")
	if data, ok := bytes.CutPrefix(t, []byte("data:")); ok {
		data = bytes.TrimPrefix(data, []byte(" "))
		if c.script.UnknownFields {
			data = withUnknown(data, c.jsonrpc)
		}
		c.evData.Write(data)
		l = append(append([]byte("data: "), data...), '\n')
	}
	if _, err := c.w.Write(l); err != nil {
		return err
	}
	if c.body.Len() < 1<<16 {
		c.body.Write(l)
	}
	if len(t) == 0 && c.evData.Len() > 0 {
		if f, ok := c.w.(http.Flusher); ok {
			f.Flush()
		}
		if c.served != nil {
			c.served.Event(c.evData.Bytes())
		}
		first := c.nEvents == 0
		var extra []byte
		if first && c.script.UnknownEvent {
			extra = unknownEvent(c.evData.Bytes(), c.jsonrpc)
		}
		if first && c.jsonrpc {
			var env struct {
				ID json.RawMessage `json:"id"`
			}
			_ = json.Unmarshal(c.evData.Bytes(), &env)
			c.rpcID = env.ID
		}
		c.evData.Reset()
		c.nEvents++
		if extra != nil {
			if _, err := c.w.Write(append(append([]byte("data: "), extra...), '\n', '\n')); err != nil {
				return err
			}
			if f, ok := c.w.(http.Flusher); ok {
				f.Flush()
			}
			if c.served != nil {
				c.served.Event(extra)
			}
		}
		if n := c.script.CutStreamAfter; n > 0 && c.nEvents >= n {
			c.cut = true
			c.note(func(r *Request) { r.Cut = true })
			return errors.New("stage: stream cut")
		}
		if n := c.script.CloseStreamAfter; n > 0 && c.nEvents >= n {
			c.closed = true
			c.note(func(r *Request) { r.Closed = true })
			c.stop()
			return errors.New("stage: stream closed")
		}
		if n := c.script.ErrorEventAfter; n > 0 && c.nEvents >= n {
			c.closed, c.errorSent = true, true
			c.note(func(r *Request) { r.Closed, r.ErrorEvent = true, true })
			c.stop()
			data := errorEvent(c.rpcID, c.jsonrpc)
			frame := append(append([]byte("data: "), data...), '\n', '\n')
			if c.script.ErrorEventTyped {
				frame = append([]byte("event: error\n"), frame...)
			}
			if _, err := c.w.Write(frame); err == nil {
				if f, ok := c.w.(http.Flusher); ok {
					f.Flush()
				}
			}
			if c.served != nil {
				c.served.Event(data)
			}
			return errors.New("stage: stream ended by an error event")
		}
	}
	return nil
}

func (c *captureWriter) Flush() {
	if c.sse {
		if f, ok := c.w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// finish writes a buffered (non-SSE) answer.
func (c *captureWriter) finish() {
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	if c.sse {
		return
	}
	body := c.buf.Bytes()
	if c.script.UnknownFields && len(body) > 0 && strings.Contains(c.w.Header().Get("Content-Type"), "json") {
		body = withUnknown(body, c.jsonrpc)
	}
	c.w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	c.note(func(r *Request) { r.Status = c.status })
	c.w.WriteHeader(c.status)
	_, _ = c.w.Write(body)
	if len(body) > 1<<16 {
		body = body[:1<<16]
	}
	c.body.Write(body)
}

// writeAnswer sends a hand-made answer.
func writeAnswer(ctx context.Context, w http.ResponseWriter, a *Answer) {
	for k, vs := range a.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	status := a.Status
	if status == 0 {
		status = http.StatusOK
	}
	if len(a.Events) == 0 {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = w.Write(a.Body)
		return
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	w.WriteHeader(status)
	for i, e := range a.Events {
		if i > 0 && a.EventGap > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(a.EventGap):
			}
		}
		if _, err := w.Write(append(append([]byte("data: "), e...), '\n', '\n')); err != nil {
			return
		}
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

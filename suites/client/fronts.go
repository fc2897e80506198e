package client

// Server-side behaviours of the scenario cases (CLI-020 and up). Each is a
// small http.Handler put between the vendor's client and the reference agent
// (package fakes), or an action the harness takes on its own (a forged
// push). The reference agent stays correct; these fronts are what a
// deployment does around it in scenarios 1 and 3: a rolling restart that
// loses tasks, a CDN edge serving an old build's card, a proxy that cuts a
// stream. All of it is loopback only.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// maxPeekBody bounds how much of a request body a front reads to classify
// it; the reference agent caps bodies at 1 MiB too.
const maxPeekBody = 1 << 20

// binding request, as a front sees it: the v1.0 method, the task it names
// (when the path or the params name one) and, for JSON-RPC, the call id.
type call struct {
	Method string
	TaskID string
	RPCID  json.RawMessage
	// JSONRPC says the call came over the JSON-RPC binding.
	JSONRPC bool
}

// peek classifies r without consuming its body (the body is put back).
func peek(r *http.Request) call {
	if r.Method == http.MethodPost && r.Body != nil && strings.HasSuffix(r.URL.Path, "/jsonrpc") {
		body, _ := io.ReadAll(io.LimitReader(r.Body, maxPeekBody))
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ID      string `json:"id"`
				TaskID  string `json:"taskId"`
				Message struct {
					TaskID string `json:"taskId"`
				} `json:"message"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &env) != nil {
			return call{JSONRPC: true}
		}
		c := call{Method: env.Method, RPCID: env.ID, JSONRPC: true}
		switch {
		case env.Params.Message.TaskID != "":
			c.TaskID = env.Params.Message.TaskID
		case env.Params.TaskID != "":
			c.TaskID = env.Params.TaskID
		default:
			c.TaskID = env.Params.ID
		}
		return c
	}
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/message:send"):
		return call{Method: a2a.MethodSendMessage}
	case strings.HasSuffix(p, "/message:stream"):
		return call{Method: a2a.MethodSendStreamingMessage}
	}
	if i := strings.Index(p, "/tasks/"); i >= 0 {
		rest := p[i+len("/tasks/"):]
		id, tail, _ := strings.Cut(rest, "/")
		switch {
		case tail != "":
			return call{Method: "push-config", TaskID: id}
		case strings.HasSuffix(id, ":cancel"):
			return call{Method: a2a.MethodCancelTask, TaskID: strings.TrimSuffix(id, ":cancel")}
		case strings.HasSuffix(id, ":subscribe"):
			return call{Method: a2a.MethodSubscribeToTask, TaskID: strings.TrimSuffix(id, ":subscribe")}
		default:
			return call{Method: a2a.MethodGetTask, TaskID: id}
		}
	}
	return call{}
}

func (c call) sends() bool {
	return c.Method == a2a.MethodSendMessage || c.Method == a2a.MethodSendStreamingMessage
}

// Restart is a rolling restart that loses tasks (scenario 1): the first
// instance answers until the client's first SendMessage has been answered;
// from then on the next instance answers everything. The next instance is
// the next card generation (a new version, so a new ETag) with its own empty
// store, so a follow-up naming the first task gets TaskNotFoundError from a
// correct agent: the task did not survive the rotation.
type Restart struct {
	first, next http.Handler
	switched    atomic.Bool
	at          atomic.Int64 // unix nanos of the switch
}

// NewRestart switches from first to next after the first answered send.
func NewRestart(first, next http.Handler) *Restart {
	return &Restart{first: first, next: next}
}

func (s *Restart) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.switched.Load() {
		s.next.ServeHTTP(w, r)
		return
	}
	c := peek(r)
	s.first.ServeHTTP(w, r)
	if c.sends() && s.switched.CompareAndSwap(false, true) {
		s.at.Store(time.Now().UnixNano())
	}
}

// Switched reports whether the restart happened, and when.
func (s *Restart) Switched() (bool, time.Time) {
	if !s.switched.Load() {
		return false, time.Time{}
	}
	return true, time.Unix(0, s.at.Load())
}

// StaleEdge is a CDN edge in front of the agent that still holds an older
// build's card (scenario 3): it answers the well-known card path with those
// bytes, their ETag and a long max-age, whatever the agent behind it serves
// now; every other path goes to the agent.
type StaleEdge struct {
	Agent http.Handler
	// Card, ETag and MaxAge are what the edge holds.
	Card   []byte
	ETag   string
	MaxAge time.Duration
	hits   atomic.Int64
}

func (e *StaleEdge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, a2a.WellKnownCardPath) {
		e.Agent.ServeHTTP(w, r)
		return
	}
	e.hits.Add(1)
	w.Header().Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(e.MaxAge/time.Second)))
	w.Header().Set("Age", "1")
	if e.ETag != "" {
		w.Header().Set("ETag", e.ETag)
		for _, inm := range r.Header.Values("If-None-Match") {
			for _, t := range strings.Split(inm, ",") {
				if t = strings.TrimSpace(t); t == e.ETag || t == "*" || strings.TrimPrefix(t, "W/") == e.ETag {
					w.WriteHeader(http.StatusNotModified)
					return
				}
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(e.Card)
}

// Hits counts the card requests the edge answered.
func (e *StaleEdge) Hits() int { return int(e.hits.Load()) }

// CaptureCard asks h for its card as a client at base would see it (the
// interface URLs are built from the request's host), returning the body and
// its ETag. It is how a StaleEdge gets an older build's card.
func CaptureCard(h http.Handler, base string) ([]byte, string, error) {
	req, err := http.NewRequest(http.MethodGet, strings.TrimRight(base, "/")+a2a.WellKnownCardPath, nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("A2A-Version", a2a.ProtocolVersion)
	rec := &captured{header: http.Header{}}
	h.ServeHTTP(rec, req)
	if rec.status != 0 && rec.status != http.StatusOK {
		return nil, "", fmt.Errorf("card capture: HTTP %d", rec.status)
	}
	return rec.body.Bytes(), rec.header.Get("ETag"), nil
}

// captured is a minimal in-memory ResponseWriter for CaptureCard.
type captured struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *captured) Header() http.Header { return c.header }
func (c *captured) WriteHeader(s int) {
	if c.status == 0 {
		c.status = s
	}
}
func (c *captured) Write(p []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return c.body.Write(p)
}

// StreamCut is a proxy that cuts the first streaming response once it has
// passed Events SSE events (the task snapshot and its WORKING update, with
// Events 2): the connection is closed mid-body, with no terminating chunk,
// as a load balancer's idle timeout or a pod's death does. The task itself
// goes on in the agent; later requests (GetTask, SubscribeToTask) are
// served in full.
type StreamCut struct {
	Agent  http.Handler
	Events int
	used   atomic.Bool
	cutAt  atomic.Int64
	taskMu sync.Mutex
	taskID string
}

func (s *StreamCut) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := peek(r)
	if c.Method != a2a.MethodSendStreamingMessage || !s.used.CompareAndSwap(false, true) {
		s.Agent.ServeHTTP(w, r)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		s.Agent.ServeHTTP(w, r)
		return
	}
	cw := &cutWriter{ResponseWriter: w, hj: hj, limit: max(s.Events, 1), owner: s}
	s.Agent.ServeHTTP(cw, r)
}

// Cut reports whether a stream was cut, when, and the task its events named.
func (s *StreamCut) Cut() (bool, time.Time, string) {
	at := s.cutAt.Load()
	s.taskMu.Lock()
	defer s.taskMu.Unlock()
	if at == 0 {
		return false, time.Time{}, s.taskID
	}
	return true, time.Unix(0, at), s.taskID
}

// cutWriter counts SSE events (blank-line separated) in what the agent
// writes and, at the limit, flushes what was written and closes the
// connection under the agent. Later writes fail, which ends the agent's
// stream loop; the task goes on.
type cutWriter struct {
	http.ResponseWriter
	hj     http.Hijacker
	limit  int
	owner  *StreamCut
	buf    []byte
	events int
	dead   bool
}

var errCut = errors.New("stream cut by the harness (scenario: a proxy drops the connection mid-task)")

func (c *cutWriter) Write(p []byte) (int, error) {
	if c.dead {
		return 0, errCut
	}
	n, err := c.ResponseWriter.Write(p)
	c.buf = append(c.buf, p...)
	for {
		i := bytes.Index(c.buf, []byte("\n\n"))
		if i < 0 {
			break
		}
		c.noteTask(c.buf[:i])
		c.buf = c.buf[i+2:]
		c.events++
	}
	if len(c.buf) > 64<<10 {
		c.buf = c.buf[len(c.buf)-(64<<10):]
	}
	if c.events >= c.limit {
		c.cut()
	}
	return n, err
}

// noteTask keeps the task id of the first event that names one.
func (c *cutWriter) noteTask(ev []byte) {
	c.owner.taskMu.Lock()
	defer c.owner.taskMu.Unlock()
	if c.owner.taskID != "" {
		return
	}
	for _, line := range bytes.Split(ev, []byte("\n")) {
		data, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		// A JSON-RPC event wraps the StreamResponse in "result".
		var env struct {
			Result json.RawMessage `json:"result"`
		}
		raw := bytes.TrimSpace(data)
		if json.Unmarshal(raw, &env) == nil && len(env.Result) > 0 {
			raw = env.Result
		}
		var s a2a.StreamResponse
		if json.Unmarshal(raw, &s) != nil {
			continue
		}
		switch {
		case s.Task != nil:
			c.owner.taskID = s.Task.ID
		case s.StatusUpdate != nil:
			c.owner.taskID = s.StatusUpdate.TaskID
		}
	}
}

func (c *cutWriter) cut() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	c.dead = true
	conn, brw, err := c.hj.Hijack()
	if err != nil {
		return
	}
	if brw != nil {
		brw.Flush()
	}
	// A reset, not an orderly close: the client must see the body end
	// early, not a clean end of stream.
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
	c.owner.cutAt.Store(time.Now().UnixNano())
}

func (c *cutWriter) Flush() {
	if c.dead {
		return
	}
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack is not offered to the agent through a cutWriter.
func (c *cutWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return nil, nil, errors.New("not hijackable")
}

// ForgedPush is one push the harness posts to the client's webhook on its
// own, as a third party that knows the webhook URL could: it names a task
// and a state, and carries Authorization (empty: none) and the token header
// the reference agent uses (empty: none).
type ForgedPush struct {
	TaskID, ContextID string
	State             a2a.TaskState
	Authorization     string
	Token             string
}

// PushAnswer is how the client's receiver answered one forged push.
type PushAnswer struct {
	Status int
	Err    string
	At     time.Time
}

// tokenHeader is the push token header of the reference agent (fakes.TokenHeader).
const tokenHeader = "X-A2A-Notification-Token"

// Post delivers the forged push to url (a loopback webhook) and returns the
// receiver's answer. The body is a StreamResponse statusUpdate, as a real
// push of a status change is (spec §4.3.3).
func (f ForgedPush) Post(ctx context.Context, url string) PushAnswer {
	body, _ := json.Marshal(a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{
		TaskID: f.TaskID, ContextID: f.ContextID,
		Status: a2a.TaskStatus{State: f.State, Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z")},
	}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return PushAnswer{Err: err.Error(), At: time.Now()}
	}
	req.Header.Set("Content-Type", "application/a2a+json")
	if f.Authorization != "" {
		req.Header.Set("Authorization", f.Authorization)
	}
	if f.Token != "" {
		req.Header.Set(tokenHeader, f.Token)
	}
	hc := &http.Client{Timeout: 5 * time.Second}
	resp, err := hc.Do(req)
	if err != nil {
		return PushAnswer{Err: err.Error(), At: time.Now()}
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return PushAnswer{Status: resp.StatusCode, At: time.Now()}
}

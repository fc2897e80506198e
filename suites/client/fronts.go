package client

// Server-side behaviours of the scenario cases (CLI-020 and up) that the
// stage's own script options do not give: fronts put between the stage and
// the reference agent (clientrun.Script.Front). All of it is loopback only.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
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

// Served is what a Watch front saw the agent answer: for each task, the
// states it served and through which operation, in order.
type Served struct {
	mu  sync.Mutex
	log []ServedState
}

// ServedState is one state the agent served the client.
type ServedState struct {
	Op     string // SendStreamingMessage, SubscribeToTask (stream events), GetTask, CancelTask, SendMessage
	TaskID string
	State  a2a.TaskState
	At     time.Time
}

// States returns everything served so far.
func (s *Served) States() []ServedState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ServedState(nil), s.log...)
}

func (s *Served) add(op string, sr a2a.StreamResponse) {
	var st ServedState
	switch {
	case sr.Task != nil:
		st = ServedState{TaskID: sr.Task.ID, State: sr.Task.Status.State}
	case sr.StatusUpdate != nil:
		st = ServedState{TaskID: sr.StatusUpdate.TaskID, State: sr.StatusUpdate.Status.State}
	default:
		return
	}
	st.Op, st.At = op, time.Now()
	s.mu.Lock()
	s.log = append(s.log, st)
	s.mu.Unlock()
}

// Watch is a Front (clientrun.Script.Front) that records, in into, every
// task state the agent serves (stream events, GetTask, CancelTask and
// SendMessage answers), on both bindings. With closeAfter set, a stream
// that has carried that state is ended right after it, cleanly: for an
// agent whose streams stay open past a terminal state (fault
// stream-no-close), so that the client sees the state and then the end of
// the stream.
func Watch(into *Served, closeAfter a2a.TaskState) func(http.Handler) http.Handler {
	return func(agent http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c := peek(r)
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			ww := &watchWriter{ResponseWriter: w, op: c.Method, into: into, closeAfter: closeAfter, cancel: cancel}
			agent.ServeHTTP(ww, r.WithContext(ctx))
			ww.done()
		})
	}
}

// watchWriter passes the agent's answer through and parses it on the way.
type watchWriter struct {
	http.ResponseWriter
	op         string
	into       *Served
	closeAfter a2a.TaskState
	cancel     context.CancelFunc
	sse        bool
	checked    bool
	buf        []byte
	closed     bool
}

func (w *watchWriter) Write(p []byte) (int, error) {
	if w.closed {
		return 0, errors.New("stream ended by the harness after " + string(w.closeAfter))
	}
	if !w.checked {
		w.checked = true
		w.sse = strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream")
	}
	n, err := w.ResponseWriter.Write(p)
	if len(w.buf) < maxPeekBody {
		w.buf = append(w.buf, p...)
	}
	if w.sse {
		for {
			i := bytes.Index(w.buf, []byte("\n\n"))
			if i < 0 {
				break
			}
			ev := w.buf[:i]
			w.buf = w.buf[i+2:]
			for _, line := range bytes.Split(ev, []byte("\n")) {
				if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
					if sr, ok := decodeServed(data); ok {
						w.into.add(w.op, sr)
						if w.closeAfter != "" && servedState(sr) == w.closeAfter {
							w.closed = true
							w.cancel()
						}
					}
				}
			}
		}
	}
	return n, err
}

func (w *watchWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.closed {
		f.Flush()
	}
}

// done parses a unary answer once the agent has written it.
func (w *watchWriter) done() {
	if w.sse || len(w.buf) == 0 {
		return
	}
	sr, ok := decodeServed(w.buf)
	if !ok {
		return
	}
	w.into.add(w.op, sr)
}

// decodeServed reads one answer or event as the StreamResponse it carries:
// a JSON-RPC envelope's result, a SendMessage answer ({task}|{message}), a
// bare Task (GetTask, CancelTask), or a stream event.
func decodeServed(data []byte) (a2a.StreamResponse, bool) {
	raw := bytes.TrimSpace(data)
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(raw, &env) == nil && len(env.Result) > 0 {
		raw = env.Result
	}
	var sr a2a.StreamResponse
	if json.Unmarshal(raw, &sr) == nil && len(sr.Members()) == 1 {
		return sr, true
	}
	var task a2a.Task
	if json.Unmarshal(raw, &task) == nil && task.ID != "" && task.Status.State != "" {
		return a2a.StreamResponse{Task: &task}, true
	}
	return a2a.StreamResponse{}, false
}

func servedState(sr a2a.StreamResponse) a2a.TaskState {
	switch {
	case sr.Task != nil:
		return sr.Task.Status.State
	case sr.StatusUpdate != nil:
		return sr.StatusUpdate.Status.State
	}
	return ""
}

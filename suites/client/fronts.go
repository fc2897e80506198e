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

// opOf names the A2A operation of a request a front sees (the stage has
// removed its interface prefix), without consuming its body: the JSON-RPC
// method, or the HTTP+JSON route's. "" when it is neither.
func opOf(r *http.Request) string {
	if r.Method == http.MethodPost && r.Body != nil && strings.HasSuffix(r.URL.Path, "/jsonrpc") {
		body, _ := io.ReadAll(io.LimitReader(r.Body, maxPeekBody))
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
		var env struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &env)
		return env.Method
	}
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/message:send"):
		return a2a.MethodSendMessage
	case strings.HasSuffix(p, "/message:stream"):
		return a2a.MethodSendStreamingMessage
	}
	i := strings.Index(p, "/tasks/")
	if i < 0 {
		return ""
	}
	id, tail, _ := strings.Cut(p[i+len("/tasks/"):], "/")
	switch {
	case tail != "":
		return "push-config"
	case strings.HasSuffix(id, ":cancel"):
		return a2a.MethodCancelTask
	case strings.HasSuffix(id, ":subscribe"):
		return a2a.MethodSubscribeToTask
	}
	return a2a.MethodGetTask
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
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			ww := &watchWriter{ResponseWriter: w, op: opOf(r), into: into, closeAfter: closeAfter, cancel: cancel}
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

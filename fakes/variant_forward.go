package fakes

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
)

// Forwarding replicas (Options.ForwardToOwner; `fake --forward-to-owner`):
// a correct variant in which the instance that does not run a task passes
// every request about it (GetTask, CancelTask, SubscribeToTask, a message
// naming it, the push-config calls) to the instance that does, over HTTP, at
// the address that instance registered in the shared store, and relays the
// answer, streams included, as they come. The owner serves a forwarded
// request itself. A task nobody runs (waiting for input, ended, or whose
// instance went away) is served from the shared store by whichever
// instance got the request, as is every request when the owner cannot be
// reached or answers 503 (it is draining). This is how the a2a-python PRs
// #1244/#1245 make cancel and resubscribe work from any replica; the
// default agent instead lets every instance serve from the shared store,
// the executor reconciling through the event log (docs/fault-matrix.md).
// The gRPC binding is served locally: the variant forwards the two HTTP
// bindings.

// ForwardedByHeader marks a request one instance forwarded to another
// (its value names the sender): the receiver serves it itself, so that a
// request is forwarded at most once.
const ForwardedByHeader = "A2A-Conform-Forwarded-By"

// ForwardedToHeader names, on a relayed answer, the instance that served it.
const ForwardedToHeader = "A2A-Conform-Forwarded-To"

// advertise records this instance's own base URL (Serve sets it to its
// listener's) in the store, for the others to forward to (ForwardToOwner
// only).
func (a *Agent) advertise(ctx context.Context) error {
	if !a.opts.ForwardToOwner || a.selfURL == "" {
		return nil
	}
	return a.st.RegisterInstance(ctx, a.owner, a.selfURL, time.Now())
}

// withdraw removes this instance's address once it drains: it no longer
// runs tasks, so nothing is to be forwarded to it.
func (a *Agent) withdraw() {
	if !a.opts.ForwardToOwner || a.selfURL == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), store.BusyTimeout)
	defer cancel()
	if err := a.st.UnregisterInstance(ctx, a.owner); err != nil {
		a.log.Warn("withdrawing the instance's address", "err", err)
	}
}

// forwarded serves r by relaying it to the instance running the task it
// names, and reports whether it did; false leaves r (its body restored) to
// be served here.
func (a *Agent) forwarded(w http.ResponseWriter, r *http.Request) bool {
	if !a.opts.ForwardToOwner || r.Header.Get(ForwardedByHeader) != "" {
		return false
	}
	var body []byte
	if r.Body != nil {
		b, err := io.ReadAll(io.LimitReader(r.Body, a.opts.MaxBodyBytes+1))
		if err != nil {
			return false
		}
		body = b
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	id := taskNamed(r, body)
	if id == "" {
		return false
	}
	rec, err := a.st.GetTask(r.Context(), id)
	if err != nil || !a.runsElsewhere(rec, time.Now()) {
		return false
	}
	base, err := a.st.InstanceURL(r.Context(), rec.Owner)
	if err != nil || base == "" {
		return false
	}
	req, err := http.NewRequestWithContext(r.Context(), r.Method, base+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return false
	}
	for k, vs := range r.Header {
		if hopByHop[http.CanonicalHeaderKey(k)] {
			continue
		}
		req.Header[k] = vs
	}
	req.Header.Set(ForwardedByHeader, a.name)
	resp, err := a.forwarder.Do(req)
	if err != nil {
		a.log.Warn("forwarding to the task's instance failed; serving here", "task", id, "err", err)
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusServiceUnavailable {
		// The owner is starting or draining: the shared store answers.
		return false
	}
	for k, vs := range resp.Header {
		if hopByHop[http.CanonicalHeaderKey(k)] || http.CanonicalHeaderKey(k) == http.CanonicalHeaderKey(InstanceHeader) {
			continue
		}
		w.Header()[k] = vs
	}
	w.Header().Set(ForwardedToHeader, resp.Header.Get(InstanceHeader))
	w.WriteHeader(resp.StatusCode)
	relay(w, resp.Body)
	return true
}

// relay copies an answer as it arrives, flushing after every read so that
// a relayed stream's events are not held back.
func relay(w http.ResponseWriter, body io.Reader) {
	f, _ := w.(http.Flusher)
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			if f != nil {
				f.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}

// hopByHop are the headers a proxy does not pass on (RFC 9110 §7.6.1), and
// the length, which the relay sets itself.
var hopByHop = map[string]bool{"Connection": true, "Keep-Alive": true, "Proxy-Connection": true, "Te": true,
	"Trailer": true, "Transfer-Encoding": true, "Upgrade": true, "Content-Length": true}

// taskNamed is the id of the existing task a binding request is about: the
// path's on HTTP+JSON (/tasks/{id}…), else the JSON-RPC params' id or
// taskId, else the message's taskId; "" for a request about no task.
func taskNamed(r *http.Request, body []byte) string {
	path := stripGeneration(r.URL.EscapedPath())
	if rel, ok := strings.CutPrefix(path, RESTPath); ok {
		if route, ok := matchREST(rel); ok && route.taskID != "" {
			return route.taskID
		}
	}
	var req struct {
		Method  string `json:"method"`
		Params  *named `json:"params"`
		Message *struct {
			TaskID string `json:"taskId"`
		} `json:"message"`
	}
	if json.Unmarshal(body, &req) != nil {
		return ""
	}
	if p := req.Params; p != nil {
		switch {
		case p.Message != nil && p.Message.TaskID != "":
			return p.Message.TaskID
		case p.TaskID != "":
			return p.TaskID
		case req.Method == "GetTask" || req.Method == "CancelTask" || req.Method == "SubscribeToTask":
			return p.ID
		}
		return ""
	}
	if req.Message != nil {
		return req.Message.TaskID // HTTP+JSON /message:send and :stream
	}
	return ""
}

type named struct {
	ID      string `json:"id"`
	TaskID  string `json:"taskId"`
	Message *struct {
		TaskID string `json:"taskId"`
	} `json:"message"`
}

// newForwarder is the client that relays requests: no overall timeout (a
// relayed stream lasts as long as its task), redirects not followed.
func newForwarder() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

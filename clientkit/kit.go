// Package clientkit is the a2a-conform driver kit for Go: the pieces of a
// client driver (docs/client-driver.md) that A2A SDKs leave to the
// application, so that a driver is its SDK's calls alone.
//
//   - Contract reads the A2A_CONFORM_* variables.
//   - Report is the one JSON result line, with the state rule every driver
//     needs: the state the client believes, and no state but CANCELED taken
//     after its own acknowledged cancel.
//   - Receive serves the push receiver with the contract's token check (401
//     without it); Handler is the same receiver for a driver that mounts it
//     in a server of its own.
//   - Classify maps what the SDK returned to the contract's error classes
//     through a table the driver fills in.
//
// A result printed by the kit says so ("supplied"): the verdicts that rest
// only on these pieces judge the kit, not your client, and are reported
// not-applicable. The kit has no dependency beyond the standard library.
package clientkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Env is the driver's part of the contract.
type Env struct {
	Action, CardURL, Text, FollowUpText  string
	WebhookListen, WebhookURL, PushToken string
	Tenant                               string
	// Case names the case, for the driver's log only: a driver must not
	// branch on it.
	Case string
	// Timeout is the driver's whole budget; Context leaves time to print.
	Timeout time.Duration
}

// Contract reads the A2A_CONFORM_* variables (getenv: os.Getenv when nil).
func Contract(getenv func(string) string) Env {
	if getenv == nil {
		getenv = os.Getenv
	}
	e := Env{Action: getenv("A2A_CONFORM_ACTION"), CardURL: getenv("A2A_CONFORM_CARD_URL"),
		Text: getenv("A2A_CONFORM_TEXT"), FollowUpText: getenv("A2A_CONFORM_FOLLOWUP_TEXT"),
		WebhookListen: getenv("A2A_CONFORM_WEBHOOK_LISTEN"), WebhookURL: getenv("A2A_CONFORM_WEBHOOK_URL"),
		PushToken: getenv("A2A_CONFORM_PUSH_TOKEN"), Tenant: getenv("A2A_CONFORM_TENANT"), Case: getenv("A2A_CONFORM_CASE"),
		Timeout: 20 * time.Second}
	if n, err := strconv.Atoi(getenv("A2A_CONFORM_TIMEOUT")); err == nil && n > 0 {
		e.Timeout = time.Duration(n) * time.Second
	}
	return e
}

// Context is a context that ends a quarter of the budget (at least 1.5 s)
// before the harness's deadline, so that the result line is printed in
// time: the harness counts from its launch of the driver, and a loaded
// machine can take seconds to start one (a driver that waited to within
// 1.5 s of the end was killed first in CI).
func (e Env) Context(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, max(time.Second, e.Timeout-max(1500*time.Millisecond, e.Timeout/4)))
}

// Terminal and Stops say whether a state (its JSON name, TASK_STATE_…) ends
// a task, or ends a turn (terminal or interrupted).
func Terminal(s string) bool {
	switch s {
	case "TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED":
		return true
	}
	return false
}

func Stops(s string) bool {
	return Terminal(s) || s == "TASK_STATE_INPUT_REQUIRED" || s == "TASK_STATE_AUTH_REQUIRED"
}

// Event is one thing the client saw.
type Event struct {
	Via    string `json:"via"`
	Kind   string `json:"kind"`
	TaskID string `json:"taskId"`
	State  string `json:"state"`
	Final  bool   `json:"final"`
}

// Error is what the client raised.
type Error struct {
	Class   string `json:"class"`
	Message string `json:"message"`
}

// Interface is the interface the client chose.
type Interface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
}

// Report is the result line, safe for use by a receiver and the driver at
// once.
type Report struct {
	mu                sync.Mutex
	Action            string            `json:"action"`
	TaskID            string            `json:"taskId"`
	ContextID         string            `json:"contextId"`
	State             string            `json:"state"`
	Err               *Error            `json:"error"`
	Events            []Event           `json:"events"`
	ResubmittedTaskID string            `json:"resubmittedTaskId,omitempty"`
	Interface         *Interface        `json:"interface"`
	Warnings          []string          `json:"warnings"`
	Supplied          map[string]string `json:"supplied"`
	canceled          bool
}

// NewReport starts the result of one action; the client's state rule is the
// kit's.
func NewReport(action string) *Report {
	return &Report{Action: action, Events: []Event{}, Warnings: []string{}, Supplied: map[string]string{"client-state": "kit"}}
}

// Event records one thing the client saw: via response, stream, poll, push,
// list or card; kind task, status, artifact, message or card; the task it
// names and the state it carries ("" if none). The first task seen through
// the client's own calls (not a push, not a list) is its task; a state of
// its task is taken through the state rule (Believe).
func (r *Report) Event(via, kind, taskID, state, contextID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.record(via, kind, taskID, state, contextID) && state != "" {
		r.believe(via, state)
	}
}

// Record is Event without the state rule: what the client saw, and which
// task is its own, but the state it believes is left to the driver
// (SetState). For a client that keeps its task's state itself: its driver
// then says so in Supplied ("driver" or "sdk").
func (r *Report) Record(via, kind, taskID, state, contextID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.record(via, kind, taskID, state, contextID)
}

// record appends the event and says whether it names the client's task.
func (r *Report) record(via, kind, taskID, state, contextID string) bool {
	r.Events = append(r.Events, Event{Via: via, Kind: kind, TaskID: taskID, State: state, Final: Stops(state)})
	if taskID != "" && r.TaskID == "" && via != "push" && via != "list" {
		r.TaskID = taskID
	}
	if taskID == "" || taskID != r.TaskID {
		return false
	}
	if contextID != "" {
		r.ContextID = contextID
	}
	return true
}

// Believe takes a state of the client's task, unless its own cancel was
// acknowledged and the state is not CANCELED (scenario 3: a task canceled
// neither runs nor completes afterwards); it reports whether it took it. A
// refused terminal state is said in a warning; so is a refused other one
// (a stale WORKING after the acknowledgement, say).
func (r *Report) Believe(via, state string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.believe(via, state)
}

func (r *Report) believe(via, state string) bool {
	if r.canceled && state != "TASK_STATE_CANCELED" {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s said %s after the client's own cancel was acknowledged: not taken", via, state))
		return false
	}
	r.State = state
	return true
}

// SetState records the state the client believes as its own code (or its
// SDK) decided it, without the state rule: "" when it believes none (a task
// it found lost). A driver that reports a state this way supplies the
// client's state itself, and says so in Supplied.
func (r *Report) SetState(state string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.State = state
}

// CancelAcknowledged is called with the state the agent answered the
// client's CancelTask with. CANCELED acknowledges the cancel, and the state
// rule holds from then on; any other answer (the task ended before the
// cancel reached it) does not.
func (r *Report) CancelAcknowledged(state string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if state == "TASK_STATE_CANCELED" {
		r.canceled = true
	}
}

// Resubmitted records that the client re-submitted its task, lost, as the
// new task taskID (in context contextID, if known): the new task is the
// client's task from now on (resubmittedTaskId), with no state believed of
// it until one is seen, and no cancel of it acknowledged.
func (r *Report) Resubmitted(taskID, contextID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.TaskID, r.ResubmittedTaskID, r.State, r.canceled = taskID, taskID, "", false
	if contextID != "" {
		r.ContextID = contextID
	}
}

// Believed returns the client's task, context and the state it believes.
func (r *Report) Believed() (taskID, contextID, state string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.TaskID, r.ContextID, r.State
}

// Warn records something the client raised without failing.
func (r *Report) Warn(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// UsedInterface records the interface the client chose.
func (r *Report) UsedInterface(url, binding string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Interface = &Interface{URL: url, ProtocolBinding: binding}
}

// Fail records what the client raised, classified through table.
func (r *Report) Fail(err error, table []Rule) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var msgs []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		msgs = append(msgs, e.Error())
		if len(msgs) == 8 {
			break
		}
	}
	r.Err = &Error{Class: Classify(err, table), Message: strings.Join(msgs, " <- ")}
}

// Print writes the one JSON line the harness reads.
func (r *Report) Print(w io.Writer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// Rule maps the errors Match accepts to Class (task-not-found,
// unsupported-operation, invalid-params, protocol, transport, auth, parse,
// timeout, other).
type Rule struct {
	Match func(error) bool
	Class string
}

// Classify returns the class of the first rule that matches err or any error
// it wraps; "timeout" for a deadline the driver ran out of; "other" when no
// rule matches.
func Classify(err error, table []Rule) string {
	for _, rule := range table {
		for e := err; e != nil; e = errors.Unwrap(e) {
			if rule.Match(e) {
				return rule.Class
			}
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timeout"
	}
	return "other"
}

// Push is one push the receiver took: the task, state and kind its body
// carries (a StreamResponse in its JSON form), and the body itself.
type Push struct {
	Kind, TaskID, ContextID, State string
	Body                           json.RawMessage
}

// Receiver is a running push receiver.
type Receiver struct {
	srv *http.Server
	ln  net.Listener
}

// Receive serves the push receiver (Handler) on env.WebhookListen.
func Receive(env Env, report *Report, onPush func(Push)) (*Receiver, error) {
	h := Handler(env, report, onPush)
	ln, err := net.Listen("tcp", env.WebhookListen)
	if err != nil {
		return nil, err
	}
	rv := &Receiver{srv: &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}, ln: ln}
	go func() { _ = rv.srv.Serve(ln) }()
	return rv, nil
}

// Close stops the receiver, letting a push being answered get its answer
// (up to a second): an agent whose push was cut reads a lost delivery, not
// the receiver's answer.
func (rv *Receiver) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := rv.srv.Shutdown(ctx); err != nil {
		return rv.srv.Close()
	}
	return nil
}

// Handler is the push receiver, for a driver that serves it in a server of
// its own (behind its own mux or middleware; Receive serves it alone): a
// POST whose token (X-A2A-Notification-Token, A2A-Notification-Token, or
// Authorization: Bearer) is not env.PushToken is answered 401 and not
// passed on; any other readable one (a JSON body up to 1 MiB) is passed to
// onPush, then answered 200: a push the agent saw acknowledged is one the
// client already holds. It marks the report's receiver as the kit's.
func Handler(env Env, report *Report, onPush func(Push)) http.Handler {
	if report != nil {
		report.mu.Lock()
		report.Supplied["push-receiver"] = "kit"
		report.mu.Unlock()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		got := r.Header.Get("X-A2A-Notification-Token")
		if got == "" {
			got = r.Header.Get("A2A-Notification-Token")
		}
		if got == "" {
			if a, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
				got = a
			}
		}
		if got != env.PushToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20+1))
		if err != nil || len(body) > 1<<20 || !json.Valid(body) {
			if report != nil {
				report.Warn("unreadable push (%d bytes)", len(body))
			}
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		onPush(PushState(body))
		w.WriteHeader(http.StatusOK)
	})
}

// PushState reads the task, state and kind out of a push body.
func PushState(body []byte) Push {
	var doc struct {
		Task *struct {
			ID        string `json:"id"`
			ContextID string `json:"contextId"`
			Status    struct {
				State string `json:"state"`
			} `json:"status"`
		} `json:"task"`
		StatusUpdate *struct {
			TaskID    string `json:"taskId"`
			ContextID string `json:"contextId"`
			Status    struct {
				State string `json:"state"`
			} `json:"status"`
		} `json:"statusUpdate"`
		ArtifactUpdate *struct {
			TaskID    string `json:"taskId"`
			ContextID string `json:"contextId"`
		} `json:"artifactUpdate"`
		Message *struct {
			TaskID    string `json:"taskId"`
			ContextID string `json:"contextId"`
		} `json:"message"`
	}
	p := Push{Body: append(json.RawMessage(nil), body...)}
	if json.Unmarshal(body, &doc) != nil {
		return p
	}
	switch {
	case doc.Task != nil:
		p.Kind, p.TaskID, p.ContextID, p.State = "task", doc.Task.ID, doc.Task.ContextID, doc.Task.Status.State
	case doc.StatusUpdate != nil:
		p.Kind, p.TaskID, p.ContextID, p.State = "status", doc.StatusUpdate.TaskID, doc.StatusUpdate.ContextID, doc.StatusUpdate.Status.State
	case doc.ArtifactUpdate != nil:
		p.Kind, p.TaskID, p.ContextID = "artifact", doc.ArtifactUpdate.TaskID, doc.ArtifactUpdate.ContextID
	case doc.Message != nil:
		p.Kind, p.TaskID, p.ContextID = "message", doc.Message.TaskID, doc.Message.ContextID
	}
	return p
}

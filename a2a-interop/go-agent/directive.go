package main

// The a2a-conform directive extension (docs/directive-extension.md): the
// data part that scripts a task, checked before the SDK creates anything,
// and the executor that runs the script through the SDK's own task
// machinery (its task store, event queues, streams and push sender).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

const (
	directiveURI   = "https://a2a-conform.dev/extensions/directive/v1"
	directiveKey   = "a2aConformDirective"
	maxDelayMs     = 600000
	maxChunks      = 100
	maxTextBytes   = 64 * 1024
	outcomeMessage = "message"
)

// directiveVersions are the directive format versions this agent implements.
var directiveVersions = []int{1}

// outcomes maps a directive outcome to the task's final state ("" for a
// Message reply).
var outcomes = map[string]a2a.TaskState{
	"completed":      a2a.TaskStateCompleted,
	"failed":         a2a.TaskStateFailed,
	"rejected":       a2a.TaskStateRejected,
	"input-required": a2a.TaskStateInputRequired,
	"auth-required":  a2a.TaskStateAuthRequired,
	outcomeMessage:   "",
}

// directive is a validated directive, its defaults filled in.
type directive struct {
	outcome string
	delay   time.Duration
	chunks  int
	text    *string // nil: the message's own text
}

// plain is what a message without a directive part does: {"version": 1}.
var plain = directive{outcome: "completed", chunks: 1}

// invalid is an InvalidParams error (-32602, HTTP 400) saying why.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", a2a.ErrInvalidParams, fmt.Sprintf(format, args...))
}

// findDirective returns the message's directive, plain when it has none, or
// an InvalidParams error for one the extension says to refuse.
func findDirective(msg *a2a.Message) (directive, error) {
	if msg == nil {
		return plain, nil
	}
	var found *directive
	for _, p := range msg.Parts {
		data, ok := p.Content.(a2a.Data)
		if !ok {
			continue
		}
		obj, ok := data.Value.(map[string]any)
		if !ok {
			continue
		}
		raw, ok := obj[directiveKey]
		if !ok {
			continue
		}
		if found != nil {
			return directive{}, invalid("more than one a2a-conform directive part in the message")
		}
		d, err := parseDirective(raw)
		if err != nil {
			return directive{}, err
		}
		found = &d
	}
	if found == nil {
		return plain, nil
	}
	return *found, nil
}

func parseDirective(raw any) (directive, error) {
	obj, ok := raw.(map[string]any)
	if !ok {
		return directive{}, invalid("invalid a2a-conform directive: not an object")
	}
	version, ok := integer(obj["version"])
	if !ok || !supported(version) {
		v, _ := json.Marshal(obj["version"])
		return directive{}, invalid("unsupported a2a-conform directive version %s (this agent implements %v)", v, directiveVersions)
	}
	d := directive{outcome: "completed"}
	if v, present := obj["outcome"]; present {
		s, ok := v.(string)
		if _, known := outcomes[s]; !ok || !known {
			return directive{}, invalid("invalid a2a-conform directive: unknown outcome %v", v)
		}
		d.outcome = s
	}
	delay, err := bounded(obj, "delayMs", 0, 0, maxDelayMs)
	if err != nil {
		return directive{}, err
	}
	d.delay = time.Duration(delay) * time.Millisecond
	defChunks := 0
	if d.outcome == "completed" {
		defChunks = 1
	}
	if d.chunks, err = bounded(obj, "artifactChunks", defChunks, 0, maxChunks); err != nil {
		return directive{}, err
	}
	if v, present := obj["text"]; present {
		s, ok := v.(string)
		if !ok || len(s) > maxTextBytes {
			return directive{}, invalid("invalid a2a-conform directive: text must be a string of at most 64 KiB")
		}
		d.text = &s
	}
	return d, nil
}

// integer reads a JSON number that is a whole number.
func integer(v any) (int, bool) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case json.Number:
		var err error
		if f, err = n.Float64(); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	if f != math.Trunc(f) || math.Abs(f) > 1e15 {
		return 0, false
	}
	return int(f), true
}

func bounded(obj map[string]any, key string, def, lo, hi int) (int, error) {
	v, present := obj[key]
	if !present {
		return def, nil
	}
	n, ok := integer(v)
	if !ok || n < lo || n > hi {
		return 0, invalid("invalid a2a-conform directive: %s %v out of range %d..%d", key, v, lo, hi)
	}
	return n, nil
}

func supported(v int) bool {
	for _, s := range directiveVersions {
		if s == v {
			return true
		}
	}
	return false
}

// ---- the check before the SDK creates a task ------------------------------

// directiveCheck is a CallInterceptor (the SDK's own extension point) that
// refuses an invalid directive before the SDK creates a task or stores a
// message: an InvalidParams error, no task (docs/directive-extension.md,
// "Errors"). A follow-up to a task that is unknown or terminal is left to
// the SDK, whose own rules answer it first.
type directiveCheck struct {
	store taskstore.Store
	ext   *a2a.AgentExtension
}

func (c *directiveCheck) Before(ctx context.Context, callCtx *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	switch callCtx.Method() {
	case "SendMessage", "SendStreamingMessage":
	default:
		return ctx, nil, nil
	}
	send, ok := req.Payload.(*a2a.SendMessageRequest)
	if !ok || send == nil || send.Message == nil {
		return ctx, nil, nil
	}
	if id := send.Message.TaskID; id != "" {
		stored, err := c.store.Get(ctx, id)
		if err != nil || stored.Task.Status.State.Terminal() {
			return ctx, nil, nil
		}
	}
	if _, err := findDirective(send.Message); err != nil {
		return ctx, nil, err
	}
	callCtx.Extensions().Activate(c.ext)
	return ctx, nil, nil
}

func (c *directiveCheck) After(context.Context, *a2asrv.CallContext, *a2asrv.Response) error {
	return nil
}

// ---- the executor ----------------------------------------------------------

// scriptExecutor is the AgentExecutor: it runs each task's directive,
// yielding the events to the SDK, which stores them, streams them and
// pushes them. A cancel is the SDK's: it writes CANCELED (Cancel below) into
// the running execution's event pipe, the SDK ends the execution, and the
// script's next yield or wait stops.
type scriptExecutor struct {
	active atomic.Int64
	// stopping is closed when the instance's drain is over: the scripts still
	// running end FAILED.
	stopping chan struct{}
	stopOnce sync.Once
}

func newScriptExecutor() *scriptExecutor {
	return &scriptExecutor{stopping: make(chan struct{})}
}

var errShutDown = errors.New("shut down")

// wait sleeps d, or stops early: the execution's context ended (the SDK
// finished it, after a cancel) or the instance shut down.
func (e *scriptExecutor) wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-e.stopping:
		return errShutDown
	}
}

func (e *scriptExecutor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		e.active.Add(1)
		defer e.active.Add(-1)

		d, err := findDirective(ec.Message)
		if err != nil {
			yield(nil, err)
			return
		}
		text := messageText(ec.Message)
		if d.text != nil {
			text = *d.text
		}

		if d.outcome == outcomeMessage {
			if e.wait(ctx, d.delay) != nil {
				return
			}
			reply := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(text))
			reply.ContextID = ec.ContextID
			yield(reply, nil)
			return
		}

		// step: wait, then yield; false when the script must stop.
		step := func(ev a2a.Event) bool {
			if err := e.wait(ctx, d.delay); err != nil {
				if errors.Is(err, errShutDown) {
					yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateFailed,
						agentMessage(ec, "the agent instance shut down before the task finished")), nil)
				}
				return false
			}
			return yield(ev, nil)
		}

		if ec.StoredTask == nil {
			if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
				return
			}
			if !step(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil)) {
				return
			}
		} else if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) {
			// A follow-up to an interrupted task: WORKING at once.
			return
		}

		var artifactID a2a.ArtifactID
		for i := 1; i <= d.chunks; i++ {
			part := a2a.NewTextPart(chunk(text, i, d.chunks))
			var ev *a2a.TaskArtifactUpdateEvent
			if i == 1 {
				ev = a2a.NewArtifactEvent(ec, part)
				ev.Artifact.Name = "result"
				artifactID = ev.Artifact.ID
			} else {
				ev = a2a.NewArtifactUpdateEvent(ec, artifactID, part)
			}
			ev.LastChunk = i == d.chunks
			if !step(ev) {
				return
			}
		}

		final := outcomes[d.outcome]
		var status *a2a.Message
		if sentence, ok := statusSentences[final]; ok {
			if d.text != nil {
				sentence = *d.text
			}
			status = agentMessage(ec, sentence)
		}
		step(a2a.NewStatusUpdateEvent(ec, final, status))
	}
}

// statusSentences are the status messages of the outcomes that need one
// when the directive gives no text (interrupted states MUST have one).
var statusSentences = map[a2a.TaskState]string{
	a2a.TaskStateFailed:        "the directive asked this task to fail",
	a2a.TaskStateRejected:      "the directive asked this task to be rejected",
	a2a.TaskStateInputRequired: "the directive asks for input: send any message to continue",
	a2a.TaskStateAuthRequired:  "the directive asks for authorization: send any message to continue",
}

// Cancel answers a cancel with CANCELED; the SDK decides whether the task
// can still be canceled, and stops the running execution.
func (e *scriptExecutor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled,
			agentMessage(ec, "canceled at the client's request")), nil)
	}
}

// stop ends the scripts still running (FAILED) and gives the SDK grace to
// store and push that last event.
func (e *scriptExecutor) stop(grace time.Duration) {
	e.stopOnce.Do(func() { close(e.stopping) })
	time.Sleep(grace)
}

func agentMessage(ec *a2asrv.ExecutorContext, text string) *a2a.Message {
	return a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart(text))
}

// messageText is the message's text parts joined with "\n".
func messageText(msg *a2a.Message) string {
	if msg == nil {
		return ""
	}
	var texts []string
	for _, p := range msg.Parts {
		if t, ok := p.Content.(a2a.Text); ok {
			texts = append(texts, string(t))
		}
	}
	return strings.Join(texts, "\n")
}

// chunk is the i-th (1-based) of n nearly equal pieces of s, split on
// character boundaries; the pieces concatenated are s.
func chunk(s string, i, n int) string {
	r := []rune(s)
	return string(r[len(r)*(i-1)/n : len(r)*i/n])
}

package fakes

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// The operations, independent of the binding: jsonrpc.go and rest.go decode
// requests into the a2a request types, call these, and render the result.

// ListTasks page sizes (spec §3.1.4): default 50, allowed 1..100. Out of
// range is rejected rather than clamped (the §6.5 example shows a 400).
const (
	defaultPageSize = 50
	maxPageSize     = 100
)

// checkVersion applies A2A-Version (header, else query parameter; spec §3.6).
// Patch numbers are ignored. An absent header means 0.3 per the spec; this
// agent accepts it as 1.0 unless Options.StrictVersion.
func (a *Agent) checkVersion(r *http.Request) *opError {
	if a.faults.has(faultNoVersionCheck) {
		return nil
	}
	v := strings.TrimSpace(r.Header.Get("A2A-Version"))
	if v == "" {
		v = strings.TrimSpace(r.URL.Query().Get("A2A-Version"))
	}
	if v == "" {
		if a.opts.StrictVersion {
			e := errVersion("")
			e.message = "A2A-Version is missing, which means 0.3 (spec §3.6); this agent speaks only " + a2a.ProtocolVersion
			return e
		}
		return nil
	}
	parts := strings.Split(v, ".")
	if len(parts) >= 2 && len(parts) <= 3 && parts[0] == "1" && parts[1] == "0" {
		if len(parts) == 2 {
			return nil
		}
		if _, err := strconv.Atoi(parts[2]); err == nil {
			return nil
		}
	}
	return errVersion(truncate(v, 32))
}

func (a *Agent) taskNotFound(id string) *opError {
	if a.faults.has(faultWrongErrorCodeUnknownTask) {
		return errInvalidParams("id", "no task with id %q", id)
	}
	return errTaskNotFound(id)
}

// loadTask reads a task as the API sees it: a task the caller may not see
// (another identity's, fakes/identity.go) is answered as an unknown id.
func (a *Agent) loadTask(ctx context.Context, id string) (*store.Task, *opError) {
	rec, err := a.st.GetTask(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, a.taskNotFound(id)
	}
	if err != nil {
		return nil, a.storeError(err)
	}
	if !a.mayAccess(ctx, rec) && !(a.visible(rec) && a.faults.has(faultOtherIdentityTaskReadable)) {
		return nil, a.hiddenTask(rec, id)
	}
	return rec, nil
}

func validateMessage(m *a2a.Message) *opError {
	if m == nil {
		return errInvalidParams("message", "message is required")
	}
	if m.MessageID == "" {
		return errInvalidParams("message.messageId", "message.messageId is required")
	}
	if m.Role != a2a.RoleUser {
		return errInvalidParams("message.role", "message.role must be ROLE_USER, got %q", truncate(string(m.Role), 40))
	}
	if len(m.Parts) == 0 {
		return errInvalidParams("message.parts", "message.parts needs at least one part")
	}
	for i, p := range m.Parts {
		if keys := p.ContentKeys(); len(keys) != 1 {
			return errInvalidParams(fmt.Sprintf("message.parts[%d]", i),
				"a part needs exactly one of text, raw, url, data; got %d", len(keys))
		}
		if err := acceptMediaType(p); err != nil {
			return err
		}
	}
	return nil
}

// acceptMediaType enforces the card's defaultInputModes (text/plain,
// application/json): anything else is ContentTypeNotSupportedError.
func acceptMediaType(p a2a.Part) *opError {
	mt := strings.ToLower(strings.TrimSpace(strings.Split(p.MediaType, ";")[0]))
	switch {
	case mt == "":
		return nil
	case strings.HasPrefix(mt, "text/"), mt == "application/json", strings.HasSuffix(mt, "+json"):
		return nil
	}
	return errContentType(truncate(p.MediaType, 100))
}

func validateHistoryLength(field string, n *int32) *opError {
	if n != nil && *n < 0 {
		return errInvalidParams(field, "%s must not be negative", field)
	}
	return nil
}

func validateConfigBody(c *a2a.TaskPushNotificationConfig, field string) *opError {
	if err := validWebhookURL(c.URL); err != nil {
		return errInvalidParams(field+"url", "%v", err)
	}
	if c.Authentication != nil && c.Authentication.Scheme == "" {
		return errInvalidParams(field+"authentication.scheme", "authentication.scheme is required")
	}
	if len(c.ID) > 256 || len(c.Token) > 4096 || (c.Authentication != nil && len(c.Authentication.Credentials) > 4096) {
		return errInvalidParams(field, "push config id, token or credentials too long")
	}
	return nil
}

// sendResult is what SendMessage produced: a Message reply, or a task.
type sendResult struct {
	message       *a2a.Message
	task          *store.Task
	historyLength *int32
	// stream is set for SendStreamingMessage.
	stream *eventStream
}

// send implements SendMessage and SendStreamingMessage.
func (a *Agent) send(ctx context.Context, req *a2a.SendMessageRequest, streaming bool) (*sendResult, *opError) {
	if streaming && !a.doStreaming {
		return nil, errUnsupported("Streaming is not supported by this agent")
	}
	if req.Message == nil && a.faults.has(faultAcceptMissingMessage) {
		req.Message = stubMessage()
	}
	if err := a.mediaTypeChecked(validateMessage(req.Message)); err != nil {
		return nil, err
	}
	if err := a.rejectUnknown(req.Extra, req.Message.Extra); err != nil {
		return nil, err
	}
	cfg := req.Configuration
	if cfg == nil {
		cfg = &a2a.SendMessageConfiguration{}
	}
	if err := validateHistoryLength("configuration.historyLength", cfg.HistoryLength); err != nil {
		return nil, err
	}
	inline := cfg.TaskPushNotificationConfig
	if inline != nil {
		if !a.doPush {
			return nil, errPushNotSupported()
		}
		if err := validateConfigBody(inline, "configuration.taskPushNotificationConfig."); err != nil {
			return nil, err
		}
		if err := a.webhookAllowed(inline.URL, "configuration.taskPushNotificationConfig.url"); err != nil {
			return nil, err
		}
	}
	if a.draining.Load() {
		return nil, errUnavailable("the agent instance is shutting down")
	}
	msg := *req.Message
	d, text, oe := a.behaviourFor(&msg)
	if oe != nil {
		return nil, oe
	}
	if d.EffectiveOutcome() == directive.OutcomeMessage {
		return a.replyMessage(ctx, msg, d, text, streaming)
	}

	id := msg.TaskID
	if id == "" {
		id = newID()
	}
	blocking := (!cfg.ReturnImmediately || a.faults.has(faultReturnImmediatelyIgnored)) && !a.faults.has(faultNonBlockingDefault)
	var sub *subscription
	if streaming || blocking {
		// Subscribed before the first write, so no event can be missed.
		sub = a.hub.subscribe(id)
	}
	var rec *store.Task
	if msg.TaskID == "" {
		rec, oe = a.createTask(ctx, id, msg, d, text, inline, false)
	} else {
		rec, oe = a.continueTask(ctx, msg, d, text, inline)
		notFound := oe != nil && (oe.kind == a2a.ErrTaskNotFound || oe.field == "id")
		if notFound && (a.faults.has(faultAcceptUnknownTaskID) || a.faults.has(faultLoseTasksOnRestart)) {
			msg.ContextID = ""
			rec, oe = a.createTask(ctx, id, msg, d, text, inline, true)
		} else if notFound && a.losesTasks() {
			rec, oe = a.lostFollowUp(ctx, msg, d, text, inline, id, oe)
			if oe == nil && rec.Task.ID != id && sub != nil {
				// Answered with another task: its events, not the named one's.
				sub.close()
				sub = a.hub.subscribe(rec.Task.ID)
			}
		}
	}
	if oe != nil {
		if sub != nil {
			sub.close()
		}
		return nil, oe
	}
	if streaming {
		return &sendResult{stream: a.claim(&eventStream{
			first: []a2a.StreamResponse{{Task: &rec.Task}},
			sub:   sub, after: rec.Version, closeOnInterrupted: true,
		})}, nil
	}
	if !blocking {
		if d := a.opts.AnswerLatency; d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
			}
		}
		return &sendResult{task: rec, historyLength: cfg.HistoryLength}, nil
	}
	defer sub.close()
	rec, oe = a.waitSettled(ctx, sub, rec)
	if oe != nil {
		return nil, oe
	}
	return &sendResult{task: rec, historyLength: cfg.HistoryLength}, nil
}

// replyMessage answers with a Message and creates no task (outcome message).
func (a *Agent) replyMessage(ctx context.Context, msg a2a.Message, d directive.Directive, text string, streaming bool) (*sendResult, *opError) {
	contextID := msg.ContextID
	if msg.TaskID != "" {
		rec, oe := a.loadTask(ctx, msg.TaskID)
		if oe != nil {
			return nil, oe
		}
		if st := rec.Task.Status.State; st.Terminal() {
			return nil, errUnsupported(fmt.Sprintf("Task %s is in terminal state %s: it accepts no more messages", rec.Task.ID, st))
		}
		contextID = rec.Task.ContextID
	}
	if contextID == "" {
		contextID = newID()
	}
	if d.Delay() > 0 {
		t := time.NewTimer(d.Delay())
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, errUnavailable("request canceled")
		}
	}
	reply := agentMessage(msg.TaskID, contextID, text)
	if streaming {
		first := []a2a.StreamResponse{{Message: reply}}
		if a.faults.has(faultStreamMessageThenMore) {
			first = splitReply(reply)
		}
		return &sendResult{stream: &eventStream{first: first}}, nil
	}
	return &sendResult{message: reply}, nil
}

// waitSettled blocks until the task is terminal or interrupted (spec §3.2.2),
// the client gives up, or maxBlockingWait passes (then the current task is
// returned as it is). Events wake it; a slow poll covers events it could not
// see (an instance whose tailer lags).
func (a *Agent) waitSettled(ctx context.Context, sub *subscription, rec *store.Task) (*store.Task, *opError) {
	deadline := time.NewTimer(maxBlockingWait)
	defer deadline.Stop()
	poll := time.NewTicker(250 * time.Millisecond)
	defer poll.Stop()
	for {
		if st := rec.Task.Status.State; st.Terminal() || st.Interrupted() {
			return rec, nil
		}
		select {
		case <-sub.ready:
			if _, closed := sub.take(); closed {
				return rec, nil
			}
		case <-poll.C:
		case <-deadline.C:
			return rec, nil
		case <-ctx.Done():
			return nil, errUnavailable("request canceled")
		}
		cur, err := a.st.GetTask(ctx, rec.Task.ID)
		if err != nil {
			return nil, a.storeError(err)
		}
		rec = cur
	}
}

// eventStream is an SSE stream: first events, then the task's events from
// the hub newer than version after, until a terminal state (or, for
// SendStreamingMessage, INPUT_REQUIRED: the turn is over, as a blocking
// SendMessage would return; AUTH_REQUIRED keeps it, keepsStreamIn).
type eventStream struct {
	first              []a2a.StreamResponse
	sub                *subscription
	after              int64
	closeOnInterrupted bool
	// muted and release belong to stream-first-subscriber-only (see claim).
	muted   bool
	release func()
}

// sendOrStream runs SendMessage or SendStreamingMessage for either binding:
// a body to write, or a stream to pump.
func (a *Agent) sendOrStream(ctx context.Context, req *a2a.SendMessageRequest, streaming bool) ([]byte, *eventStream, *opError) {
	res, oe := a.send(ctx, req, streaming)
	if oe != nil {
		return nil, nil, oe
	}
	if res.stream != nil {
		return nil, res.stream, nil
	}
	return a.sendBody(res), nil, nil
}

// body renders SendMessageResponse: {"task":…} or {"message":…}.
func (a *Agent) sendBody(r *sendResult) []byte {
	if r.message != nil {
		b, _ := json.Marshal(a2a.SendMessageResponse{Message: r.message})
		return b
	}
	return append(append([]byte(`{"task":`), a.taskJSON(r.task.Task, r.historyLength, artifactsAsStored)...), '}')
}

func (a *Agent) getTask(ctx context.Context, req *a2a.GetTaskRequest) ([]byte, *opError) {
	if req.ID == "" {
		return nil, errInvalidParams("id", "id is required")
	}
	if err := validateHistoryLength("historyLength", req.HistoryLength); err != nil {
		return nil, err
	}
	if err := a.rejectUnknown(req.Extra); err != nil {
		return nil, err
	}
	rec, oe := a.loadTask(ctx, req.ID)
	if oe != nil {
		return nil, oe
	}
	return a.taskJSON(rec.Task, req.HistoryLength, artifactsAsStored), nil
}

func (a *Agent) cancel(ctx context.Context, req *a2a.CancelTaskRequest) ([]byte, *opError) {
	if req.ID == "" {
		return nil, errInvalidParams("id", "id is required")
	}
	if d := a.opts.CancelLatency; d > 0 {
		select {
		case <-ctx.Done():
			return nil, errUnavailable("the cancel was abandoned")
		case <-time.After(d):
		}
	}
	if a.opts.AsyncCancel > 0 {
		rec, oe := a.cancelAsync(ctx, req.ID)
		if oe != nil {
			return nil, oe
		}
		return a.taskJSON(rec.Task, nil, artifactsAsStored), nil
	}
	rec, oe := a.cancelTask(ctx, req.ID)
	if oe != nil {
		return nil, oe
	}
	if rec.Task.Status.State == a2a.TaskStateCanceled {
		a.lateAfterCancel(rec.Task.ID)
	}
	return a.taskJSON(rec.Task, nil, artifactsAsStored), nil
}

func (a *Agent) subscribe(ctx context.Context, req *a2a.SubscribeToTaskRequest) (*eventStream, *opError) {
	if !a.doStreaming {
		return nil, errUnsupported("Streaming is not supported by this agent")
	}
	if req.ID == "" {
		return nil, errInvalidParams("id", "id is required")
	}
	sub := a.hub.subscribe(req.ID)
	rec, oe := a.loadTask(ctx, req.ID)
	if oe != nil {
		sub.close()
		return nil, oe
	}
	if a.faults.has(faultSubscribeUnknownOnReplica) && a.runsElsewhere(rec, time.Now()) {
		// The stream queue lives with the executor, on another instance.
		sub.close()
		return nil, a.taskNotFound(req.ID)
	}
	st := rec.Task.Status.State
	if st.Terminal() && !a.faults.has(faultSubscribeTerminalAllowed) {
		sub.close()
		return nil, errUnsupported(fmt.Sprintf("Task %s is in terminal state %s: there is nothing to subscribe to", rec.Task.ID, st))
	}
	if a.opts.OneStreamPerTask && !st.Terminal() && a.streamOpen(req.ID) {
		sub.close()
		return nil, errUnsupported(fmt.Sprintf("Task %s already has an open stream: this agent serves one stream per task", rec.Task.ID))
	}
	es := &eventStream{sub: sub, after: rec.Version}
	if !a.faults.has(faultSubscribeNoSnapshot) {
		es.first = []a2a.StreamResponse{{Task: &rec.Task}}
	}
	if st.Terminal() {
		sub.close()
		es.sub = nil
	}
	return a.claim(es), nil
}

type artifactMode int

const (
	artifactsAsStored artifactMode = iota
	artifactsOmitted
	artifactsPresent // even when empty: includeArtifacts=true
)

// wireTask is a2a.Task with artifacts presence under control: ListTasks must
// omit the member when includeArtifacts is false and should send it (even
// empty) when true (A2A v1.0 §3.1.4).
type wireTask struct {
	ID        string          `json:"id"`
	ContextID string          `json:"contextId,omitempty"`
	Status    a2a.TaskStatus  `json:"status"`
	Artifacts *[]a2a.Artifact `json:"artifacts,omitempty"`
	History   []a2a.Message   `json:"history,omitempty"`
	Metadata  a2a.Struct      `json:"metadata,omitempty"`
}

func (a *Agent) taskJSON(t a2a.Task, historyLength *int32, mode artifactMode) []byte {
	w := wireTask{ID: t.ID, ContextID: t.ContextID, Status: t.Status, Metadata: t.Metadata, History: t.History}
	if historyLength != nil && !a.faults.has(faultHistoryLengthIgnored) {
		n := int(*historyLength)
		if n == 0 {
			w.History = nil
		} else if len(w.History) > n {
			w.History = w.History[len(w.History)-n:]
		}
	}
	if a.faults.has(faultHistoryReversed) {
		w.History = reversedHistory(w.History)
	}
	if mode == artifactsOmitted && a.faults.has(faultListArtifactsAlways) {
		mode = artifactsPresent
	}
	switch mode {
	case artifactsAsStored:
		if len(t.Artifacts) > 0 {
			w.Artifacts = &t.Artifacts
		}
	case artifactsPresent:
		arts := t.Artifacts
		if arts == nil {
			arts = []a2a.Artifact{}
		}
		w.Artifacts = &arts
	}
	b, _ := json.Marshal(w)
	return b
}

// pageToken is the opaque ListTasks cursor: the sort key of a page's last task.
type pageToken struct {
	V  int    `json:"v"`
	TS int64  `json:"t"`
	ID string `json:"i"`
}

func encodePageToken(c store.Cursor) string {
	b, _ := json.Marshal(pageToken{V: 1, TS: c.StatusMS, ID: c.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodePageToken(s string) (*store.Cursor, error) {
	if len(s) > 1024 {
		return nil, errors.New("pageToken too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, errors.New("pageToken is not one this agent issued")
	}
	var t pageToken
	if json.Unmarshal(b, &t) != nil || t.V != 1 || t.ID == "" {
		return nil, errors.New("pageToken is not one this agent issued")
	}
	return &store.Cursor{StatusMS: t.TS, ID: t.ID}, nil
}

type listTasksWire struct {
	Tasks         []json.RawMessage `json:"tasks"`
	NextPageToken *string           `json:"nextPageToken,omitempty"`
	PageSize      int32             `json:"pageSize"`
	TotalSize     int32             `json:"totalSize"`
}

func (a *Agent) listTasks(ctx context.Context, req *a2a.ListTasksRequest) ([]byte, *opError) {
	size := int32(defaultPageSize)
	if req.PageSize != nil {
		size = *req.PageSize
		if size < 1 || size > maxPageSize {
			return nil, errInvalidParams("pageSize", "pageSize must be between 1 and %d, got %d", maxPageSize, size)
		}
	}
	if req.Status != "" && !req.Status.Valid() {
		return nil, errInvalidParams("status", "status %q is not a task state", truncate(string(req.Status), 40))
	}
	if err := validateHistoryLength("historyLength", req.HistoryLength); err != nil {
		return nil, err
	}
	q := store.ListQuery{ContextID: req.ContextID, State: req.Status, Limit: int(size) + 1,
		OldestFirst: a.faults.has(faultListOldestFirst),
		// Only the caller's own tasks, filters or none (spec §13.1).
		Scoped: !a.faults.has(faultListLeaksOtherIdentity) &&
			!(req.ContextID == "" && a.faults.has(faultUnfilteredListLeaksOtherIdentity)),
		Principal: principalOf(ctx)}
	if a.faults.has(faultListIgnoresFilter) {
		q.ContextID, q.State = "", ""
	}
	if req.StatusTimestampAfter != "" {
		t, err := time.Parse(time.RFC3339Nano, req.StatusTimestampAfter)
		if err != nil {
			return nil, errInvalidParams("statusTimestampAfter", "statusTimestampAfter is not an RFC 3339 timestamp: %q",
				truncate(req.StatusTimestampAfter, 40))
		}
		q.Since = t
	}
	if req.PageToken != "" {
		c, err := decodePageToken(req.PageToken)
		if err != nil {
			return nil, errInvalidParams("pageToken", "%v", err)
		}
		q.After = c
	}
	recs, total, err := a.st.ListTasks(ctx, q)
	if err != nil {
		return nil, a.storeError(err)
	}
	mode := artifactsOmitted
	if req.IncludeArtifacts != nil && *req.IncludeArtifacts {
		mode = artifactsPresent
	}
	out := listTasksWire{Tasks: []json.RawMessage{}, PageSize: size, TotalSize: int32(total)}
	next := ""
	if len(recs) > int(size) {
		recs = recs[:size]
		last := recs[len(recs)-1]
		next = encodePageToken(store.Cursor{StatusMS: last.StatusTime.UnixMilli(), ID: last.Task.ID})
	}
	for _, rec := range recs {
		if !a.visible(rec) {
			continue
		}
		out.Tasks = append(out.Tasks, a.taskJSON(rec.Task, req.HistoryLength, mode))
	}
	if next != "" || !a.faults.has(faultNoNextPageToken) {
		out.NextPageToken = &next
	}
	b, _ := json.Marshal(out)
	return b, nil
}

func (a *Agent) pushGate() *opError {
	if !a.doPush {
		return errPushNotSupported()
	}
	return nil
}

func (a *Agent) createConfig(ctx context.Context, c *a2a.TaskPushNotificationConfig) ([]byte, *opError) {
	if b, ok := a.droppedPushAccepted(c); ok {
		return b, nil
	}
	if oe := a.pushGate(); oe != nil {
		return nil, oe
	}
	if c.TaskID == "" {
		return nil, errInvalidParams("taskId", "taskId is required")
	}
	if oe := validateConfigBody(c, ""); oe != nil {
		return nil, oe
	}
	if oe := a.validateWebhookURL(c.URL); oe != nil {
		return nil, oe
	}
	if oe := a.webhookAllowed(c.URL, "url"); oe != nil {
		return nil, oe
	}
	task, oe := a.loadTask(ctx, c.TaskID)
	if oe != nil && !a.faults.has(faultPushConfigUnknownTask) && !a.othersConfigAllowed(ctx, c.TaskID) {
		return nil, oe
	}
	if a.opts.RefuseEndedConfigs && oe == nil && task.Task.Status.State.Terminal() {
		return nil, errUnsupported(fmt.Sprintf("task %s is %s: no transition is left to push", c.TaskID, task.Task.Status.State))
	}
	if n := a.opts.RefusePushConfigs; n > 0 && a.refusedPush.Add(1) <= int64(n) {
		return nil, errUnavailable("this instance cannot confirm push registrations yet; retry")
	}
	cfg := withTask(*c, c.TaskID)
	cfg.Extra = nil
	if !a.lostOnDrain(cfg) {
		if err := a.putConfig(ctx, nil, cfg); err != nil {
			return nil, a.storeError(err)
		}
	}
	b, _ := json.Marshal(cfg)
	return b, nil
}

func (a *Agent) getConfigOp(ctx context.Context, ref *a2a.TaskPushNotificationConfigRef) ([]byte, *opError) {
	if oe := a.pushGate(); oe != nil {
		return nil, oe
	}
	if oe := requireRef(ref); oe != nil {
		return nil, oe
	}
	if _, oe := a.loadTask(ctx, ref.TaskID); oe != nil {
		return nil, oe
	}
	cfg, err := a.getConfig(ctx, ref.TaskID, ref.ID)
	if errors.Is(err, store.ErrNotFound) {
		// The spec names no "config not found" error; TaskNotFound it is (§3.1.8).
		e := errTaskNotFound(ref.TaskID)
		e.message = "Push notification config not found"
		e.meta["configId"] = ref.ID
		return nil, e
	}
	if err != nil {
		return nil, a.storeError(err)
	}
	b, _ := json.Marshal(cfg)
	return b, nil
}

func requireRef(ref *a2a.TaskPushNotificationConfigRef) *opError {
	if ref.TaskID == "" {
		return errInvalidParams("taskId", "taskId is required")
	}
	if ref.ID == "" {
		return errInvalidParams("id", "id is required")
	}
	return nil
}

func (a *Agent) listConfigsOp(ctx context.Context, req *a2a.ListTaskPushNotificationConfigsRequest) ([]byte, *opError) {
	if oe := a.pushGate(); oe != nil {
		return nil, oe
	}
	if req.TaskID == "" {
		return nil, errInvalidParams("taskId", "taskId is required")
	}
	if req.PageSize < 0 {
		return nil, errInvalidParams("pageSize", "pageSize must not be negative")
	}
	if _, oe := a.loadTask(ctx, req.TaskID); oe != nil {
		return nil, oe
	}
	cfgs, err := a.listConfigs(ctx, req.TaskID)
	if err != nil {
		return nil, a.storeError(err)
	}
	start := 0
	if req.PageToken != "" {
		b, err := base64.RawURLEncoding.DecodeString(req.PageToken)
		n, cerr := strconv.Atoi(strings.TrimPrefix(string(b), "o:"))
		if err != nil || cerr != nil || !strings.HasPrefix(string(b), "o:") || n < 0 || n > len(cfgs) {
			return nil, errInvalidParams("pageToken", "pageToken is not one this agent issued")
		}
		start = n
	}
	out := a2a.ListTaskPushNotificationConfigsResponse{Configs: cfgs[start:]}
	if req.PageSize > 0 && len(out.Configs) > int(req.PageSize) {
		out.Configs = out.Configs[:req.PageSize]
		out.NextPageToken = base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("o:%d", start+int(req.PageSize))))
	}
	// configs is not REQUIRED, but an empty list is clearer as [] than absent.
	type wire struct {
		Configs       []a2a.TaskPushNotificationConfig `json:"configs"`
		NextPageToken string                           `json:"nextPageToken,omitempty"`
	}
	w := wire{Configs: out.Configs, NextPageToken: out.NextPageToken}
	if w.Configs == nil {
		w.Configs = []a2a.TaskPushNotificationConfig{}
	}
	b, _ := json.Marshal(w)
	return b, nil
}

func (a *Agent) deleteConfigOp(ctx context.Context, ref *a2a.TaskPushNotificationConfigRef) *opError {
	if oe := a.pushGate(); oe != nil {
		return oe
	}
	if oe := requireRef(ref); oe != nil {
		return oe
	}
	if _, oe := a.loadTask(ctx, ref.TaskID); oe != nil {
		return oe
	}
	if a.faults.has(faultPushDeleteGoneFails) {
		if _, err := a.getConfig(ctx, ref.TaskID, ref.ID); errors.Is(err, store.ErrNotFound) {
			return errInternal("delete failed")
		}
	}
	if a.opts.DeleteGoneNotFound {
		if _, err := a.getConfig(ctx, ref.TaskID, ref.ID); errors.Is(err, store.ErrNotFound) {
			e := errTaskNotFound(ref.TaskID)
			e.message = "Push notification config not found"
			return e
		}
	}
	if err := a.deleteConfig(ctx, ref.TaskID, ref.ID); err != nil {
		return a.storeError(err)
	}
	return nil
}

func (a *Agent) extendedCardOp(r *http.Request) ([]byte, *opError) {
	if a.opts.ExtendedCard == ExtendedCardAbsent && !a.faults.has(faultExtendedCardServedUnadvertised) {
		return nil, errUnsupported("This agent has no extended agent card (capabilities.extendedAgentCard is not set)")
	}
	// Authentication first (§13.3), whether or not a card is configured.
	if oe := a.extendedCardAuth(r); oe != nil {
		return nil, oe
	}
	if a.opts.ExtendedCard == ExtendedCardUnconfigured {
		return nil, a2aError(a2a.ErrExtendedAgentCardNotConfigured, "The extended agent card is not configured", nil)
	}
	b, _ := json.Marshal(a.extendedCard(a.baseURL(r)))
	return b, nil
}

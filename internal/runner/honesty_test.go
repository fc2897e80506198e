package runner_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// The honesty guard: an agent that is correct but never makes a task. Every
// answer it gives is proper A2A, so a spec that passes against it must have
// been able to judge its requirement without a task; any other pass is a
// pass the harness could not have checked.

// tasklessPasses are the specs that can honestly pass against the taskless
// agent, each with why its requirement is checked without a task.
var tasklessPasses = map[string]string{
	"DISC-001": "card: served as JSON at the well-known path",
	"DISC-002": "card: valid against the v1.0 schema",
	"DISC-003": "card: Cache-Control max-age is sent",
	"DISC-004": "card: the ETag is sent and stable",
	"DISC-005": "card: If-None-Match with the ETag gets 304, a foreign tag 200",
	"DISC-008": "card: no v0.3 members",
	"DISC-009": "each interface answers GetTask of an unknown id with its binding's TaskNotFoundError",
	"DISC-010": "9.9 gets VersionNotSupportedError; under 1.0 the same probe gets TaskNotFoundError, a proper A2A answer",
	"DISC-011": "without A2A-Version the probe gets the same TaskNotFoundError as under 1.0",
	"DISC-012": "under 1.0.3 the probe gets the same TaskNotFoundError as under 1.0; versions are Major.Minor",
	"DISC-013": "streaming is not advertised, and SendStreamingMessage and SubscribeToTask both get UnsupportedOperationError",
	"DISC-014": "push is not advertised, and all four push-config operations get PushNotificationNotSupportedError",
	"DISC-015": "the extended card is not advertised, and GetExtendedAgentCard gets UnsupportedOperationError",
	"DISC-018": "a SendMessage naming an unknown extension is served (with a Message)",
	"LIFE-001": "the Message reply is judged against the schema, envelope and content type",
	"LIFE-003": "the Message reply echoes the contextId the client chose",
	"LIFE-006": "a message naming an unknown taskId gets TaskNotFoundError, and neither GetTask nor ListTasks shows the id",
	"LIFE-007": "GetTask and CancelTask of an unknown id get TaskNotFoundError (subscribe is not owed: no streaming)",
	"LIFE-027": "every malformed request gets the binding's validation error, and ListTasks shows no task",
	"LIFE-028": "a part of a media type outside text/plain gets ContentTypeNotSupportedError",
	"LIFE-029": "a SendMessage with unknown members is served",
}

// tasklessNotApplicable are the specs that may end not-applicable: each
// checks a refusal first, or tests something the card does not have.
var tasklessNotApplicable = map[string]string{
	"DISC-006": "the card body is the same with and without A2A-Version: no Vary is owed, nothing to judge (it used to pass here, with nothing checked)",
	"DISC-007": "no Last-Modified is sent",
	"DISC-016": "no extension is marked required",
	"DISC-019": "the card declares no securityRequirements",
	"DISC-017": "the card is not signed",
	"LIFE-015": "requireStreaming: SendStreamingMessage refused with UnsupportedOperationError",
	"LIFE-016": "requireStreaming",
	"LIFE-017": "requireStreaming",
	"LIFE-018": "requireStreaming",
	"LIFE-019": "requireStreaming",
	"LIFE-031": "the card declares no securityRequirements and the run names no second identity: one identity, nothing to keep apart",
	"LIFE-032": "the card declares no securityRequirements and the run names no second identity: one identity, nothing to keep apart",
	"LIFE-033": "requireStreaming",
}

// tasklessAgent is a loopback A2A v1.0 agent on both bindings that answers
// every message with a Message and every task operation with the error the
// spec prescribes for a task it does not have. With advertiseStreaming it
// claims streaming in its card and still refuses it: an overclaim.
type tasklessAgent struct {
	base               string
	advertiseStreaming bool
	card               []byte
	replies            atomic.Int64
	// cardStatus, when set, is the status the card URL answers with (the
	// same body and cache headers, but not a card).
	cardStatus int
}

const tasklessETag = `"taskless-card-1"`

func startTasklessAgent(t *testing.T, advertiseStreaming bool) *tasklessAgent {
	t.Helper()
	return startAgent(t, &tasklessAgent{advertiseStreaming: advertiseStreaming}, nil)
}

// startAgent serves a on loopback; interfaces, when given, replace the
// card's two interfaces (each {binding, path}).
func startAgent(t *testing.T, a *tasklessAgent, interfaces [][2]string) *tasklessAgent {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/agent-card.json", a.serveCard)
	mux.HandleFunc("/rpc", a.serveJSONRPC)
	mux.HandleFunc("/rest/", a.serveREST)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	a.base = srv.URL
	if interfaces == nil {
		interfaces = [][2]string{{a2a.BindingJSONRPC, "/rpc"}, {a2a.BindingHTTPJSON, "/rest"}}
	}
	var ifaces []map[string]string
	for _, i := range interfaces {
		ifaces = append(ifaces, map[string]string{"url": a.base + i[1], "protocolBinding": i[0], "protocolVersion": "1.0"})
	}
	card, err := json.Marshal(map[string]any{
		"name": "taskless", "description": "Answers every message with a message; never makes a task.",
		"version":             "1.0.0",
		"supportedInterfaces": ifaces,
		"capabilities":        map[string]bool{"streaming": a.advertiseStreaming, "pushNotifications": false},
		"defaultInputModes":   []string{"text/plain"},
		"defaultOutputModes":  []string{"text/plain"},
		"skills":              []map[string]any{{"id": "reply", "name": "Reply", "description": "Replies with a message.", "tags": []string{"reply"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a.card = card
	return a
}

// serveCard serves one unchanging card with a max-age and a strong ETag,
// and answers If-None-Match with weak comparison (RFC 9110 §13.1.2).
func (a *tasklessAgent) serveCard(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=60")
	w.Header().Set("ETag", tasklessETag)
	for _, tag := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == "*" || tag == tasklessETag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if a.cardStatus != 0 {
		w.WriteHeader(a.cardStatus)
	}
	w.Write(a.card)
}

// tasklessVersion accepts no A2A-Version (served as 1.0, as SDKs do) and
// 1.0 with or without a patch number (§3.6).
var tasklessVersion = regexp.MustCompile(`^1\.0(\.\d+)?$`)

func versionOK(r *http.Request) bool {
	v := strings.TrimSpace(r.Header.Get("A2A-Version"))
	return v == "" || tasklessVersion.MatchString(v)
}

// agentError is an answer that is an error: an A2A kind, or a standard
// JSON-RPC code with the HTTP status the HTTP+JSON binding uses for it.
type agentError struct {
	kind   a2a.ErrorKind
	code   int
	status int
	msg    string
}

func a2aErr(kind a2a.ErrorKind, msg string) *agentError {
	s, _ := a2a.LookupError(kind)
	return &agentError{kind: kind, code: s.Code, status: s.HTTP[a2a.TableV101], msg: msg}
}

func invalid(msg string) *agentError {
	return &agentError{code: a2a.CodeInvalidParams, status: http.StatusBadRequest, msg: msg}
}

// handle answers one operation on either binding: a result object, or an error.
func (a *tasklessAgent) handle(method string, params map[string]json.RawMessage) (any, *agentError) {
	switch method {
	case a2a.MethodSendMessage:
		return a.reply(params)
	case a2a.MethodSendStreamingMessage, a2a.MethodSubscribeToTask:
		return nil, a2aErr(a2a.ErrUnsupportedOperation, "this agent does not stream")
	case a2a.MethodGetTask, a2a.MethodCancelTask:
		return nil, a2aErr(a2a.ErrTaskNotFound, "this agent has no tasks")
	case a2a.MethodListTasks:
		return map[string]any{"tasks": []any{}, "nextPageToken": "", "pageSize": 50, "totalSize": 0}, nil
	case a2a.MethodCreateTaskPushNotificationConfig, a2a.MethodGetTaskPushNotificationConfig,
		a2a.MethodListTaskPushNotificationConfigs, a2a.MethodDeleteTaskPushNotificationConfig:
		return nil, a2aErr(a2a.ErrPushNotificationNotSupported, "this agent sends no push notifications")
	case a2a.MethodGetExtendedAgentCard:
		return nil, a2aErr(a2a.ErrUnsupportedOperation, "this agent has no extended card")
	}
	return nil, &agentError{code: a2a.CodeMethodNotFound, status: http.StatusNotFound, msg: "no such method"}
}

// reply validates a SendMessageRequest (unknown members ignored, §5.7) and
// answers with a Message in the client's context.
func (a *tasklessAgent) reply(params map[string]json.RawMessage) (any, *agentError) {
	var msg struct {
		MessageID string            `json:"messageId"`
		ContextID string            `json:"contextId"`
		TaskID    string            `json:"taskId"`
		Role      string            `json:"role"`
		Parts     []json.RawMessage `json:"parts"`
	}
	raw, ok := params["message"]
	if !ok || json.Unmarshal(raw, &msg) != nil || msg.MessageID == "" || msg.Role != string(a2a.RoleUser) || len(msg.Parts) == 0 {
		return nil, invalid("params.message must be a user message with a messageId and parts")
	}
	for _, p := range msg.Parts {
		var part struct {
			Text      *string `json:"text"`
			MediaType string  `json:"mediaType"`
		}
		if json.Unmarshal(p, &part) != nil {
			return nil, invalid("each part must be an object")
		}
		if mt := part.MediaType; mt != "" && mt != "text/plain" {
			return nil, a2aErr(a2a.ErrContentTypeNotSupported, "only text/plain is accepted, not "+mt)
		}
	}
	if msg.TaskID != "" {
		return nil, a2aErr(a2a.ErrTaskNotFound, "this agent has no task "+msg.TaskID)
	}
	n := a.replies.Add(1)
	ctxID := msg.ContextID
	if ctxID == "" {
		ctxID = fmt.Sprintf("taskless-ctx-%d", n)
	}
	return map[string]any{"message": map[string]any{
		"messageId": fmt.Sprintf("taskless-reply-%d", n), "contextId": ctxID, "role": a2a.RoleAgent,
		"parts": []map[string]string{{"text": "a reply, and no task"}},
	}}, nil
}

const maxTasklessBody = 1 << 20

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (a *tasklessAgent) serveJSONRPC(w http.ResponseWriter, r *http.Request) {
	fail := func(id json.RawMessage, e *agentError) {
		obj := map[string]any{"code": e.code, "message": e.msg}
		if e.kind != "" {
			obj["data"] = []any{a2a.NewErrorInfo(e.kind, nil)}
		}
		if id == nil {
			id = json.RawMessage("null")
		}
		writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": id, "error": obj})
	}
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxTasklessBody))
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err != nil || json.Unmarshal(body, &env) != nil {
		fail(nil, &agentError{code: a2a.CodeParseError, msg: "parse error"})
		return
	}
	if env.JSONRPC != "2.0" || env.Method == "" {
		fail(env.ID, &agentError{code: a2a.CodeInvalidRequest, msg: "invalid request"})
		return
	}
	if !versionOK(r) {
		fail(env.ID, a2aErr(a2a.ErrVersionNotSupported, "this agent speaks A2A 1.0"))
		return
	}
	params := map[string]json.RawMessage{}
	if len(env.Params) > 0 && json.Unmarshal(env.Params, &params) != nil {
		fail(env.ID, invalid("params must be an object"))
		return
	}
	result, e := a.handle(env.Method, params)
	if e != nil {
		fail(env.ID, e)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": env.ID, "result": result})
}

// restOp maps an HTTP+JSON request to its operation (§11.3), "" for a
// route the binding does not have.
func restOp(verb, path string) string {
	p := strings.TrimPrefix(path, "/rest")
	switch {
	case verb == http.MethodPost && p == "/message:send":
		return a2a.MethodSendMessage
	case verb == http.MethodPost && p == "/message:stream":
		return a2a.MethodSendStreamingMessage
	case verb == http.MethodGet && p == "/tasks":
		return a2a.MethodListTasks
	case verb == http.MethodGet && p == "/extendedAgentCard":
		return a2a.MethodGetExtendedAgentCard
	case strings.Contains(p, "/pushNotificationConfigs"):
		return a2a.MethodGetTaskPushNotificationConfig // all four answer alike
	case strings.HasPrefix(p, "/tasks/") && strings.HasSuffix(p, ":subscribe"):
		return a2a.MethodSubscribeToTask
	case verb == http.MethodPost && strings.HasPrefix(p, "/tasks/") && strings.HasSuffix(p, ":cancel"):
		return a2a.MethodCancelTask
	case verb == http.MethodGet && strings.HasPrefix(p, "/tasks/") && !strings.Contains(p[len("/tasks/"):], "/"):
		return a2a.MethodGetTask
	}
	return ""
}

func (a *tasklessAgent) serveREST(w http.ResponseWriter, r *http.Request) {
	fail := func(e *agentError) {
		st := map[string]any{"code": e.status, "status": a2a.GRPCStatusByHTTP[e.status], "message": e.msg}
		if e.kind != "" {
			st["details"] = []any{a2a.NewErrorInfo(e.kind, nil)}
		}
		writeJSON(w, e.status, map[string]any{"error": st})
	}
	op := restOp(r.Method, r.URL.Path)
	if op == "" {
		fail(&agentError{status: http.StatusNotFound, msg: "no such route"})
		return
	}
	if !versionOK(r) {
		fail(a2aErr(a2a.ErrVersionNotSupported, "this agent speaks A2A 1.0"))
		return
	}
	params := map[string]json.RawMessage{}
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxTasklessBody))
		if err != nil || (len(bytes.TrimSpace(body)) > 0 && json.Unmarshal(body, &params) != nil) {
			fail(invalid("the body must be a JSON object"))
			return
		}
	}
	result, e := a.handle(op, params)
	if e != nil {
		fail(e)
		return
	}
	writeJSON(w, http.StatusOK, result)
}

// runTaskless runs the discovery and lifecycle suites against the agent and
// checks the verdicts that every run against it must have.
func runTaskless(t *testing.T, a *tasklessAgent, passes, notApplicable map[string]string) map[string]reports.Result {
	t.Helper()
	r := runCLI(t, nil, "--target", a.base, "--suite", "discovery,lifecycle", "--seed", "8", "--race-trials", "5")
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	if r.exit != 0 && r.exit != 1 {
		t.Errorf("exit %d, want 0 or 1\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	if _, problems, err := reports.VerifyFile(filepath.Join(r.out, "report.json")); err != nil || len(problems) > 0 {
		t.Fatalf("report does not verify: %v %v", err, problems)
	}
	want := 0
	for _, info := range suites.All() {
		if info.Suite == suites.Discovery || info.Suite == suites.Lifecycle {
			want++
		}
	}
	if len(r.report.Results) != want {
		t.Errorf("%d results, want %d (every discovery and lifecycle spec)", len(r.report.Results), want)
	}
	got := map[string]reports.Result{}
	for _, res := range r.report.Results {
		got[res.ID] = res
		switch {
		case !res.Verdict.Known():
			t.Errorf("%s: unknown verdict %q", res.ID, res.Verdict)
		case res.Verdict == reports.Pass:
			if _, ok := passes[res.ID]; !ok {
				t.Errorf("%s passed against an agent that never makes a task: it judged nothing, or it needs no task and belongs in the allowed passes with the reason why", res.ID)
			}
		case strings.TrimSpace(res.Reason) == "":
			t.Errorf("%s: %s without a reason", res.ID, res.Verdict)
		case res.Verdict == reports.NotApplicable:
			if _, ok := notApplicable[res.ID]; !ok {
				t.Errorf("%s: not-applicable (%s), but it is not a capability this card lacks", res.ID, res.Reason)
			}
		}
	}
	// The agent is correct, so what can be checked without a task must pass:
	// otherwise the agent is broken and every "did not pass" above is hollow.
	for id, why := range passes {
		if got[id].Verdict != reports.Pass {
			t.Errorf("%s: %s (%s), want pass: %s", id, got[id].Verdict, got[id].Reason, why)
		}
	}
	if t.Failed() {
		t.Logf("the run's output:\n%s", r.stdout)
	}
	return got
}

// A well-formed agent without tasks: only the specs that need no task pass,
// and every other one says why it could not judge.
func TestTasklessAgentPassesOnlyWhatNeedsNoTask(t *testing.T) {
	t.Parallel()
	runTaskless(t, startTasklessAgent(t, false), tasklessPasses, tasklessNotApplicable)
}

// The same agent claiming streaming it refuses: DISC-013 fails, and no
// streaming spec passes or calls itself not applicable.
func TestTasklessAgentOverclaimingStreamingIsCaught(t *testing.T) {
	t.Parallel()
	passes := map[string]string{}
	for id, why := range tasklessPasses {
		passes[id] = why
	}
	// DISC-013 must now fail; LIFE-007 owes TaskNotFoundError on
	// SubscribeToTask once streaming is claimed, and gets a refusal instead.
	delete(passes, "DISC-013")
	delete(passes, "LIFE-007")
	notApplicable := map[string]string{}
	for id, why := range tasklessNotApplicable {
		if !strings.Contains(why, "requireStreaming") {
			notApplicable[id] = why
		}
	}
	got := runTaskless(t, startTasklessAgent(t, true), passes, notApplicable)
	if v := got["DISC-013"].Verdict; v != reports.Fail {
		t.Errorf("DISC-013: %s (%s), want fail: the card claims streaming the agent refuses", v, got["DISC-013"].Reason)
	}
	if v := got["LIFE-007"].Verdict; v != reports.Fail {
		t.Errorf("LIFE-007: %s (%s), want fail: SubscribeToTask of an unknown id got UnsupportedOperationError", v, got["LIFE-007"].Reason)
	}
}

// Without a card to work from, or without an interface the harness speaks,
// only what was really judged may pass: the card's own specs for a card that
// is served, nothing at all for a card URL that answers 404 with a card-like
// body and cache headers.
func TestNoCardOrNoSpokenInterfacePassesNothingUnjudged(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		agent  *tasklessAgent
		ifaces [][2]string
		passes []string
	}{
		{"card-404", &tasklessAgent{cardStatus: http.StatusNotFound}, nil, nil},
		// DISC-009 must not pass by probing no interface at all.
		{"grpc-only", &tasklessAgent{}, [][2]string{{"GRPC", "/grpc"}},
			[]string{"DISC-001", "DISC-002", "DISC-003", "DISC-004", "DISC-005", "DISC-006", "DISC-008"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := startAgent(t, tc.agent, tc.ifaces)
			r := runCLI(t, nil, "--target", a.base, "--suite", "discovery,lifecycle", "--seed", "9", "--race-trials", "5")
			if r.report == nil || (r.exit != 0 && r.exit != 1) {
				t.Fatalf("exit %d, report %v\n%s\n%s", r.exit, r.report != nil, r.stdout, r.stderr)
			}
			for _, res := range r.report.Results {
				if res.Verdict == reports.Pass && !slices.Contains(tc.passes, res.ID) {
					t.Errorf("%s passed, but it had nothing to judge", res.ID)
				}
				if res.Verdict != reports.Pass && strings.TrimSpace(res.Reason) == "" {
					t.Errorf("%s: %s without a reason", res.ID, res.Verdict)
				}
			}
			if t.Failed() {
				t.Logf("the run's output:\n%s", r.stdout)
			}
		})
	}
}

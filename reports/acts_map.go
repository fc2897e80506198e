package reports

import (
	"fmt"
	"slices"
	"strings"
)

// ACTSTest is one agent-side test of the ACTS draft (tests/acts/*.acts.yaml
// at the commit acts.go names; the client-parsing file's CLIENT-* tests are
// the client suite's) and what of ours checks it.
//
// Spec is set only when that spec checks the same requirement: the same
// operation, condition and expected outcome, at the same level, with no
// answer to the draft's own steps that one accepts and the other refuses,
// short of a server fault (HTTP 5xx, InternalError), which no requirement
// takes for its outcome. Ours may check the requirement in more instances
// (every binding, every terminal state, a refusal leaving the task as it
// was) but not add another one. A mapped spec is reported under the ACTS
// ID, at its own level, which then is the draft's. Part names specs that
// check only some of it, or more, or at another level: they are listed
// here, never reported under the draft's ID (the ACTS format has no
// partial result). Why says, for a mapped test, how ours differs in
// instance; for the others, why it is not mapped.
type ACTSTest struct {
	ID, Level, Name string
	// Suite is the draft's suite the test is in.
	Suite string
	// Transports is the draft's transport filter; empty means every binding.
	Transports []string
	Spec       string
	Part       []string
	Why        string
}

// ACTSTests are the draft's 103 agent-side tests in the order of its files
// (tests/acts/, alphabetical). docs/acts-mapping.md is ACTSMappingDoc of them.
var ACTSTests = []ACTSTest{
	// auth-security.acts.yaml
	{ID: "SEC-AUTH-001", Level: "must", Transports: []string{"jsonrpc"}, Name: "Server rejects invalid or missing auth credentials", Suite: "auth-security",
		Part: []string{"DISC-019"}, Why: "DISC-019 sends no credentials on every operation of every binding, in one verdict; it sends no invalid ones, and the draft's test is SendMessage on JSON-RPC alone"},
	{ID: "SEC-AUTH-002", Level: "must", Transports: []string{"jsonrpc"}, Name: "Server returns authorization error for insufficient permissions", Suite: "auth-security",
		Why: "not covered: the run has no credentials that are valid but insufficient"},
	{ID: "SEC-AUTH-003", Level: "must", Name: "Server does not reveal unauthorized resource existence", Suite: "auth-security",
		Spec: "LIFE-032", Why: "the draft asks GetTask; LIFE-032 compares every operation's refusal of another identity's task with the answer to an id nobody issued"},
	{ID: "SEC-AUTH-004", Level: "must", Transports: []string{"jsonrpc"}, Name: "Server authenticates every incoming request", Suite: "auth-security",
		Spec: "DISC-019", Why: "the draft sends GetTask on JSON-RPC; DISC-019 sends every operation on every binding, and an anonymous call answered with the operation's own answer (TaskNotFoundError) counts as served, which the draft's step cannot tell from a refusal but its description (\"rejected\") means"},
	{ID: "SEC-AUTH-005", Level: "must", Name: "In-task auth transitions to AUTH_REQUIRED state", Suite: "auth-security",
		Part: []string{"LIFE-030"}, Why: "LIFE-030 also judges that the task accepts a follow-up message"},
	{ID: "SEC-PUSH-001", Level: "must", Name: "Push notification webhook includes auth credentials", Suite: "auth-security",
		Part: []string{"PUSH-005"}, Why: "PUSH-005 also judges every pushed body (a StreamResponse of the config's task), another requirement"},
	{ID: "SEC-PUSH-002", Level: "must", Name: "Client validates push notification webhook authenticity", Suite: "auth-security",
		Part: []string{"CLI-024"}, Why: "a client's requirement in an agent-side file: CLI-024 judges a client's receiver, in a client run, not the agent this test drives"},
	{ID: "SEC-EXTCARD-001", Level: "must", Transports: []string{"rest"}, Name: "Extended Agent Card requires authentication", Suite: "auth-security",
		Part: []string{"DISC-015"}, Why: "DISC-015 judges the not-advertised refusal and the authenticated fetch in one verdict, on every binding"},
	{ID: "SEC-EXTCARD-002", Level: "must", Transports: []string{"rest"}, Name: "Extended Agent Card verifies permissions before returning", Suite: "auth-security",
		Why: "not covered: the run has no credentials that are valid but insufficient"},
	{ID: "SEC-EXTCARD-003", Level: "must", Name: "Missing extended-card support returns specified error", Suite: "auth-security",
		Part: []string{"DISC-015"}, Why: "DISC-015 wants the same UnsupportedOperationError, and also judges the advertised case in the same verdict"},
	{ID: "SEC-EXTCARD-004", Level: "must", Transports: []string{"rest"}, Name: "Extended cards enforce access controls", Suite: "auth-security",
		Part: []string{"DISC-015"}, Why: "DISC-015 also judges the not-advertised refusal, in one verdict on every binding"},
	{ID: "SEC-AUTH-006", Level: "should", Transports: []string{"rest"}, Name: "Server uses binding-specific auth challenge or rejection", Suite: "auth-security",
		Part: []string{"DISC-019"}, Why: "DISC-019 judges the binding's refusal (401 and WWW-Authenticate on HTTP+JSON) at MUST among every operation; the draft's step fetches the public card"},
	// core-operations.acts.yaml
	{ID: "CORE-SEND-001", Level: "must", Name: "SendMessage returns a completed task", Suite: "core-operations",
		Part: []string{"LIFE-001", "LIFE-004"}, Why: "a completed task is the draft's SUT behaviour (tck-complete-task); LIFE-001 judges the answer's shape, LIFE-004 that the send blocks until the task rests"},
	{ID: "CORE-SEND-002", Level: "must", Name: "SendMessage to a terminal task returns error", Suite: "core-operations",
		Spec: "LIFE-008", Why: "LIFE-008 also checks, on every binding, that the refused message left the task as it was"},
	{ID: "CORE-SEND-003", Level: "must", Name: "SendMessage returns a message response (no task)", Suite: "core-operations",
		Part: []string{"LIFE-001"}, Why: "answering with a Message is the draft's SUT behaviour (tck-message-response); LIFE-001 accepts a Task or a Message"},
	{ID: "CORE-GET-001", Level: "must", Name: "GetTask returns current state of existing task", Suite: "core-operations",
		Part: []string{"LIFE-023"}, Why: "LIFE-023 also judges historyLength"},
	{ID: "CORE-GET-002", Level: "must", Name: "GetTask with historyLength 0 omits history", Suite: "core-operations",
		Part: []string{"LIFE-024"}, Why: "LIFE-024 is SHOULD (A2A v1.0 §3.2.4) and also judges order and content"},
	{ID: "CORE-CANCEL-001", Level: "must", Name: "CancelTask returns updated state", Suite: "core-operations",
		Part: []string{"LIFE-012"}, Why: "LIFE-012 accepts an asynchronous cancel (a non-terminal answer that then lands) and a lost race, which the draft fails, and judges that the task stays canceled"},
	{ID: "CORE-CANCEL-002", Level: "must", Name: "CancelTask on terminal task returns error", Suite: "core-operations",
		Spec: "LIFE-013", Why: "LIFE-013 also cancels a canceled task, where the task or TaskNotCancelableError are both allowed"},
	{ID: "CORE-FAIL-001", Level: "must", Name: "Task completes with failed state", Suite: "core-operations",
		Why: "not covered: failing on request is the draft's SUT behaviour (tck-task-failure); our specs use failed tasks only as one way to end"},
	{ID: "CORE-SEND-004", Level: "must", Name: "SendMessage rejects unsupported content type", Suite: "core-operations",
		Part: []string{"LIFE-028"}, Why: "LIFE-028 is MAY: refusing a part is the agent's choice (no sentence of A2A v1.0 requires it); only a refusal's error is judged"},
	{ID: "CORE-LIST-001", Level: "should", Name: "ListTasks returns tasks for a context", Suite: "core-operations",
		Part: []string{"LIFE-022"}, Why: "LIFE-022 is MUST and also judges the status filter and pageSize"},
	{ID: "CORE-LIST-002", Level: "must", Name: "ListTasks with includeArtifacts false omits artifacts", Suite: "core-operations",
		Part: []string{"LIFE-021"}, Why: "the draft accepts \"artifacts\": null, which LIFE-021 refuses (A2A v1.0 §3.1.4), and LIFE-021 also judges includeArtifacts=true"},
	{ID: "CORE-LIST-003", Level: "must", Name: "ListTasks response includes nextPageToken", Suite: "core-operations",
		Part: []string{"LIFE-020"}, Why: "LIFE-020 also judges paging order to the last page"},
	// data-types.acts.yaml
	{ID: "DM-ART-001", Level: "must", Name: "Text artifact", Suite: "data-types",
		Part: []string{"LIFE-001"}, Why: "a text artifact is the draft's SUT behaviour (tck-artifact-text); LIFE-001 validates whatever artifacts come against the schema"},
	{ID: "DM-ART-002", Level: "should", Name: "Data artifact (structured JSON)", Suite: "data-types",
		Why: "not covered: a data artifact is the draft's SUT behaviour (tck-artifact-data)"},
	{ID: "DM-ART-003", Level: "should", Name: "File artifact (inline)", Suite: "data-types",
		Why: "not covered: a file artifact is the draft's SUT behaviour (tck-artifact-file); the draft's shape (file.name, file.mediaType) is v0.3's"},
	{ID: "DM-ART-004", Level: "may", Name: "File URL artifact", Suite: "data-types",
		Why: "not covered: a file URL artifact is the draft's SUT behaviour (tck-artifact-file-url)"},
	{ID: "DM-SERIAL-001", Level: "must", Name: "Timestamps are ISO 8601 UTC", Suite: "data-types",
		Part: []string{"LIFE-001"}, Why: "LIFE-001 validates the whole answer against the schema in one verdict"},
	{ID: "DM-SERIAL-002", Level: "should", Name: "Response validates against A2A schema", Suite: "data-types",
		Part: []string{"LIFE-001"}, Why: "LIFE-001 is MUST and also judges that the answer is exactly one of a Task or a Message"},
	{ID: "DM-EXTRA-001", Level: "should", Transports: []string{"jsonrpc"}, Name: "Extra fields accepted (tolerance)", Suite: "data-types",
		Spec: "LIFE-029", Why: "LIFE-029 adds an unknown member to the params (as the draft does) and to the message of SendMessage, and to GetTask, on every binding"},
	// discovery.acts.yaml
	{ID: "CARD-DISC-001", Level: "must", Name: "Agent card is discoverable", Suite: "discovery",
		Part: []string{"DISC-001", "DISC-002"}, Why: "the draft also asserts name, version and description present, which DISC-001 does not check (DISC-002 does, with every other field)"},
	{ID: "CARD-DISC-002", Level: "must", Name: "Agent card contains supported interfaces", Suite: "discovery",
		Part: []string{"DISC-002"}, Why: "DISC-002 validates the whole card in one verdict; the draft's protocolBinding list says REST where A2A v1.0 says HTTP+JSON"},
	{ID: "CARD-DISC-003", Level: "must", Name: "Agent card contains capabilities", Suite: "discovery",
		Part: []string{"DISC-002"}, Why: "DISC-002 validates the whole card in one verdict"},
	{ID: "CARD-DISC-004", Level: "should", Name: "Agent card contains skills", Suite: "discovery",
		Part: []string{"DISC-002"}, Why: "DISC-002 is MUST and validates the whole card in one verdict"},
	{ID: "CARD-DISC-005", Level: "should", Name: "Agent card contains default input and output modes", Suite: "discovery",
		Part: []string{"DISC-002"}, Why: "DISC-002 is MUST and validates the whole card in one verdict"},
	{ID: "CARD-DISC-006", Level: "must", Name: "Agent card protocolVersion matches spec version", Suite: "discovery",
		Part: []string{"DISC-009", "DISC-012"}, Why: "ours judge that each interface answers in the version it declares and names it Major.Minor, not that the first one says 1.x"},
	{ID: "CARD-CACHE-001", Level: "should", Name: "Agent card caching headers", Suite: "discovery",
		Part: []string{"DISC-003", "DISC-004"}, Why: "the draft passes Cache-Control or an ETag; DISC-003 wants Cache-Control with a max-age and DISC-004 an ETag, each on its own"},
	{ID: "CARD-SCHEMA-001", Level: "should", Name: "Agent card validates against schema", Suite: "discovery",
		Part: []string{"DISC-002"}, Why: "the same check, but DISC-002 is MUST (A2A v1.0 §4.4.1, §5.7): under the draft's ID it would be counted at a level the draft does not give it"},
	{ID: "CARD-EXT-001", Level: "may", Name: "Extended agent card", Suite: "discovery",
		Part: []string{"DISC-015"}, Why: "DISC-015 is MUST and also judges the not-advertised refusal"},
	{ID: "CARD-DISC-007", Level: "must", Name: "Agent card declares all supported protocols", Suite: "discovery",
		Part: []string{"DISC-002", "DISC-009"}, Why: "the draft accepts a v0.3 top-level url, which DISC-002 fails; DISC-009 judges that every declared interface answers"},
	// error-handling.acts.yaml
	{ID: "CORE-ERR-001", Level: "must", Name: "GetTask with non-existent ID returns TaskNotFoundError", Suite: "error-handling",
		Part: []string{"LIFE-007"}, Why: "LIFE-007 judges GetTask, CancelTask and SubscribeToTask in one verdict"},
	{ID: "CORE-ERR-002", Level: "must", Name: "CancelTask on non-existent task returns error", Suite: "error-handling",
		Part: []string{"LIFE-007"}, Why: "the draft also accepts TaskNotCancelableError, which LIFE-007 fails, and LIFE-007 judges GetTask and SubscribeToTask too"},
	{ID: "CORE-ERR-003", Level: "must", Name: "CancelTask on completed task returns TaskNotCancelableError", Suite: "error-handling",
		Spec: "LIFE-013", Why: "LIFE-013 also cancels a canceled task, where the task or TaskNotCancelableError are both allowed"},
	{ID: "CORE-ERR-004", Level: "must", Name: "SendMessage to terminal task returns UnsupportedOperationError", Suite: "error-handling",
		Spec: "LIFE-008", Why: "LIFE-008 also checks, on every binding, that the refused message left the task as it was"},
	{ID: "JSONRPC-ERR-001", Level: "must", Transports: []string{"jsonrpc"}, Name: "Unknown method returns MethodNotFoundError", Suite: "error-handling",
		Part: []string{"LIFE-027"}, Why: "LIFE-027 judges every malformed request of every binding in one verdict"},
	{ID: "JSONRPC-ERR-002", Level: "must", Transports: []string{"jsonrpc"}, Name: "Invalid JSON returns ParseError", Suite: "error-handling",
		Part: []string{"LIFE-027"}, Why: "LIFE-027 judges every malformed request of every binding in one verdict"},
	{ID: "CORE-ERR-005", Level: "should", Name: "Error responses include actionable message", Suite: "error-handling",
		Why: "not covered: error messages are the vendor's text, which we record and do not judge"},
	{ID: "CORE-ERR-006", Level: "must", Transports: []string{"jsonrpc"}, Name: "Malformed request returns InvalidRequestError", Suite: "error-handling",
		Part: []string{"LIFE-027"}, Why: "the draft also accepts -32602 for a request without a method, which LIFE-027 fails (-32600), among every malformed request in one verdict"},
	{ID: "CORE-CAP-001", Level: "must", Name: "Push not supported returns UnsupportedOperationError", Suite: "error-handling",
		Part: []string{"DISC-014"}, Why: "the draft expects UnsupportedOperationError where A2A v1.0 §3.1.7 names PushNotificationNotSupportedError, which DISC-014 wants"},
	{ID: "CORE-CAP-002", Level: "should", Name: "Streaming not supported returns error", Suite: "error-handling",
		Part: []string{"DISC-013"}, Why: "DISC-013 is MUST and also judges the advertised case"},
	{ID: "CORE-ERR-007", Level: "should", Name: "Error data contains structured error info", Suite: "error-handling",
		Part: []string{"LIFE-026"}, Why: "the draft wants error.data an object where its own CORE-ERR-008 (and A2A v1.0 §9.5) want an array"},
	{ID: "CORE-ERR-008", Level: "must", Transports: []string{"jsonrpc"}, Name: "Error details include @type field", Suite: "error-handling",
		Part: []string{"LIFE-026"}, Why: "LIFE-026 judges every error on every binding in one verdict"},
	{ID: "CORE-ERR-009", Level: "should", Name: "Error response should not distinguish missing vs unauthorized", Suite: "error-handling",
		Part: []string{"LIFE-032"}, Why: "LIFE-032 is MUST (A2A v1.0 §3.3.2); the draft's MUST-level twin SEC-AUTH-003 carries it"},
	{ID: "JSONRPC-ERR-003", Level: "must", Transports: []string{"jsonrpc"}, Name: "JSON-RPC error details include google.rpc.ErrorInfo", Suite: "error-handling",
		Part: []string{"LIFE-026"}, Why: "LIFE-026 judges every error on every binding in one verdict"},
	// history.acts.yaml
	{ID: "CORE-HIST-001", Level: "must", Name: "GetTask historyLength=0 returns no history", Suite: "history",
		Part: []string{"LIFE-024"}, Why: "LIFE-024 is SHOULD (A2A v1.0 §3.2.4) and also judges order and content"},
	{ID: "CORE-HIST-002", Level: "should", Name: "History count does not exceed historyLength limit", Suite: "history",
		Part: []string{"LIFE-023"}, Why: "LIFE-023 is MUST and also judges GetTask's status and artifacts"},
	{ID: "CORE-HIST-003", Level: "should", Name: "SendMessage historyLength=0 returns no history", Suite: "history",
		Part: []string{"LIFE-024"}, Why: "LIFE-024 also judges order and content"},
	{ID: "CORE-HIST-004", Level: "may", Name: "GetTask may return persisted history", Suite: "history",
		Part: []string{"LIFE-001"}, Why: "history's shape is part of LIFE-001's schema check (MUST)"},
	{ID: "CORE-HIST-005", Level: "should", Name: "History messages are returned in chronological order", Suite: "history",
		Part: []string{"LIFE-024"}, Why: "LIFE-024 also judges historyLength 0 and content"},
	{ID: "CORE-HIST-006", Level: "should", Name: "History content matches sent messages", Suite: "history",
		Part: []string{"LIFE-024"}, Why: "LIFE-024 also judges historyLength 0 and order"},
	// multi-turn.acts.yaml
	{ID: "CORE-MULTI-001", Level: "must", Name: "Multi-turn with INPUT_REQUIRED", Suite: "multi-turn",
		Part: []string{"LIFE-009"}, Why: "a three-turn conversation is the draft's SUT behaviour (tck-multi-turn); LIFE-009 judges one follow-up to an interrupted task"},
	{ID: "CORE-MULTI-005", Level: "must", Name: "SendMessage with only taskId infers contextId", Suite: "multi-turn",
		Spec: "LIFE-009", Why: "the draft expects the task completed after the follow-up (its SUT behaviour); LIFE-009 also accepts it asking again, and checks the follow-up in the history"},
	{ID: "CORE-MULTI-006", Level: "must", Name: "SendMessage with taskId and wrong contextId returns error", Suite: "multi-turn",
		Spec: "LIFE-010", Why: "LIFE-010 gives a contextId nobody issued, as the draft does, on every binding, and checks that the task did not move"},
	{ID: "CORE-MULTI-003", Level: "must", Name: "Mismatched contextId and taskId is rejected", Suite: "multi-turn",
		Part: []string{"LIFE-010"}, Why: "the draft gives another real conversation's contextId; LIFE-010 one nobody issued, which an agent that checks only that a context exists also refuses"},
	{ID: "CORE-CTX-001", Level: "must", Name: "Rejected client contextId returns an error", Suite: "multi-turn",
		Part: []string{"LIFE-003"}, Why: "the draft's step demands a refusal; LIFE-003 also accepts the context adopted and echoed (A2A v1.0 §3.4.1)"},
	// polling.acts.yaml
	{ID: "CORE-EXEC-001", Level: "must", Name: "Long-running task with returnImmediately and polling", Suite: "polling",
		Part: []string{"LIFE-005"}, Why: "LIFE-005 judges that the send returns early; completion with an artifact is the draft's SUT behaviour (tck-long-running)"},
	{ID: "CORE-EXEC-002", Level: "should", Name: "Polling shows progress through working state", Suite: "polling",
		Part: []string{"LIFE-005"}, Why: "LIFE-005 does not require TASK_STATE_WORKING to be seen"},
	// push-notifications.acts.yaml
	{ID: "PUSH-CFG-001", Level: "may", Name: "Set push notification config", Suite: "push-notifications",
		Part: []string{"PUSH-001"}, Why: "PUSH-001 is MUST and judges the whole config round trip"},
	{ID: "PUSH-CFG-002", Level: "may", Name: "Get push notification config", Suite: "push-notifications",
		Part: []string{"PUSH-001"}, Why: "PUSH-001 is MUST and judges the whole config round trip"},
	{ID: "PUSH-CFG-003", Level: "may", Name: "Delete push notification config", Suite: "push-notifications",
		Part: []string{"PUSH-001"}, Why: "PUSH-001 is MUST and judges the whole config round trip"},
	{ID: "PUSH-CFG-004", Level: "may", Name: "Push config on unsupported server returns error", Suite: "push-notifications",
		Part: []string{"DISC-014"}, Why: "DISC-014 is MUST and wants PushNotificationNotSupportedError (A2A v1.0 §3.1.7), not the draft's UnsupportedOperationError"},
	{ID: "PUSH-LIST-001", Level: "may", Name: "List push configs", Suite: "push-notifications",
		Part: []string{"PUSH-001"}, Why: "PUSH-001 is MUST and judges the whole config round trip"},
	{ID: "PUSH-ERR-001", Level: "may", Name: "Get nonexistent push config returns error", Suite: "push-notifications",
		Part: []string{"PUSH-002"}, Why: "PUSH-002 is MUST and also judges config operations on an unknown task"},
	{ID: "PUSH-IDEM-001", Level: "may", Name: "Delete push config is idempotent", Suite: "push-notifications",
		Part: []string{"PUSH-001"}, Why: "PUSH-001 is MUST and judges the whole config round trip"},
	{ID: "PUSH-DELIV-001", Level: "may", Name: "Push delivery includes auth", Suite: "push-notifications",
		Part: []string{"PUSH-005"}, Why: "PUSH-005 is MUST (A2A v1.0 §4.3.3) and also judges the pushed bodies"},
	{ID: "PUSH-DELIV-002", Level: "may", Name: "Push delivery is at-least-once", Suite: "push-notifications",
		Part: []string{"PUSH-004", "PUSH-007"}, Why: "PUSH-004 is an INVARIANT, strict (the terminal state is pushed), PUSH-007 SHOULD (retried after a 5xx)"},
	{ID: "PUSH-DELIV-003", Level: "may", Name: "Push payload format correct", Suite: "push-notifications",
		Part: []string{"PUSH-004"}, Why: "PUSH-004 is an INVARIANT, strict, and also judges that the terminal state is pushed"},
	// streaming.acts.yaml
	{ID: "STREAM-SSE-001", Level: "must", Name: "SendStreamingMessage produces events ending in terminal state", Suite: "streaming",
		Part: []string{"LIFE-015"}, Why: "LIFE-015 also judges the first event and the stream's close"},
	{ID: "STREAM-SSE-002", Level: "must", Name: "Stream includes at least one artifact update", Suite: "streaming",
		Part: []string{"LIFE-015"}, Why: "an artifact is the draft's SUT behaviour (tck-stream-basic); LIFE-015 judges order and close"},
	{ID: "STREAM-SSE-003", Level: "should", Name: "Chunked streaming delivers multiple artifact events", Suite: "streaming",
		Why: "not covered: chunking is the draft's SUT behaviour (tck-stream-chunked)"},
	{ID: "STREAM-SUB-001", Level: "should", Name: "SubscribeToTask receives updates for existing task", Suite: "streaming",
		Part: []string{"LIFE-018"}, Why: "LIFE-018 is MUST (A2A v1.0 §3.1.6) and also judges the first event"},
	{ID: "STREAM-SUB-002", Level: "must", Name: "Subscribe stream terminates at terminal state", Suite: "streaming",
		Part: []string{"LIFE-015", "LIFE-018"}, Why: "the draft's step streams a SendStreamingMessage (LIFE-015's operation); both also judge the first event and order"},
	{ID: "STREAM-SUB-003", Level: "must", Name: "Subscribe to terminal task returns error", Suite: "streaming",
		Part: []string{"LIFE-019"}, Why: "the draft accepts any error; LIFE-019 wants UnsupportedOperationError (A2A v1.0 §3.1.6)"},
	{ID: "STREAM-SSE-004", Level: "must", Name: "First event on subscribe is current task state", Suite: "streaming",
		Part: []string{"LIFE-018"}, Why: "the draft also accepts a status update first, which LIFE-018 fails (a Task snapshot, A2A v1.0 §3.1.6), and LIFE-018 judges the close"},
	{ID: "STREAM-MSG-001", Level: "should", Name: "Streaming message-only response", Suite: "streaming",
		Part: []string{"LIFE-016"}, Why: "LIFE-016 is MUST (A2A v1.0 §3.1.2)"},
	{ID: "STREAM-MULTI-001", Level: "should", Name: "Multiple concurrent streams receive same events", Suite: "streaming",
		Part: []string{"LIFE-017"}, Why: "LIFE-017 is MUST (A2A v1.0 §3.5.2) and also judges closing one stream"},
	{ID: "STREAM-MULTI-002", Level: "should", Name: "Closing one stream doesn't affect others", Suite: "streaming",
		Part: []string{"LIFE-017"}, Why: "LIFE-017 is MUST (A2A v1.0 §3.5.2) and also judges that the streams agree"},
	{ID: "STREAM-RESUB-001", Level: "should", Name: "Resubscribe after disconnect", Suite: "streaming",
		Part: []string{"LIFE-018"}, Why: "LIFE-018 subscribes to a running task, not after a dropped stream"},
	// transport-bindings.acts.yaml
	{ID: "JSONRPC-ENV-001", Level: "must", Transports: []string{"jsonrpc"}, Name: "Response has valid JSON-RPC 2.0 envelope", Suite: "jsonrpc-transport",
		Part: []string{"LIFE-001"}, Why: "LIFE-001 judges the envelope with the answer's shape, on every binding, in one verdict"},
	{ID: "JSONRPC-CT-001", Level: "must", Transports: []string{"jsonrpc"}, Name: "Response Content-Type is application/json", Suite: "jsonrpc-transport",
		Part: []string{"LIFE-001"}, Why: "LIFE-001 judges the Content-Type with the answer's shape, on every binding, in one verdict"},
	{ID: "JSONRPC-SSE-001", Level: "must", Transports: []string{"jsonrpc"}, Name: "SSE streaming events have JSON-RPC envelope", Suite: "jsonrpc-transport",
		Part: []string{"LIFE-015"}, Why: "LIFE-015 judges the stream's order and close too, on every binding"},
	{ID: "REST-STATUS-001", Level: "must", Transports: []string{"rest"}, Name: "REST errors map to correct HTTP status codes", Suite: "rest-transport",
		Part: []string{"LIFE-007", "LIFE-026"}, Why: "both judge several operations (LIFE-026 every error) on every binding in one verdict"},
	{ID: "REST-PD-001", Level: "should", Transports: []string{"rest"}, Name: "REST errors use problem details format", Suite: "rest-transport",
		Why: "not covered: problem details are v0.3's HTTP+JSON errors; A2A v1.0 §11.6 gives them as google.rpc.Status, which LIFE-026 judges"},
	{ID: "REST-CT-001", Level: "should", Transports: []string{"rest"}, Name: "REST responses use application/a2a+json content type", Suite: "rest-transport",
		Part: []string{"LIFE-001"}, Why: "LIFE-001 accepts application/json too (A2A v1.0 §11.1) and judges the answer's shape in the same verdict"},
	{ID: "GRPC-STATUS-001", Level: "must", Transports: []string{"grpc"}, Name: "gRPC errors map to correct status codes", Suite: "grpc-transport",
		Part: []string{"LIFE-007", "LIFE-026"}, Why: "both judge several operations (LIFE-026 every error) on every binding in one verdict"},
	{ID: "GRPC-STREAM-001", Level: "must", Transports: []string{"grpc"}, Name: "gRPC streaming delivers proper message structure", Suite: "grpc-transport",
		Part: []string{"LIFE-015"}, Why: "LIFE-015 judges every binding's stream in one verdict"},
	{ID: "GRPC-STREAM-002", Level: "should", Transports: []string{"grpc"}, Name: "gRPC streaming cancellation works", Suite: "grpc-transport",
		Part: []string{"LIFE-012"}, Why: "LIFE-012 is an INVARIANT, strict, and judges every binding; the draft's step is a unary cancel"},
	// version-negotiation.acts.yaml
	{ID: "VER-NEG-001", Level: "must", Transports: []string{"jsonrpc"}, Name: "Unsupported A2A-Version returns VersionNotSupportedError", Suite: "version-negotiation",
		Spec: "DISC-010", Why: "the draft sends SendMessage under 99.0; DISC-010 GetTask under 9.9 on every binding, and checks that 1.0 is served"},
	{ID: "VER-NEG-002", Level: "should", Transports: []string{"jsonrpc"}, Name: "Missing A2A-Version is treated as default", Suite: "version-negotiation",
		Part: []string{"DISC-011"}, Why: "DISC-011 is MUST and also accepts VersionNotSupportedError (absent means 0.3, A2A v1.0 §3.6.2)"},
	// wire-format.acts.yaml
	{ID: "DM-FMT-001", Level: "must", Transports: []string{"jsonrpc"}, Name: "Wire format uses camelCase field names", Suite: "wire-format",
		Part: []string{"LIFE-001"}, Why: "LIFE-001 validates the whole answer against the schema in one verdict"},
	{ID: "DM-FMT-002", Level: "must", Name: "Enum values use prefixed format", Suite: "wire-format",
		Part: []string{"LIFE-001"}, Why: "LIFE-001 validates the whole answer against the schema in one verdict"},
	{ID: "DM-FMT-003", Level: "should", Name: "Default and empty values are omitted from wire", Suite: "wire-format",
		Why: "not covered: a Message reply without taskId and contextId is the draft's SUT behaviour (tck-message-response)"},
}

// actsMapped gives each mapped spec its ACTS tests.
var actsMapped = func() map[string][]ACTSTest {
	m := map[string][]ACTSTest{}
	for _, t := range ACTSTests {
		if t.Spec != "" {
			m[t.Spec] = append(m[t.Spec], t)
		}
	}
	return m
}()

// actsTestsFor are the ACTS tests a result is reported as in the report of
// transport: those mapped to its spec whose transport filter admits it.
func actsTestsFor(spec, transport string) []ACTSTest {
	var out []ACTSTest
	for _, t := range actsMapped[spec] {
		if len(t.Transports) == 0 || slices.Contains(t.Transports, transport) {
			out = append(out, t)
		}
	}
	return out
}

// ACTSMappingDoc renders docs/acts-mapping.md from ACTSTests.
func ACTSMappingDoc() string {
	var b strings.Builder
	mapped, part := 0, 0
	for _, t := range ACTSTests {
		switch {
		case t.Spec != "":
			mapped++
		case len(t.Part) > 0:
			part++
		}
	}
	b.WriteString("<!-- Generated from reports/acts_map.go (ACTSTests); TestACTSMappingDocIsCurrent keeps it in sync:\n")
	b.WriteString("     go test ./reports -run TestACTSMappingDocIsCurrent -update-acts-doc -->\n\n")
	b.WriteString("# ACTS test IDs and our specs\n\n")
	b.WriteString("Every agent-side test of the A2A project's ACTS draft (`a2aproject/A2A` PR #1882, branch\n")
	b.WriteString("`conformance-spec`, commit `b2a780a0`, `tests/acts/*.acts.yaml`; the `CLIENT-*` tests of\n")
	b.WriteString("`client-parsing.acts.yaml` are the client suite's) and the spec of ours that checks it. The ACTS\n")
	b.WriteString("report ([report-format.md](report-format.md#acts-report)) gives a **mapped** spec's verdict under\n")
	b.WriteString("the draft's ID (its `name` ends with our ID), in the reports of the transports the draft's test\n")
	b.WriteString("names; every other spec keeps its own ID.\n\n")
	b.WriteString("A spec is mapped when it checks the same requirement: the same operation, condition and expected\n")
	b.WriteString("outcome, at the same level, with no answer to the draft's own steps that one accepts and the other\n")
	b.WriteString("refuses, short of a server fault (HTTP 5xx, InternalError). Ours may check the requirement in more\n")
	b.WriteString("instances (every binding, every terminal state, a refusal that leaves the task as it was), but not\n")
	b.WriteString("add another requirement. Where the draft's test depends on its SUT behaviours (`tck-*` prompts), the\n")
	b.WriteString("outcome those script (which state a turn ends in) is not part of the requirement. A **partial**\n")
	b.WriteString("row names specs that check some of it, more of it in one verdict, or the same at another level;\n")
	b.WriteString("the ACTS format has no partial result, so they keep their own IDs. A spec checks every binding in\n")
	b.WriteString("one verdict, which each transport's report carries (its reason names the binding).\n\n")
	fmt.Fprintf(&b, "%d tests: %d mapped, %d partial, %d not covered.\n\n", len(ACTSTests), mapped, part, len(ACTSTests)-mapped-part)
	b.WriteString("| ACTS ID | level | transport | ours | how | the draft's test |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, t := range ACTSTests {
		tr := "all"
		if len(t.Transports) > 0 {
			tr = strings.Join(t.Transports, ", ")
		}
		ours, how := "—", "not covered"
		switch {
		case t.Spec != "":
			ours, how = t.Spec, "**mapped**"
		case len(t.Part) > 0:
			ours, how = strings.Join(t.Part, ", "), "partial"
		}
		why := strings.TrimPrefix(t.Why, "not covered: ")
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s: %s | %s |\n", t.ID, t.Level, tr, ours, how, docCell(why), docCell(t.Name))
	}
	return b.String()
}

func docCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

package suites

import "github.com/a2a-conform/a2a-conform/reports"

// The bases of the lifecycle specs LIFE-017 … LIFE-033 (streams shared and
// subscribed to, listing, history, bindings, errors, validation, in-task
// authorization and scoping).
var _ = setBasis(map[string]reports.Basis{
	"LIFE-017": quotes(
		spec("3.5.2", "Events MUST be broadcast to all active streams for that task"),
		spec("3.5.2", "Each stream MUST receive the same events in the same order"),
		spec("3.5.2", "Closing one stream MUST NOT affect other active streams for the same task"),
		spec("3.1.6", "The operation MUST return a Task object as the first event in the stream, representing the current state of the task at the time of subscription."),
		spec("3.5.2", "An agent MAY serve multiple concurrent streams to one or more clients for the same task."),
	),
	"LIFE-018": quotes(
		spec("3.1.6", "The operation MUST return a Task object as the first event in the stream, representing the current state of the task at the time of subscription."),
		spec("3.1.6", "The stream MUST terminate when the task reaches a terminal state"),
		spec("3.5.2", "All implementations MUST deliver events in the order they were generated."),
	),
	"LIFE-019": {
		Quotes: []reports.Quote{
			spec("3.1.6", "UnsupportedOperationError … The operation is attempted on a task that is in a terminal state"),
			spec("3.1.6", "can be used with any task that is not in a terminal state"),
			spec("3.3.2", "Servers MUST return appropriate errors"),
		},
		Reading: "No sentence of §3.1.6 carries a keyword for this case: its error list names UnsupportedOperationError for " +
			"a SubscribeToTask of a task in a terminal state, and §3.3.2 requires servers to return appropriate errors. " +
			"The MUST is read as returning that error (before the stream or as its first event) instead of opening a " +
			"stream of the finished task.",
	},
	"LIFE-020": quotes(
		spec("3.1.4", "The nextPageToken field MUST always be present in the response."),
		spec("3.1.4", "When there are no more results to retrieve (i.e., this is the final page), the field MUST be set to an empty string (\"\")."),
		spec("3.1.4", "Implementations MUST return tasks sorted by their status timestamp time in descending order (most recently updated tasks first)."),
		spec("3.1.4", "MUST use cursor-based pagination for performance and consistency"),
	),
	"LIFE-021": {
		Quotes: []reports.Quote{
			spec("3.1.4", "When includeArtifacts is false (the default), the artifacts field MUST be omitted entirely from each Task object in the response."),
			spec("3.1.4", "The field should not be present as an empty array or null value."),
			spec("3.1.4", "When includeArtifacts is true, the artifacts field should be included with its actual content (which may be an empty array if the task has no artifacts)."),
		},
		Reading: "The MUST is the omission of artifacts when includeArtifacts is false or unset. That they appear when it is " +
			"true rests on a lowercase should, which the spec judges at the same level as the omission.",
	},
	"LIFE-022": {
		Quotes: []reports.Quote{
			proto("Filter tasks by context ID to get tasks from a specific conversation or session."),
			proto("Filter tasks by their current status state."),
			proto("The maximum number of tasks to return. The service may return fewer than this value. If unspecified, at most 50 tasks will be returned. The minimum value is 1. The maximum value is 100."),
			spec("11.5", "Query parameter names MUST use camelCase to match the JSON serialization of Protocol Buffer field names."),
		},
		Reading: "The keyword the quotes carry is the HTTP+JSON binding's camelCase query parameters. That the contextId and " +
			"status filters narrow the list and that pageSize bounds each page is read from the ListTasksRequest field " +
			"definitions, which §3.1.4 takes as the operation's inputs: no sentence with a keyword states it. No sentence " +
			"says what a pageSize outside 1..100 gets, so a validation error and a page within 1..100 are both accepted.",
	},
	"LIFE-023": {
		Quotes: []reports.Quote{
			proto("The server MUST NOT return more messages than the provided value, but MAY apply a lower limit."),
			spec("3.2.4", "Return at most this many recent messages from the task's history"),
			spec("3.1.3", "Retrieves the current state (including status, artifacts, and optionally history) of a previously initiated task."),
			spec("3.1.3", "Current state and artifacts of the requested task"),
		},
		Reading: "The MUST NOT bounds the history by historyLength, and the messages kept are the most recent ones. That " +
			"GetTask returns the task's status and artifacts is read from §3.1.3's definition of the operation and of its " +
			"output; no sentence with a keyword states it.",
	},
	"LIFE-024": {
		Quotes: []reports.Quote{
			spec("3.2.4", "0: No history should be returned; the history field SHOULD be omitted"),
			proto("A value of zero is a request to not include any messages. The server MUST NOT return more messages than the provided value"),
			spec("3.7", "The Task History field contains Messages exchanged during task execution."),
		},
		Reading: "The SHOULD is §3.2.4's for historyLength 0; the proto's MUST NOT, which a history of any length under " +
			"historyLength 0 also breaks, is judged here at that SHOULD. No sentence states the order of the history or " +
			"that a kept user message keeps its messageId, role and text: that is read from the history being the messages " +
			"exchanged during the task, and judged at SHOULD.",
	},
	"LIFE-025": quotes(
		spec("5.1", "When an agent supports multiple protocols, all supported protocols MUST: … Identical Functionality: Provide the same set of operations and capabilities … Consistent Behavior: Return semantically equivalent results for the same requests"),
	),
	"LIFE-026": quotes(
		spec("5.4", "All A2A-specific errors defined in … MUST be mapped to binding-specific error representations."),
		spec("9.5", "Each object in the data array MUST include a @type key that identifies the object's type."),
		spec("11.6", "implementations MUST include a google.rpc.ErrorInfo object in the details array for A2A-specific errors"),
		spec("10.6", "For A2A-specific errors, implementations MUST include a google.rpc.ErrorInfo message in the status.details array"),
	),
	"LIFE-027": {
		Quotes: []reports.Quote{
			spec("3.3.2", "Servers MUST validate all input parameters before processing"),
			spec("3.3.2", "Example error codes: HTTP 400 Bad Request, gRPC INVALID_ARGUMENT, JSON-RPC -32602 Invalid params"),
			spec("9.5", "JSONParseError … The server received invalid JSON … InvalidRequestError … The JSON sent is not a valid Request object … MethodNotFoundError … The requested method does not exist or is not available … InvalidParamsError … The method parameters are invalid"),
			spec("5.7", "Implementations SHOULD validate these requirements and reject messages with missing required fields."),
		},
		Reading: "The MUST is §3.3.2's validation of every input before processing; the error for each fault is the " +
			"binding's own (the JSON-RPC codes of §9.5, HTTP 400, gRPC INVALID_ARGUMENT; for an operation that does not " +
			"exist, HTTP 404 or 405 and gRPC UNIMPLEMENTED, which are HTTP's and gRPC's own answers, not the A2A text's). " +
			"A request whose only fault is a missing or mistyped REQUIRED member is judged at SHOULD, as §5.7 words it.",
	},
	"LIFE-028": {
		Quotes: []reports.Quote{
			spec("3.1.1", "ContentTypeNotSupportedError … A Media Type provided in the request's message parts is not supported by the agent."),
			spec("3.3.2", "A Media Type provided in the request's message parts or implied for an artifact is not supported by the agent or the specific skill being invoked."),
			spec("13.4", "Agents SHOULD sanitize or validate file content types and reject unexpected media types"),
		},
		Reading: "The text names ContentTypeNotSupportedError as the SendMessage error for a part whose media type the agent " +
			"does not support, so a refusal is judged on naming that error. No protocol sentence requires an agent to " +
			"refuse a media type; §13.4's security practice recommends rejecting unexpected file media types, but the " +
			"level is kept at MAY: serving the part is the agent's choice and is recorded, never judged.",
	},
	"LIFE-029": quotes(
		spec("5.7", "Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves."),
	),
	"LIFE-030": quotes(
		spec("7.6.1", "MUST use a Task to track the operation it is performing"),
		spec("7.6.1", "MUST transition the TaskState to TASK_STATE_AUTH_REQUIRED"),
		spec("7.6.1", "MUST include a TaskStatus message explaining the required authorization, unless the details of the authorization have been negotiated out-of-band or via an extension"),
		spec("7.6.1", "Agents SHOULD support receiving messages directed to the Task while the Task remains in TASK_STATE_AUTH_REQUIRED."),
	),
	"LIFE-031": quotes(
		spec("13.1", "Servers MUST implement authorization checks on every … request"),
		spec("13.1", "Even when contextId or other filter parameters are not specified in requests, implementations MUST scope results to the caller's authorized access boundaries"),
		spec("13.1", "MUST only return tasks visible to the authenticated client according to the agent's authorization model … MUST verify the authenticated client has access to the requested task according to the agent's authorization model … Task-related operations (Cancel, Subscribe, Push Notification Config): MUST verify the client has appropriate access rights"),
	),
	"LIFE-032": quotes(
		spec("3.3.2", "Servers MUST NOT reveal the existence of resources the client is not authorized to access"),
		spec("3.3.2", "Servers MUST return a not found error when a requested resource does not exist or is not accessible to the authenticated client"),
		spec("3.3.2", "Servers SHOULD NOT distinguish between \"does not exist\" and \"not authorized\" to prevent information leakage"),
		spec("13.1", "Authorization checks MUST occur before any database queries or operations that could leak information about the existence of resources outside the caller's authorization scope"),
	),
	"LIFE-033": {
		Quotes: []reports.Quote{
			spec("7.6.1", "If the credential is received out-of-band, the agent SHOULD maintain any active response streams with the client after setting the TaskState to TASK_STATE_AUTH_REQUIRED."),
			spec("7.6.1", "The agent MAY immediately continue Task processing after receiving the credential, without a requirement that clients send a follow-up message."),
			spec("11.7", "then zero or more status or artifact update events until the task reaches a terminal or interrupted state, at which point the stream closes."),
		},
		Reading: "The level is §7.6.1's SHOULD. §11.7 describes streams as closing at an interrupted state, which " +
			"AUTH_REQUIRED is, so a stream closed at AUTH_REQUIRED is recorded as that reading and not warned on; a stream " +
			"kept open that breaks, or does not carry the task's next state after the follow-up, warns.",
	},
})

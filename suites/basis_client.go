package suites

import "github.com/a2a-conform/a2a-conform/reports"

// The bases of the client suite's specs (CLI-001 … CLI-039): the sentences
// of the A2A v1.0.1 text each spec's level rests on.
var _ = setBasis(map[string]reports.Basis{
	"CLI-001": quotes(
		spec("3.6.1", "Clients MUST send the A2A-Version header with each request to maintain compatibility after an agent upgrades to a new version of the protocol (except for 0.3 Clients - 0.3 will be assumed for empty header)."),
		spec("3.6.1", "Clients MAY provide the A2A-Version as a request parameter instead of a header."),
	),
	"CLI-002": quotes(
		spec("8.3.2", "Clients MUST follow these rules: … Set the tenant field in every request message to exactly the value declared in the selected AgentInterface entry (omit the field if tenant is not set in that entry)"),
		proto("When set, clients MUST include this value in the tenant field of all request messages sent to this interface."),
	),
	"CLI-003": quotes(
		spec("5.7", "Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves."),
	),
	"CLI-004": {
		Quotes: []reports.Quote{
			spec("3.3.2", "Servers MUST return appropriate errors and SHOULD provide actionable information to help clients resolve issues."),
			spec("9.5", "JSON-RPC error responses use the standard"),
			spec("3.1.2", "Streaming is not supported by the agent"),
		},
		Reading: "No sentence binds the client here: the text makes the agent answer a failing request with an error, and in " +
			"the JSON-RPC binding an error is the JSON-RPC 2.0 error object, with no sentence on whether it comes as a " +
			"plain response or inside a stream. A client that reads such an answer to a streaming request as a stream " +
			"with no events reports a success the agent never gave. That is a guard without a client keyword, so a miss warns.",
	},
	"CLI-008": {
		Quotes: []reports.Quote{
			spec("3.3.2", "Servers MUST return appropriate errors and SHOULD provide actionable information to help clients resolve issues."),
			spec("11.7", "Streaming responses are simple, linearly ordered sequences: first a Task (or single Message), then zero or more status or artifact update events until the task reaches a terminal or interrupted state, at which point the stream closes."),
		},
		Reading: "No sentence binds the client here, and none gives an error inside a stream its framing: the MUST is the " +
			"agent's, which returns an error when an operation fails, and a stream is a task, then updates, closed at a " +
			"terminal or interrupted state, so an error object is neither an event nor that close. A client that drops " +
			"it reports a success the agent never gave. That is a guard without a client keyword, so a miss warns.",
	},
	"CLI-009": {
		Quotes: []reports.Quote{
			spec("11.1", "application/a2a+json SHOULD be used for requests and responses"),
			spec("11.6", "implementations MUST include a google.rpc.ErrorInfo object in the details array for A2A-specific errors"),
		},
		Reading: "No sentence binds the client here: the keywords are the agent's, which answers HTTP+JSON as " +
			"application/a2a+json and names each A2A error in an ErrorInfo. A client that reads that error only " +
			"as application/json loses what the MUST is for. That is a guard without a client keyword, so a miss warns.",
	},
	"CLI-010": {
		Quotes: []reports.Quote{
			spec("8.3.2", "Use the correct URL for the selected transport"),
			spec("8.6.2", "When a cached Agent Card has expired, clients SHOULD use conditional requests"),
		},
		Reading: "No sentence binds the client to take a card whose interfaces moved: the MUST list of 8.3.2 is about " +
			"choosing an interface from a card, and the text does not say whether a task begun on one URL must move " +
			"to the new one, so either is taken. A client that refuses the new card ends the task's flow on a " +
			"rotation, scenario 1's failure. That is a guard without a client keyword, so a miss warns.",
		Scenario: scenario1,
	},
	"CLI-011": quotes(
		spec("11.5", "Query parameter names MUST use camelCase to match the JSON serialization of Protocol Buffer field names."),
		spec("11.5", "HTTP methods that do not support request bodies (GET, DELETE) MUST transmit operation request parameters as path parameters or query parameters."),
	),
	"CLI-012": {
		Quotes: []reports.Quote{
			topic("streaming-and-async", "This configuration is supplied:"),
			topic("streaming-and-async", "Within the initial SendMessage or SendStreamingMessage request, or"),
			topic("streaming-and-async", "Separately, using the CreateTaskPushNotificationConfig RPC method for an existing task."),
		},
		Reading: "The text says where a client supplies a push config (inline with the message that creates the task, or " +
			"separately for an existing task) and binds no client, with any keyword, to a default its application set. " +
			"Either way of supplying it passes. A task the client created without the config its application asked to " +
			"put on every task is a guard with no keyword behind it: the application's receiver never hears of that " +
			"task. A miss warns.",
	},
	"CLI-013": {
		Quotes: []reports.Quote{
			spec("8.4.3", "Clients verifying Agent Card signatures MUST: … Verify the signature against the canonicalized payload"),
			spec("8.4.3", "Clients SHOULD verify at least one signature before trusting an Agent Card"),
			spec("3.1.11", "Clients retrieving this extended card SHOULD replace their cached public Agent Card with the content received from this endpoint for the duration of their authenticated session or until the card's version changes."),
		},
		Reading: "As for CLI-027, the MUST binds a client that verifies to the whole procedure, whose last step is to verify " +
			"the signature; going on to use a card whose signature failed is not having completed the verification the " +
			"client undertook, which the fetch of the extended card's own key set shows. The replacement of the public " +
			"card by the extended one is a SHOULD, and keeping the public card when the extended one fails is what the " +
			"text leaves. A client that never fetched the extended card's key set did not verify it: using it then misses " +
			"only the SHOULD to verify before trusting, and warns.",
	},
	"CLI-005": {
		Quotes: []reports.Quote{
			spec("8.3.2", "Clients MUST follow these rules: … Parse supportedInterfaces if present, and select the first supported transport … Prefer earlier entries in the ordered list when multiple options are supported"),
			spec("8.3.1", "The first entry in supportedInterfaces represents the preferred interface"),
			spec("5.2", "Client Choice: Clients MAY choose any protocol declared by the agent"),
		},
		Reading: "The selection rules of 8.3.2 are introduced with MUST, so the text supports a MUST for taking the first " +
			"declared interface whose binding the client supports, and the first of two of the same binding. Section 5.2 " +
			"lets a client choose among the declared protocols (bindings), which the spec leaves free; it does not judge " +
			"which binding a client of several picks.",
	},
	"CLI-006": {
		Quotes: []reports.Quote{
			spec("8.3.2", "Clients MUST follow these rules: … Use the correct URL for the selected transport"),
			spec("8.3.1", "Each interface MUST accurately declare its transport protocol and URL"),
		},
		Reading: "Rule 3 of 8.3.2 is under the same MUST as the tenant rule, so the text supports a MUST for speaking the " +
			"selected interface's own binding at its URL (a JSON-RPC request sent to the URL an interface declares for " +
			"HTTP+JSON is not the correct URL for the transport used).",
	},
	"CLI-007": {
		Quotes: []reports.Quote{
			spec("5.2", "Fallback Behavior: Clients SHOULD implement fallback logic for alternative protocols"),
			spec("8.3.1", "The supportedInterfaces field SHOULD declare all supported protocol combinations in preference order"),
		},
		Reading: "The SHOULD of 5.2 names fallback to alternative protocols, that is another binding. The spec also accepts " +
			"a fallback to another declared interface of the same binding, which 5.2 does not name; a client of one " +
			"binding only can complete the cases only that way, so for it the spec asks more than the sentence. A case " +
			"that does not complete warns.",
	},
	"CLI-020": {
		Quotes: []reports.Quote{
			spec("8.6.2", "Clients SHOULD honor HTTP caching semantics as defined in"),
			spec("8.6.2", "When a cached Agent Card has expired, clients SHOULD use conditional requests (If-None-Match with the stored ETag, or If-Modified-Since) to avoid re-downloading unchanged cards"),
		},
	},
	"CLI-021": {
		Quotes: []reports.Quote{
			spec("3.4.2", "Agents MUST return a … if the provided taskId does not correspond to an existing task"),
			spec("3.3.2", "The specified task ID does not correspond to an existing or accessible task. It might be invalid, expired, or already completed and purged."),
		},
		Reading: "No sentence binds the client here: the MUST is the agent's, which answers a follow-up for a task it no " +
			"longer has with TaskNotFoundError. What the client does then (report the task lost, or re-submit it as a new " +
			"task and say so, on a card re-resolved since the rotation, rather than go on as if it had survived) is " +
			"scenario 1's guard with no keyword behind it, so a miss warns.",
		Scenario: scenario1,
	},
	"CLI-022": {
		Quotes: []reports.Quote{
			spec("13.2", "Clients MUST validate webhook authenticity using the provided authentication credentials"),
			spec("13.2", "Clients MUST respond with HTTP 2xx status codes to acknowledge successful receipt"),
			spec("4.3.3", "The agent MUST include authentication credentials in the request headers as specified in the"),
		},
		Scenario: scenario1,
	},
	"CLI-023": {
		Quotes: []reports.Quote{
			topic("life-of-a-task", "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart."),
			proto("Indicates that a task was canceled before completion. This is a terminal state."),
			spec("3.1.2", "The stream MUST close when the task reaches a terminal state"),
			spec("3.1.5", "The operation attempts to cancel the specified task and returns its updated state."),
		},
		Reading: "No single MUST sentence states this invariant. CancelTask returns the task's updated state; CANCELED is a " +
			"terminal state, a task in a terminal state cannot restart, and a stream closes when its task reaches one. So " +
			"once the agent has answered a cancel with CANCELED, no later state of that task is the task's: a client that " +
			"takes a later COMPLETED from the stream or a poll holds a state the task can no longer reach. Scenario 3 " +
			"(cancel then complete) names the race in the field and routes the later state to reconciliation; merging it " +
			"fails, not raising it warns (that guard has no MUST sentence).",
		Scenario: scenario3,
	},
	"CLI-024": quotes(
		spec("13.2", "Clients MUST validate webhook authenticity using the provided authentication credentials"),
		spec("4.3.3", "Clients SHOULD implement appropriate security measures to verify the notification source"),
	),
	"CLI-025": {
		Quotes: []reports.Quote{
			spec("4.3.3", "Clients MUST validate the task ID matches an expected task"),
			spec("13.2", "Clients SHOULD verify the task ID in the payload matches an expected task they created"),
		},
		Reading: "The text disagrees with itself: 4.3.3 makes the task-id check a MUST, 13.2 a SHOULD. The spec takes the " +
			"weaker reading, so that every reading the text allows passes, and a miss warns.",
	},
	"CLI-026": quotes(
		spec("13.2", "Clients SHOULD use unique, single-purpose tokens for each push notification configuration"),
	),
	"CLI-027": {
		Quotes: []reports.Quote{
			spec("8.4.3", "Clients verifying Agent Card signatures MUST: … Verify the signature against the canonicalized payload"),
			spec("8.4.3", "Clients SHOULD verify at least one signature before trusting an Agent Card"),
		},
		Reading: "The MUST of 8.4.3 binds a verifying client to the procedure, whose last step is to verify the signature; " +
			"the text says what trusting a card takes (a verified signature) only with SHOULD, and says nothing, with any " +
			"keyword, of what a client does with a card whose signature fails. The spec reads going on to use that card as " +
			"not having completed the verification the client undertook (the key-set fetch shows it verifies).",
	},
	"CLI-028": {
		Quotes: []reports.Quote{
			spec("8.4.3", "Clients SHOULD verify at least one signature before trusting an Agent Card"),
			spec("8.4.3", "Retrieve the public key using the kid and jku (or from a trusted key store)"),
		},
	},
	"CLI-029": {
		Quotes: []reports.Quote{
			spec("3.3.4", "If AgentCard.capabilities.streaming is false or not present, attempts to use SendStreamingMessage or SubscribeToTask operations MUST return"),
			spec("3.1.2", "Streaming is not supported by the agent"),
		},
		Reading: "No sentence binds the client here: the MUST is the agent's, which refuses streaming it does not declare " +
			"with UnsupportedOperationError. A client that trusted a stale card's streaming claim must not read that " +
			"refusal as a finished stream; raising it or falling back to a non-streaming send is scenario 3's guard with " +
			"no keyword behind it, so a miss warns.",
	},
	"CLI-030": {
		Quotes: []reports.Quote{
			spec("3.1.1", "Clients send a message to an agent and receive either a task that tracks the processing or a direct response message."),
			proto("The task created or updated by the message."),
			spec("3.1.1", "The operation MUST return immediately with either task information or response message."),
		},
		Reading: "No sentence with a client keyword binds how a client reads an answer; the text defines what SendMessage " +
			"returns (a Task or a Message, the two members of the response's payload). The payload is a valid answer, so " +
			"a client that reports another task, context or state than it carries has misread a defined result, which is " +
			"read as a MUST (the text defines what the operation returns).",
	},
	"CLI-031": {
		Quotes: []reports.Quote{
			spec("3.1.1", "The agent MAY create a new Task to process the provided message asynchronously or MAY return a direct Message response for simple interactions."),
			proto("A message from the agent."),
		},
		Reading: "As for CLI-030: the text defines a direct Message as one of the two answers SendMessage returns. A client " +
			"that raises an error on it, or reports a task the answer does not hold, has misread a defined result; read " +
			"as a MUST because the text defines what the operation returns.",
	},
	"CLI-032": {
		Quotes: []reports.Quote{
			spec("3.1.3", "Current state and artifacts of the requested task"),
			spec("5.7", "Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages. Implementations SHOULD validate these requirements and reject messages with missing required fields."),
		},
		Reading: "GetTask returns the Task: a client that takes the payload must report that task, context and state, read " +
			"as a MUST because the text defines what the operation returns. The payload's history messages lack messageId, " +
			"a REQUIRED field, and the text asks implementations to reject such messages, so refusing the payload is an " +
			"allowed reading and passes.",
	},
	"CLI-033": {
		Quotes: []reports.Quote{
			spec("3.1.3", "The task ID does not exist or is not accessible."),
			spec("5.4", "All A2A-specific errors defined in … MUST be mapped to binding-specific error representations."),
			spec("9.5", "Error Details: Mapped to error.data (array of objects, each containing a @type key, using ProtoJSON Any representation)"),
		},
		Reading: "The answer is an error (-32001, TaskNotFoundError in the mapping table of 5.4), not a result: a client that " +
			"reports the task as it last was instead of raising it has misread a defined answer, read as a MUST because the " +
			"text defines how the operation fails. The payload's error data is an object where 9.5 has an array of typed " +
			"details, so any error class the client raises passes.",
	},
	"CLI-034": {
		Quotes: []reports.Quote{
			proto("Indicates that the agent requires additional user input to proceed. This is an interrupted state."),
			spec("3.4.3", "The client continues the interaction by sending a new message with the same taskId and contextId"),
			proto("A message associated with the status."),
		},
		Reading: "The text defines INPUT_REQUIRED as an interrupted state that the client ends by sending a new message. A " +
			"client that misreports the task or its state, or waits for a terminal state the task cannot reach on its own, " +
			"has misread a defined result; read as a MUST because the text defines what the operation returns.",
	},
	"CLI-035": quotes(
		spec("5.7", "Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves."),
		proto("A url pointing to the file's content."),
	),
	"CLI-036": {
		Quotes: []reports.Quote{
			spec("3.1.2", "The stream MUST close when the task reaches a terminal state"),
			spec("3.7", "Clients using streaming to retrieve task updates MAY not receive all status update messages if the client is disconnected and then reconnects."),
			topic("streaming-and-async", "If a client's SSE connection breaks prematurely while a task is still active, the client is able to attempt to reconnect to the stream using the SubscribeToTask RPC method."),
			spec("3.1.3", "for fetching the final state of a task after being notified via a push notification or after a stream has ended."),
		},
		Reading: "No sentence binds the client here: the MUST is the agent's, which closes a stream at a terminal state, so a " +
			"stream that breaks earlier is not the task's end. The text describes resubscribing or GetTask after a break " +
			"without a keyword; a client that neither raises the break nor resyncs fails a guard with no MUST sentence, so a " +
			"miss warns.",
	},
	"CLI-037": {
		Quotes: []reports.Quote{
			spec("13.2", "Clients MUST validate webhook authenticity using the provided authentication credentials"),
			topic("streaming-and-async", "Upon receiving a push notification (and successfully verifying its authenticity), the client typically uses the GetTask RPC method with the taskId from the notification to retrieve the complete, updated Task object, including any new artifacts."),
		},
		Reading: "The refusal rests on the MUST of 13.2 (the push carries another generation's credentials, not the " +
			"config's). No sentence binds the client to re-fetch the task after it: the text calls GetTask after a push the " +
			"typical pattern, with no keyword, and scenario 1 makes a refused push the sign to re-fetch. A guard without a " +
			"MUST sentence, so a miss warns.",
		Scenario: scenario1,
	},
	"CLI-038": {
		Quotes: []reports.Quote{
			topic("life-of-a-task", "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart."),
			proto("Indicates that a task was canceled before completion. This is a terminal state."),
			spec("3.1.5", "The operation attempts to cancel the specified task and returns its updated state."),
			spec("4.3.3", "The agent MUST include authentication credentials in the request headers as specified in the"),
		},
		Reading: "No single MUST sentence states this invariant. CancelTask returns the task's updated state; CANCELED is a " +
			"terminal state and a task in a terminal state cannot restart, so once the agent has answered a cancel with " +
			"CANCELED no later state of that task is the task's. The later push carries the config's own credentials, as " +
			"the agent MUST send them, so the receiver cannot refuse it as forged; a client that merges its COMPLETED holds " +
			"a state the task can no longer reach. Scenario 3 (cancel then complete) routes it to reconciliation; merging " +
			"it fails, not raising it warns (that guard has no MUST sentence).",
		Scenario: scenario3,
	},
	"CLI-039": quotes(
		spec("3.3.4", "Clients SHOULD validate capability support by examining the Agent Card before attempting operations that require optional capabilities."),
		spec("3.3.4", "If AgentCard.capabilities.streaming is false or not present, attempts to use SendStreamingMessage or SubscribeToTask operations MUST return"),
	),
})

package suites

import "github.com/a2a-conform/a2a-conform/reports"

// The bases of the first lifecycle specs (suites/lifecycle, LIFE-001 …
// LIFE-016): sending, ids and contexts, follow-ups, cancel and streams.
var _ = setBasis(map[string]reports.Basis{
	"LIFE-001": quotes(
		spec("3.1.1", "Clients send a message to an agent and receive either a task that tracks the processing or a direct response message."),
		spec("5.5", "All JSON serializations of the A2A protocol data model MUST use camelCase naming for field names … Enum values MUST be represented according to the … which serializes enums as their string names as defined in the Protocol Buffer definition"),
		spec("5.7", "Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages."),
		spec("5.6.1", "When serialized to JSON (in JSON-RPC, HTTP/REST, or other JSON-based bindings), these timestamps MUST be represented as ISO 8601 formatted strings in UTC timezone."),
	),
	"LIFE-002": quotes(
		spec("3.4.2", "Task IDs are server-generated when a new task is created"),
		spec("3.4.2", "Agents MUST generate a unique taskId for each new task they create"),
		spec("3.4.1", "If an agent generates a new contextId, it MUST be included in the response"),
	),
	"LIFE-003": quotes(
		spec("3.4.1", "Agents MAY accept and preserve client-provided contextId values"),
		spec("3.4.1", "If an agent cannot accept a client-provided contextId, it MUST reject the request with an error and MUST NOT generate a new contextId for the response"),
	),
	"LIFE-004": quotes(
		spec("3.2.2", "Operations are blocking by default"),
		spec("3.2.2", "The operation MUST wait until the task reaches a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED) or an interrupted state (TASK_STATE_INPUT_REQUIRED, TASK_STATE_AUTH_REQUIRED) before returning."),
	),
	"LIFE-005": quotes(
		spec("3.2.2", "The operation MUST return immediately after creating the task, even if processing is still in progress."),
		spec("3.2.2", "The returned task will have an in-progress state (e.g., TASK_STATE_WORKING, TASK_STATE_INPUT_REQUIRED)."),
	),
	"LIFE-006": quotes(
		spec("3.4.2", "Agents MUST return a … TaskNotFoundError … if the provided taskId does not correspond to an existing task"),
		spec("3.4.2", "Client-provided taskId values for creating new tasks is NOT supported"),
	),
	"LIFE-007": {
		Quotes: []reports.Quote{
			spec("3.3.2", "Servers MUST return a not found error when a requested resource does not exist or is not accessible to the authenticated client"),
			spec("3.1.3", "TaskNotFoundError … The task ID does not exist or is not accessible."),
			spec("3.1.5", "TaskNotFoundError … The task ID does not exist or is not accessible."),
			spec("3.1.6", "TaskNotFoundError … The task ID does not exist or is not accessible."),
		},
		Reading: "The MUST is the not-found error of §3.3.2; which error that is for an unknown task id is " +
			"named in the error list of each of the three operations: TaskNotFoundError.",
	},
	"LIFE-008": {
		Quotes: []reports.Quote{
			spec("3.1.1", "UnsupportedOperationError … Messages sent to Tasks that are in a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED) cannot accept further messages."),
			spec("3.3.2", "Servers MUST return appropriate errors"),
			topic("life-of-a-task", "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart. Any subsequent interaction related to that task, such as a refinement, must initiate a new task within the same contextId."),
		},
		Reading: "No sentence says MUST of this error by name. Send Message's error list defines " +
			"UnsupportedOperationError as the error for a message to a terminal task, and servers MUST return " +
			"appropriate errors: the error the text names for the condition is the appropriate one, so " +
			"InvalidParams (a validation error) is not it.",
	},
	"LIFE-009": quotes(
		spec("3.4.3", "Clients MAY use taskId (with or without contextId) to continue or refine a specific task"),
		spec("3.4.3", "Agents MUST infer contextId from the task if only taskId is provided"),
		proto("If only task_id is provided, the server will infer context_id from it."),
	),
	"LIFE-010": quotes(
		spec("3.4.3", "Agents MUST reject messages containing mismatching contextId and taskId (i.e., the provided contextId is different from that of the referenced"),
		proto("if both are provided, they have to match (the context_id has to be the one that is set on the task)."),
	),
	"LIFE-011": {
		Quotes: []reports.Quote{
			topic("life-of-a-task", "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart."),
			proto("Indicates that a task was canceled before completion. This is a terminal state."),
			spec("3.1.2", "The stream MUST close when the task reaches a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED)."),
			spec("3.1.1", "Messages sent to Tasks that are in a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED) cannot accept further messages."),
		},
		Reading: "No single MUST sentence states this invariant. The text calls completed, failed, canceled and " +
			"rejected terminal states and says a task in one cannot restart; a stream must close when the task " +
			"reaches one and a terminal task accepts no further message. So, read across every channel the " +
			"agent reports a task on (GetTask, ListTasks, streams, pushes), a task once shown terminal can " +
			"only be shown in that same state afterwards. Scenario 3 is where this broke in the field: a task " +
			"shown canceled was later shown completed.",
		Scenario: scenario3,
	},
	"LIFE-012": {
		Quotes: []reports.Quote{
			spec("3.1.5", "The server will attempt to cancel the task, but success is not guaranteed (e.g., the task might have already completed or failed, or cancellation might not be supported at its current stage)."),
			spec("3.1.5", "The operation attempts to cancel the specified task and returns its updated state."),
			proto("Indicates that a task was canceled before completion. This is a terminal state."),
			topic("life-of-a-task", "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart."),
		},
		Reading: "No single MUST sentence states this invariant. Cancel Task carries no MUST: a cancel is an " +
			"attempt whose success is not guaranteed and the answer is the task's updated state, so a refusal " +
			"or a cancel that lost the race is allowed (left unjudged), and so is an answer that is still in " +
			"progress (an asynchronous cancel, recorded). What is judged follows once the task is canceled: " +
			"canceled is a terminal state, a task in one cannot restart, and scenario 3 makes any later terminal " +
			"transition after an acknowledged cancel a violation; so a task answered canceled must keep showing " +
			"canceled.",
		Scenario: scenario3,
	},
	"LIFE-013": {
		Quotes: []reports.Quote{
			spec("3.1.5", "TaskNotCancelableError … The task is not in a cancelable state (e.g., already completed, failed, or canceled)."),
			spec("3.3.2", "Servers MUST return appropriate errors"),
			spec("3.3.1", "Cancel Task operations are idempotent - multiple cancellation requests have the same effect."),
			spec("3.3.1", "A duplicate cancellation request MAY return TaskNotFoundError if the task has already been canceled and purged."),
		},
		Reading: "No sentence says MUST of this error by name. Cancel Task's error list defines " +
			"TaskNotCancelableError as the error for a task not in a cancelable state, naming a completed one, " +
			"and servers MUST return appropriate errors. For a task already canceled the same list names " +
			"TaskNotCancelableError while the idempotency rule says a second cancel has the same effect as " +
			"the first, so either answer is taken; and a duplicate cancel of a task that was purged may get " +
			"TaskNotFoundError, which is taken too.",
	},
	"LIFE-014": {
		Quotes: []reports.Quote{
			spec("3.1.5", "The server will attempt to cancel the task, but success is not guaranteed (e.g., the task might have already completed or failed, or cancellation might not be supported at its current stage)."),
			spec("3.1.5", "TaskNotCancelableError … The task is not in a cancelable state (e.g., already completed, failed, or canceled)."),
			topic("life-of-a-task", "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart."),
			spec("3.1.6", "The stream MUST terminate when the task reaches a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED)."),
		},
		Reading: "No single MUST sentence states this invariant. A cancel is an attempt whose success is not " +
			"guaranteed, so either side may win the race. But canceled is a terminal state, a task in a " +
			"terminal state cannot restart, and a stream of the task must end there: once the answer shows the " +
			"task canceled, nothing later may show it completed. A refusal says the task is not in a " +
			"cancelable state, so a refused cancel must not show up later as a canceled task. Scenario 3 is " +
			"the field case of the first: a cancel acknowledged, then the task completed.",
		Scenario: scenario3,
	},
	"LIFE-015": quotes(
		spec("3.1.2", "Task lifecycle stream: If the agent returns a … the stream MUST begin with the Task object, followed by zero or more"),
		spec("3.1.2", "The stream MUST close when the task reaches a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED)."),
		spec("3.5.2", "All implementations MUST deliver events in the order they were generated. Events MUST NOT be reordered during transmission, regardless of protocol binding."),
		spec("9.4.2", "Response: HTTP 200 with Content-Type: text/event-stream"),
	),
	"LIFE-016": quotes(
		spec("3.1.2", "Message-only stream: If the agent returns a … the stream MUST contain exactly one Message object and then close immediately."),
	),
})

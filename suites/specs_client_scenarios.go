package suites

import (
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
)

// clientScenarioSpecs are the client suite's scenario cases (suites/client):
// the decision boundaries of scenarios 1 and 3 as a client meets them (card
// rotation and revalidation, a task lost in a restart, cancel-then-complete,
// webhook binding and forged pushes, card signatures, a stale CDN copy),
// and the ACTS draft's CLIENT-PARSE-* payloads. The sentence each rests on,
// and why a guard without a MUST sentence only warns, are in
// docs/levels.md.
var clientScenarioSpecs = []Info{
	{
		ID: "CLI-020", Suite: Client, Level: SHOULD,
		Title:    "Before its follow-up, the client revalidates its expired card with If-None-Match",
		Sections: []string{"8.6.2"}, Scenario: "1",
		Why: "Scenario 1: re-resolve the card with a conditional GET before every transition the client " +
			"initiates, so that a rotation is seen before it matters. The scripted card carries an ETag and " +
			"max-age=0, so by the follow-up it has expired, and §8.6 asks the same thing: clients SHOULD " +
			"honour RFC 9111 and revalidate an expired card with If-None-Match (or If-Modified-Since). The " +
			"task stops at INPUT_REQUIRED; the spec checks that between the answer to the first message and " +
			"the follow-up the client fetched the card with the ETag it was served. A client that re-fetches " +
			"unconditionally, or not at all, warns.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("8.6.2", "Clients SHOULD honor HTTP caching semantics as defined in"),
				spec("8.6.2", "When a cached Agent Card has expired, clients SHOULD use conditional requests (If-None-Match with the stored ETag, or If-Modified-Since) to avoid re-downloading unchanged cards"),
			},
		},
	},
	{
		ID: "CLI-021", Suite: Client, Level: SHOULD,
		Title:    "After a rotation that lost its task, the client reports the task lost or re-submits it openly",
		Sections: []string{"3.3.2", "3.4.2", "8.6.2"}, Scenario: "1",
		Why: "Scenario 1: a rolling restart rotates the card and loses the in-flight task; a follow-up for " +
			"it gets TaskNotFoundError. The client must then report the task lost, or re-submit the work " +
			"as a new task and say so, and never go on as if the task had survived: not report the old " +
			"task as alive or done, not re-send the follow-up to it again and again, not re-create it " +
			"silently. The stage answers the first message (INPUT_REQUIRED), then rotates to a new card " +
			"generation over an empty store. No sentence of A2A v1.0 binds the client here (the MUST is the " +
			"agent's: an unknown taskId gets TaskNotFoundError), so a miss warns.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
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
	},
	{
		ID: "CLI-022", Suite: Client, Level: MUST,
		Supplied: []string{reports.PieceReceiver},
		Title:    "The push receiver acknowledges the pushes that carry its task's own credentials, also after the card rotated",
		Sections: []string{"4.3.3", "13.2"}, Scenario: "1",
		Why: "Scenario 1: bind webhooks from the task's own push config, not from the card. The client " +
			"registers a push config with its token; once it is registered the card rotates (new version, a " +
			"new authentication scheme advertised), and the task then completes. The agent pushes with the " +
			"credentials of the task's config, as it MUST (§4.3.3). §13.2: clients MUST validate webhook " +
			"authenticity using the credentials they provided, and MUST answer 2xx to acknowledge a push. " +
			"A receiver that refuses the task's own credentials because the card changed fails; the push's " +
			"state must reach the client.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("13.2", "Clients MUST validate webhook authenticity using the provided authentication credentials"),
				spec("13.2", "Clients MUST respond with HTTP 2xx status codes to acknowledge successful receipt"),
				spec("4.3.3", "The agent MUST include authentication credentials in the request headers as specified in the"),
			},
			Scenario: scenario1,
		},
	},
	{
		ID: "CLI-023", Suite: Client, Level: INVARIANT,
		Supplied: []string{reports.PieceState},
		Title:    "After its cancel is acknowledged, the client never takes a later terminal state from the stream or a poll",
		Sections: []string{"3.1.5", "4.2"}, Scenario: "3",
		Why: "Scenario 3: the agent acknowledges a cancel with TASK_STATE_CANCELED, and its worker goes on: " +
			"the stream carries TASK_STATE_COMPLETED after the cancel, and GetTask serves it. A task in a " +
			"terminal state cannot restart (A2A v1.0.1 docs/topics/life-of-a-task.md), so the client must keep the acknowledged " +
			"CANCELED: a client that merges the later COMPLETED fails. Raising the contradiction (a warning or " +
			"an error) is the scenario's guard with no MUST sentence behind it: not raising it warns. The " +
			"spec judges only when the agent was seen serving the later state.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
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
	},
	{
		ID: "CLI-024", Suite: Client, Level: MUST,
		Supplied: []string{reports.PieceReceiver},
		Title:    "The push receiver refuses pushes without its config's token and never takes their state",
		Sections: []string{"13.2", "4.3.3"}, Scenario: "1",
		Why: "Anyone who learns a webhook URL can post to it. §13.2: clients MUST validate webhook " +
			"authenticity using the credentials they provided. While the client's task is working, the " +
			"harness posts two forged pushes naming it with TASK_STATE_FAILED: one with no token, one with a " +
			"wrong one. Each must be refused (not 2xx), and the client must never take FAILED for its task; " +
			"the task then completes through the agent's real pushes.",
		Timeout: 60 * time.Second,
		Grounds: quotes(
			spec("13.2", "Clients MUST validate webhook authenticity using the provided authentication credentials"),
			spec("4.3.3", "Clients SHOULD implement appropriate security measures to verify the notification source"),
		),
	},
	{
		ID: "CLI-025", Suite: Client, Level: SHOULD,
		Supplied: []string{reports.PieceReceiver, reports.PieceState},
		Title:    "A push naming a task the client did not create never changes the client's task",
		Sections: []string{"4.3.3", "13.2"}, Scenario: "1",
		Why: "A push carries the id of the task it is about, and a receiver serves many tasks. The harness " +
			"posts, with the right token, a push naming a task the client never created, in " +
			"TASK_STATE_FAILED; the client must not take that state for its own task, nor start tracking the " +
			"other one. §4.3.3 says clients MUST validate that the task id matches an expected task, §13.2 " +
			"that they SHOULD: the text disagrees with itself, so the spec takes the weaker reading and " +
			"warns.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("4.3.3", "Clients MUST validate the task ID matches an expected task"),
				spec("13.2", "Clients SHOULD verify the task ID in the payload matches an expected task they created"),
			},
			Reading: "The text disagrees with itself: 4.3.3 makes the task-id check a MUST, 13.2 a SHOULD. The spec takes the " +
				"weaker reading, so that every reading the text allows passes, and a miss warns.",
		},
	},
	{
		ID: "CLI-026", Suite: Client, Level: SHOULD,
		Title:    "Each push config the client registers carries a token of its own",
		Sections: []string{"13.2"},
		Why: "§13.2: clients SHOULD use unique, single-purpose tokens for each push notification " +
			"configuration, so that one leaked token forges pushes for one task only. Two push cases give " +
			"the driver two different tokens; the configs the client registered must carry them, not one " +
			"shared token. (The contract hands the token to the driver, so this checks that the client " +
			"stack passes a per-config token through rather than a fixed one of its own.)",
		Timeout: 90 * time.Second,
		Grounds: quotes(
			spec("13.2", "Clients SHOULD use unique, single-purpose tokens for each push notification configuration"),
		),
	},
	{
		ID: "CLI-027", Suite: Client, Level: MUST,
		Title:    "A client that verifies card signatures does not use a card whose signature fails",
		Sections: []string{"8.4.3"}, Scenario: "3",
		Why: "A card signature binds the card to its publisher, so that an edge cache or a proxy cannot " +
			"serve an altered one (scenario 3). §8.4.3 gives the procedure clients verifying a card MUST " +
			"follow; a card whose signature does not verify is not the publisher's. The scripted card is " +
			"altered after signing (its key set is served at the signature's jku). A client that fetched " +
			"the key set, and so verifies, must not go on to send the message through the altered card. A " +
			"client that never fetches the key set is not verifying (or has the key in a store of its own): " +
			"the spec is then not applicable, and CLI-028 says whether it should have.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("8.4.3", "Clients verifying Agent Card signatures MUST: … Verify the signature against the canonicalized payload"),
				spec("8.4.3", "Clients SHOULD verify at least one signature before trusting an Agent Card"),
			},
			Reading: "The MUST of 8.4.3 binds a verifying client to the procedure, whose last step is to verify the signature; " +
				"the text says what trusting a card takes (a verified signature) only with SHOULD, and says nothing, with any " +
				"keyword, of what a client does with a card whose signature fails. The spec reads going on to use that card as " +
				"not having completed the verification the client undertook (the key-set fetch shows it verifies).",
		},
	},
	{
		ID: "CLI-028", Suite: Client, Level: SHOULD,
		Title:    "The client verifies a signed card before it uses it",
		Sections: []string{"8.4.3"}, Scenario: "3",
		Why: "§8.4.3: clients SHOULD verify at least one signature before trusting an Agent Card. The " +
			"scripted card is signed (ES256 over the RFC 8785 canonical card, key set at the jku on the " +
			"same loopback origin). The spec looks for the key-set fetch before the first operation; a " +
			"client that uses the card without fetching it warns (a client with its own key store cannot be " +
			"told apart, and the spec says so). A verifying client must also go on with a card that " +
			"verifies.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("8.4.3", "Clients SHOULD verify at least one signature before trusting an Agent Card"),
				spec("8.4.3", "Retrieve the public key using the kid and jku (or from a trusted key store)"),
			},
		},
	},
	{
		ID: "CLI-029", Suite: Client, Level: SHOULD,
		Title:    "A capability claimed only by a stale copy of the card is raised or given up when the live agent refuses it",
		Sections: []string{"8.6.2", "3.3.4"}, Scenario: "3",
		Why: "Scenario 3: a CDN keeps serving an old build's card while the agent behind it has moved on; " +
			"a card is a claim, to be confirmed against the live agent and downgraded when it does not " +
			"hold. The stale card still advertises streaming; the live agent refuses SendStreamingMessage " +
			"with UnsupportedOperationError (§3.3.4). The client must raise the refusal, or fall back to a " +
			"non-streaming send and finish the task; it must not read the refusal as a finished stream. No " +
			"sentence binds the client, so a miss warns.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("3.3.4", "If AgentCard.capabilities.streaming is false or not present, attempts to use SendStreamingMessage or SubscribeToTask operations MUST return"),
				spec("3.1.2", "Streaming is not supported by the agent"),
			},
			Reading: "No sentence binds the client here: the MUST is the agent's, which refuses streaming it does not declare " +
				"with UnsupportedOperationError. A client that trusted a stale card's streaming claim must not read that " +
				"refusal as a finished stream; raising it or falling back to a non-streaming send is scenario 3's guard with " +
				"no keyword behind it, so a miss warns.",
		},
	},
	{
		ID: "CLI-030", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-001: a SendMessage answer with a completed task is read as that task",
		Sections: []string{"3.1.1", "9.4.1"},
		Why: "The ACTS draft's golden payload (a2aproject/A2A PR #1882, tests/acts/client-parsing.acts.yaml): " +
			"a JSON-RPC SendMessage result holding task task-abc-123 in context ctx-001, COMPLETED, with one " +
			"artifact. The client must report that task, context and state. SendMessage returns a Task or a " +
			"Message (§3.1.1); a valid answer misread fails.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "CLI-031", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-002: a SendMessage answer with a Message is read as a message, with no task",
		Sections: []string{"3.1.1", "9.4.1"},
		Why: "The ACTS golden payload: a SendMessage result holding an agent Message (msg-001) and no task. " +
			"The client must report a message result and no task, and raise nothing.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("3.1.1", "The agent MAY create a new Task to process the provided message asynchronously or MAY return a direct Message response for simple interactions."),
				proto("A message from the agent."),
			},
			Reading: "As for CLI-030: the text defines a direct Message as one of the two answers SendMessage returns. A client " +
				"that raises an error on it, or reports a task the answer does not hold, has misread a defined result; read " +
				"as a MUST because the text defines what the operation returns.",
		},
	},
	{
		ID: "CLI-032", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-003: a GetTask answer is read as the task it holds, or refused for its missing messageIds",
		Sections: []string{"3.1.3", "5.7"},
		Why: "The ACTS golden payload: a GetTask result, task task-xyz-789 COMPLETED with two artifacts and a " +
			"history. Its history messages carry no messageId, which is REQUIRED (§5.7: implementations " +
			"SHOULD reject such messages), so refusing the payload is an allowed answer, and recorded. A " +
			"client that takes it must report that task, context and state.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("3.1.3", "Current state and artifacts of the requested task"),
				spec("5.7", "Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages. Implementations SHOULD validate these requirements and reject messages with missing required fields."),
			},
			Reading: "GetTask returns the Task: a client that takes the payload must report that task, context and state, read " +
				"as a MUST because the text defines what the operation returns. The payload's history messages lack messageId, " +
				"a REQUIRED field, and the text asks implementations to reject such messages, so refusing the payload is an " +
				"allowed reading and passes.",
		},
	},
	{
		ID: "CLI-033", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-004: a TaskNotFoundError answering GetTask is raised, never read as a result",
		Sections: []string{"3.3.2", "9.5"},
		Why: "The ACTS golden payload: a JSON-RPC error -32001 (TaskNotFoundError) answering GetTask. Its " +
			"data is an object, where v1.0 wants an array of typed details, so a client may fail to read the " +
			"details; it must still raise an error and not report the task as it last was. The error class " +
			"it names is recorded (task-not-found expected).",
		Grounds: reports.Basis{
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
	},
	{
		ID: "CLI-034", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-005: a task in INPUT_REQUIRED is read as interrupted, with its status message",
		Sections: []string{"3.1.1", "4.1.3"},
		Why: "The ACTS golden payload: a SendMessage result holding task task-multi-001 in " +
			"TASK_STATE_INPUT_REQUIRED with an agent status message. The client must report that task in " +
			"that state, and not wait for a terminal state that only a new message can bring.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				proto("Indicates that the agent requires additional user input to proceed. This is an interrupted state."),
				spec("3.4.3", "The client continues the interaction by sending a new message with the same taskId and contextId"),
				proto("A message associated with the status."),
			},
			Reading: "The text defines INPUT_REQUIRED as an interrupted state that the client ends by sending a new message. A " +
				"client that misreports the task or its state, or waits for a terminal state the task cannot reach on its own, " +
				"has misread a defined result; read as a MUST because the text defines what the operation returns.",
		},
	},
	{
		ID: "CLI-035", Suite: Client, Level: SHOULD,
		Title:    "ACTS CLIENT-PARSE-006: a task with v0.3-shaped file parts is read as the task, or refused",
		Sections: []string{"5.7", "4.1.6"},
		Why: "The ACTS golden payload (level should): a GetTask result, task task-mixed-001 COMPLETED, " +
			"whose artifacts mix text and data parts with `file` and `fileUrl` parts. Those two are v0.3 " +
			"shapes: in v1.0 they are unknown members (§5.7: SHOULD be ignored) of a part with no content. " +
			"Both taking the task and refusing the part are allowed and recorded; a client that takes it " +
			"must report that task and state.",
		Grounds: quotes(
			spec("5.7", "Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves."),
			proto("A url pointing to the file's content."),
		),
	},
	{
		ID: "CLI-036", Suite: Client, Level: SHOULD,
		Title:    "When its stream is cut before the task ends, the client raises it or resyncs, never taking the cut for the end",
		Sections: []string{"3.1.2", "3.7"},
		Why: "A proxy's idle timeout or a pod's death cuts a stream mid-task. In two cases the stage ends the " +
			"client's stream after the task snapshot and its WORKING update, once by breaking the connection and " +
			"once by ending the response cleanly, which a client cannot tell from a finished stream by its " +
			"transport alone; the task goes on and completes. A stream " +
			"ends at a terminal state (the agent MUST close it then, §3.1.2), so a body that breaks earlier " +
			"is not the task's end: the client must raise it, or resync (GetTask or SubscribeToTask, as " +
			"§3.7 advises after missed updates). A client that raises nothing and asks for nothing reports a " +
			"task it no longer follows as if the stream had finished (an SDK bug class). No sentence binds " +
			"the client, so a miss warns.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
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
	},
}

func init() { register(clientScenarioSpecs...) }

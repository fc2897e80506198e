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
	},
	{
		ID: "CLI-030", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-001: a SendMessage answer with a completed task is read as that task",
		Sections: []string{"3.1.1", "9.4.1"},
		Why: "The ACTS draft's golden payload (a2aproject/A2A PR #1882, tests/acts/client-parsing.acts.yaml): " +
			"a JSON-RPC SendMessage result holding task task-abc-123 in context ctx-001, COMPLETED, with one " +
			"artifact. The client must report that task, context and state. SendMessage returns a Task or a " +
			"Message (§3.1.1); a valid answer misread fails.",
	},
	{
		ID: "CLI-031", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-002: a SendMessage answer with a Message is read as a message, with no task",
		Sections: []string{"3.1.1", "9.4.1"},
		Why: "The ACTS golden payload: a SendMessage result holding an agent Message (msg-001) and no task. " +
			"The client must report a message result and no task, and raise nothing.",
	},
	{
		ID: "CLI-032", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-003: a GetTask answer is read as the task it holds, or refused for its missing messageIds",
		Sections: []string{"3.1.3", "5.7"},
		Why: "The ACTS golden payload: a GetTask result, task task-xyz-789 COMPLETED with two artifacts and a " +
			"history. Its history messages carry no messageId, which is REQUIRED (§5.7: implementations " +
			"SHOULD reject such messages), so refusing the payload is an allowed answer, and recorded. A " +
			"client that takes it must report that task, context and state.",
	},
	{
		ID: "CLI-033", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-004: a TaskNotFoundError answering GetTask is raised, never read as a result",
		Sections: []string{"3.3.2", "9.5"},
		Why: "The ACTS golden payload: a JSON-RPC error -32001 (TaskNotFoundError) answering GetTask. Its " +
			"data is an object, where v1.0 wants an array of typed details, so a client may fail to read the " +
			"details; it must still raise an error and not report the task as it last was. The error class " +
			"it names is recorded (task-not-found expected).",
	},
	{
		ID: "CLI-034", Suite: Client, Level: MUST,
		Title:    "ACTS CLIENT-PARSE-005: a task in INPUT_REQUIRED is read as interrupted, with its status message",
		Sections: []string{"3.1.1", "4.1.3"},
		Why: "The ACTS golden payload: a SendMessage result holding task task-multi-001 in " +
			"TASK_STATE_INPUT_REQUIRED with an agent status message. The client must report that task in " +
			"that state, and not wait for a terminal state that only a new message can bring.",
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
	},
}

func init() { register(clientScenarioSpecs...) }

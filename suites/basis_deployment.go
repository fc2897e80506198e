package suites

import "github.com/a2a-conform/a2a-conform/reports"

// The bases of the webhook (PUSH) and rollout (ROLL) specs.

// Sentences several of them rest on.
var (
	// depAtLeastOnce is the one MUST on delivery itself.
	depAtLeastOnce = spec("4.3.3", "Agents MUST attempt delivery at least once for each configured webhook")
	// depOnUpdate says what is delivered: a POST on a task update.
	depOnUpdate = spec("4.3.3", "When a task update occurs, the agent sends an HTTP POST request to the configured webhook URL.")
	// depServerDecides leaves to the agent which updates it pushes.
	depServerDecides = topic("streaming-and-async", "The A2A Server decides when to send a push notification, typically when a task reaches a significant state change (for example, terminal state, input-required, or auth-required).")
	// depConfigPersists is the MUST on a config's lifetime.
	depConfigPersists = spec("3.1.7", "The configuration MUST persist until task completion or explicit deletion.")
	// depPushCredentials is the MUST on a push's credentials.
	depPushCredentials = spec("4.3.3", "The agent MUST include authentication credentials in the request headers as specified in the … PushNotificationConfig.authentication … field.")
	// depCannotRestart is the finality of a terminal state.
	depCannotRestart = topic("life-of-a-task", "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart.")
)

// depTerminalPushReading is how the MUST PUSH specs that wait for the
// terminal state's push read their level.
const depTerminalPushReading = "The level rests on §4.3.3 read as a whole: when a task update occurs the agent sends a POST to " +
	"the configured webhook (the text's indicative), and delivery MUST be attempted at least once for each configured " +
	"webhook. The streaming-and-async topic lets the agent decide which updates it pushes, naming the terminal state " +
	"first among them; so only the terminal state's push is owed and judged, and the other states seen by polling " +
	"are reported, never judged."

// depTerminalPushInvariant is the reading of the specs that owe a config
// its task's terminal push.
const depTerminalPushInvariant = "No single MUST sentence states this invariant. §4.3.3 requires at least one " +
	"delivery attempt for each configured webhook and sends a POST when a task update occurs; the " +
	"streaming-and-async topic lets the agent choose which updates it pushes and names the terminal state first " +
	"among them. Scenario 2's failure is a config acknowledged whose task then ended unannounced. So the terminal " +
	"state's push is owed and judged, and the other states seen by polling are reported, never judged."

var _ = setBasis(map[string]reports.Basis{
	"PUSH-001": quotes(
		spec("3.1.7", "Created configuration with assigned ID"),
		spec("3.1.8", "The operation MUST return configuration details including webhook URL and notification settings. The operation MUST fail if the configuration does not exist or the client lacks access."),
		spec("3.1.9", "The operation MUST return all active push notification configurations for the specified task"),
		spec("3.1.10", "The operation MUST permanently remove the specified push notification configuration. No further notifications will be sent to the configured webhook after deletion. This operation MUST be idempotent - multiple deletions of the same config have the same effect."),
	),
	"PUSH-002": {
		Quotes: []reports.Quote{
			spec("3.3.2", "Servers MUST return a not found error when a requested resource does not exist or is not accessible to the authenticated client"),
			spec("3.1.7", "TaskNotFoundError … The task ID does not exist or is not accessible."),
			spec("3.1.8", "TaskNotFoundError … The push notification configuration does not exist. … The operation MUST fail if the configuration does not exist or the client lacks access."),
			spec("3.1.10", "TaskNotFoundError … The task ID does not exist."),
		},
		Reading: "§3.3.2 makes a not found error a MUST for a resource that does not exist, and each push-config operation " +
			"names TaskNotFoundError as that error for an unknown task (List in §3.1.9 with the same words as Create); Get of " +
			"a config that does not exist MUST fail, with TaskNotFoundError the one error named, so another error only warns. " +
			"Deleting a config never created on a task that exists has no named error, so a failure there only warns.",
	},
	"PUSH-003": {
		Quotes: []reports.Quote{
			proto("Configuration for the agent to send push notifications for task updates. Task id should be empty when sending this configuration in a `SendMessage` request."),
			spec("3.1.9", "The operation MUST return all active push notification configurations for the specified task"),
			depOnUpdate,
			depAtLeastOnce,
		},
		Reading: depTerminalPushReading + " A config given inline with the message is a configured webhook of the task from " +
			"the start, and List MUST show it while it is active.",
	},
	"PUSH-004": {
		Quotes: []reports.Quote{
			depOnUpdate,
			depAtLeastOnce,
			spec("4.3.3", "The webhook payload is a … StreamResponse … object containing exactly one of the following"),
			depServerDecides,
		},
		Reading:  depTerminalPushInvariant,
		Scenario: scenario2,
	},
	"PUSH-005": {
		Quotes: []reports.Quote{
			depPushCredentials,
			spec("13.2", "Agents MUST include authentication credentials in webhook requests as specified in … PushNotificationConfig.authentication"),
			topic("streaming-and-async", "The A2A Server MUST authenticate itself to the client's webhook URL according to the scheme specified in PushNotificationConfig.authentication."),
			proto("A token unique for this task or session."),
			topic("streaming-and-async", "The webhook endpoint MUST rigorously verify the authenticity of incoming notification requests"),
			topic("streaming-and-async", "Also, validate the PushNotificationConfig.token if provided."),
			spec("13.4", "API keys, tokens, and other credentials MUST be treated as secrets"),
		},
		Reading: "The credentials are the config's authentication, sent as it specifies. A config's token is unique to its " +
			"task or session, and the receiver that MUST verify each push validates it, so the token a push carries is " +
			"the token of the config the push is for. Which header carries it is UNSURE (v1.0.1 dropped " +
			"X-A2A-Notification-Token from its example; SDKs send X-A2A-Notification-Token or A2A-Notification-Token): " +
			"the name is recorded, the value judged. A header naming itself a notification token with another value, " +
			"or any header carrying the token of another config, fails: the push cannot pass its receiver's check, and " +
			"another config's token is another client's secret.",
	},
	"PUSH-006": {
		Quotes: []reports.Quote{
			spec("3.1.7", "The operation MUST establish a webhook endpoint for task update notifications. When task updates occur, the agent will send HTTP POST requests to the configured webhook URL"),
			depConfigPersists,
			depAtLeastOnce,
		},
		Reading: depTerminalPushInvariant + " Once the create is acknowledged the endpoint is established, so an update that " +
			"occurs after the acknowledgement is one the config is owed.",
		Scenario: scenario2,
	},
	"PUSH-007": {
		Quotes: []reports.Quote{
			spec("13.2", "Agents SHOULD implement retry logic with exponential backoff for failed deliveries"),
			spec("4.3.3", "Agents MAY implement retry logic with exponential backoff for failed deliveries"),
			spec("4.3.3", "Clients MUST respond with HTTP 2xx status codes to acknowledge successful receipt"),
			spec("13.2", "Agents MAY stop attempting delivery after a configured number of consecutive failures"),
		},
		Reading: "§4.3.3 makes the retry a MAY and §13.2 a SHOULD; the level follows §13.2, the stronger, so a missing " +
			"retry warns. A 5xx answer is not the 2xx that acknowledges receipt, so the delivery failed; one refusal only is " +
			"scripted because the agent may give up after a number of consecutive failures it chooses.",
	},
	"PUSH-008": {
		Quotes: []reports.Quote{
			depOnUpdate,
			depAtLeastOnce,
			proto("Indicates that a task was canceled before completion. This is a terminal state."),
			depCannotRestart,
		},
		Reading: depTerminalPushInvariant + " That no push carries another terminal state after the acknowledged cancel " +
			"rests on a terminal state being final (it cannot restart) and on scenario 3: it is the invariant LIFE-011 " +
			"judges, seen here through the pushes.",
		Scenario: scenario3,
	},
	"PUSH-009": {
		Quotes: []reports.Quote{
			depConfigPersists,
			spec("3.1.8", "The operation MUST return configuration details including webhook URL and notification settings."),
			spec("3.1.9", "The operation MUST return all active push notification configurations for the specified task"),
			depAtLeastOnce,
		},
		Reading: "A restart of the agent is neither the task's completion nor the config's deletion, so the config MUST " +
			"still be there after it for Get and List, and be delivered to. " + depTerminalPushReading,
	},
	"PUSH-010": quotes(
		spec("13.2", "Agents SHOULD validate webhook URLs to prevent SSRF (Server-Side Request Forgery) attacks … Reject private IP ranges (127.0.0.0/8 … Reject localhost and link-local addresses … Implement URL allowlists where appropriate"),
		topic("streaming-and-async", "Servers SHOULD NOT blindly trust and send POST requests to any URL provided by a client."),
	),

	"ROLL-001": {
		Quotes: []reports.Quote{
			spec("8.6", "Servers and clients SHOULD use standard HTTP caching mechanisms to reduce unnecessary network overhead."),
			spec("8.6.1", "Agent Card HTTP endpoints SHOULD include an ETag response header derived from the Agent Card's version field or a hash of the card content"),
			spec("8.6.2", "When a cached Agent Card has expired, clients SHOULD use conditional requests (If-None-Match with the stored ETag, or If-Modified-Since) to avoid re-downloading unchanged cards"),
		},
		Reading: "No single MUST sentence states this invariant. The ETag is a SHOULD, and §8.6 asks for standard HTTP " +
			"caching, in which an entity tag validates one representation; a client revalidating as §8.6.2 asks keeps " +
			"whatever card a 304 confirms. An ETag kept while the card changed, or a 304 to the ETag of the previous " +
			"generation, leaves that client on a card of a generation the agent no longer serves: scenario 1's rotation " +
			"that the client never sees. So does an instance that, after the change, still serves the previous " +
			"generation's card to a read without validators while a revalidation of its ETag gets another card: every " +
			"client without a cached copy starts from the stale one (an origin, not only a CDN, can be stale). Only a " +
			"card that carries an ETag is judged.",
		Scenario: scenario1,
	},
	"ROLL-002": {
		Quotes: []reports.Quote{
			spec("3.1.3", "Retrieves the current state (including status, artifacts, and optionally history) of a previously initiated task."),
			spec("3.1.3", "TaskNotFoundError … The task ID does not exist or is not accessible."),
			spec("3.4.2", "Agents MUST return a … TaskNotFoundError … if the provided taskId does not correspond to an existing task"),
			spec("3.4.2", "Client-provided taskId values for creating new tasks is NOT supported"),
		},
		Reading: "No single MUST sentence states this invariant. The text does not require a task to outlive a change of the " +
			"deployment, so a lost task is allowed (and reported); but Get Task returns the state of a task previously " +
			"initiated, or TaskNotFoundError, so a task that answers must be that task with its history, never a fresh one " +
			"under its id. A message naming a task the agent no longer has MUST get TaskNotFoundError, and task ids are the " +
			"server's, so the follow-up cannot start a new task under that id, nor (named with its contextId, as SDK clients send " +
			"it) a new task in that context; and a message answered TaskNotFoundError is not applied later: a task that shows " +
			"up under the id afterwards holding it, in another context or without the lost task's first message was re-created " +
			"behind the answer: scenario 1's orphan. A task that still answers " +
			"but never moves again after the harness's roll stopped every instance is neither carried on nor reported absent: " +
			"orphaned by the roll, a violation here as in ROLL-003.",
		Scenario: scenario1,
	},
	"ROLL-003": {
		Quotes: []reports.Quote{
			depConfigPersists,
			depAtLeastOnce,
			depPushCredentials,
			depServerDecides,
		},
		Reading: "No single MUST sentence states this invariant. A config MUST persist until its task completes and " +
			"delivery to it MUST be attempted at least once, with the config's own credentials, whichever instance holds " +
			"the task; which updates are pushed is the agent's choice, so the terminal state, the first the topic names, " +
			"is the push owed, and a task whose config got nothing across the roll is scenario 2's acknowledged-and-dropped webhook.",
		Scenario: scenario2,
	},
	"ROLL-004": {
		Quotes: []reports.Quote{
			proto("Indicates if the agent supports sending push notifications for asynchronous task updates."),
			depAtLeastOnce,
			spec("3.1.2", "The stream MUST close when the task reaches a terminal state"),
			spec("3.3.2", "Servers MAY include retry guidance (e.g., Retry-After header in HTTP)"),
		},
		Reading: "No single MUST sentence states this invariant. The card's capabilities say what the agent supports, and " +
			"an instance serving the card makes that claim for itself: a push config accepted through it MUST get its " +
			"delivery attempted, and a stream through it MUST run to the terminal state. An instance not yet able to do so " +
			"may answer 503 (retry guidance is a MAY, so its absence warns); serving the card before it can is scenario 2.",
		Scenario: scenario2,
	},
	"ROLL-005": quotes(
		spec("3.5.2", "Events MUST be broadcast to all active streams for that task"),
		spec("3.5.2", "Each stream MUST receive the same events in the same order"),
		spec("3.1.6", "The operation MUST return a Task object as the first event in the stream"),
		spec("3.1.6", "The stream MUST terminate when the task reaches a terminal state"),
	),
	"ROLL-006": {
		Quotes: []reports.Quote{
			spec("3.1.5", "The operation attempts to cancel the specified task and returns its updated state."),
			proto("Indicates that a task was canceled before completion. This is a terminal state."),
			depCannotRestart,
			spec("3.1.6", "The stream MUST terminate when the task reaches a terminal state"),
			depAtLeastOnce,
			depServerDecides,
		},
		Reading: "No single MUST sentence states this invariant. A cancel acknowledged with TASK_STATE_CANCELED has put the " +
			"task in a terminal state, which cannot restart, and a stream MUST end there; so no instance, stream or push " +
			"may show another state or a new artifact after it, whichever instance took the cancel: scenario 3. Delivery " +
			"MUST be attempted for each configured webhook, and the topic names the terminal state first among the updates " +
			"an agent pushes, so a config registered through the instance running the task is owed TASK_STATE_CANCELED " +
			"whichever instance took the cancel (the reading of PUSH-004 and PUSH-008, across instances); a push that is " +
			"only late is not judged lost.",
		Scenario: scenario3,
	},
	"ROLL-007": {
		Quotes: []reports.Quote{
			spec("3.3.4", "If AgentCard.capabilities.pushNotifications is false or not present, operations related to push notification configuration (Create, Get, List, Delete) MUST return … PushNotificationNotSupportedError"),
			spec("3.3.4", "If AgentCard.capabilities.streaming is false or not present, attempts to use SendStreamingMessage or SubscribeToTask operations MUST return … UnsupportedOperationError"),
			spec("8.3.1", "Each interface MUST accurately declare its transport protocol and URL"),
			spec("3.1.2", "The operation MUST establish a streaming connection for real-time updates."),
			spec("3.1.7", "The operation MUST establish a webhook endpoint for task update notifications."),
			depCannotRestart,
		},
		Reading: "The refusals of a dropped capability are the §3.3.4 MUSTs, against the card the live build declares. A " +
			"build is judged by what it does, not its card alone: a capability both cards claim is tried on the new build, " +
			"and one it refuses was dropped all the same, while its own card, which still claims it, fails the MUST of the " +
			"operation it claims (a stream established, a webhook endpoint established: the reading of DISC-013 and " +
			"DISC-014, on the next build). A " +
			"dropped interface still answering at its old URL must answer as the binding declared for it, never as " +
			"another. A dropped extension rests on §4.6.3, which leaves unsure which card marks it required, so only a " +
			"false claim of activation warns. The cancel-then-complete race run during the overlap rests on a terminal " +
			"state being final, which no MUST sentence states (the invariant of LIFE-011 and LIFE-014, scenario 3).",
		Scenario: scenario3,
	},
	"ROLL-008": {
		Quotes: []reports.Quote{
			spec("8.6", "Servers and clients SHOULD use standard HTTP caching mechanisms to reduce unnecessary network overhead."),
			spec("8.6.1", "Agent Card HTTP endpoints SHOULD include an ETag response header derived from the Agent Card's version field or a hash of the card content"),
			spec("8.6.2", "When a cached Agent Card has expired, clients SHOULD use conditional requests (If-None-Match with the stored ETag, or If-Modified-Since) to avoid re-downloading unchanged cards"),
		},
		Reading: "No single MUST sentence states this invariant. A client that revalidates its card as §8.6.2 asks learns " +
			"of a new generation only through the validator; an instance that confirms the old card after serving a new " +
			"one, or goes back to an older generation, keeps the client on a card no longer served: scenario 1.",
		Scenario: scenario1,
	},
	"ROLL-010": {
		Quotes: []reports.Quote{
			spec("3.1.3", "Retrieves the current state (including status, artifacts, and optionally history) of a previously initiated task."),
			spec("3.2.2", "The response MUST include the latest task state with all artifacts and status information."),
			spec("3.4.3", "Clients MAY use taskId (with or without contextId) to continue or refine a specific task"),
			depCannotRestart,
		},
		Reading: "No single MUST sentence states this invariant. Get Task returns a task's current state with its artifacts, " +
			"a blocking answer MUST include all of them, and the text gives an agent no way to take back an artifact a task " +
			"produced: so an artifact a task was shown holding is in every later answer about it, whichever instance gives " +
			"it, and a turn continued through an instance that writes back its older copy of the task breaks that. History " +
			"is the agent's to keep (not every message is guaranteed to be persisted), so a message it drops is reported, " +
			"never judged. A task in a terminal state cannot restart, so a follow-up through another instance must not " +
			"bring an ended task back: after an acknowledged cancel that is scenario 3's second terminal transition.",
		Scenario: scenario3,
	},
	"ROLL-011": {
		Quotes: []reports.Quote{
			spec("8.6", "Servers and clients SHOULD use standard HTTP caching mechanisms to reduce unnecessary network overhead."),
			spec("8.6.1", "Agent Card HTTP endpoints SHOULD include an ETag response header derived from the Agent Card's version field or a hash of the card content"),
			spec("8.6.1", "Agent Card HTTP endpoints MAY include a Last-Modified response header"),
			spec("8.6.2", "When a cached Agent Card has expired, clients SHOULD use conditional requests (If-None-Match with the stored ETag, or If-Modified-Since) to avoid re-downloading unchanged cards"),
		},
		Reading: "No single MUST sentence states this invariant. An ETag derived from the card's version or from a hash of " +
			"its content depends on the card alone, so the same card carries the same ETag on every instance and after a " +
			"restart; one that differs is derived from something else and misses the SHOULD, and a client revalidating as " +
			"§8.6.2 asks downloads an unchanged card again whenever another instance answers: a warning. Last-Modified is " +
			"optional; when sent it is RFC 9110's header (§8.8.2), the date the origin believes the card was last " +
			"modified, and the instances behind one balancer are one origin. A date that differs by instance, or moves " +
			"when an instance restarts, for the same card is the optional header done wrongly: a warning. What fails is " +
			"its consequence in a rollout: an instance of the old build that restarts after one of the new build dates " +
			"the old card later than the new one, and the new instance then answers 304 to a client revalidating the old " +
			"card by its date. That client keeps a card of a generation the answering instance no longer serves, the " +
			"invariant ROLL-001 judges for the ETag. Only cards identical byte for byte are held to the same validators.",
		Scenario: scenario1,
	},
	"ROLL-009": {
		Quotes: []reports.Quote{
			depConfigPersists,
			depAtLeastOnce,
			depPushCredentials,
			depServerDecides,
		},
		Reading: "No single MUST sentence states this invariant. A config accepted through any instance, before or while " +
			"it drains, MUST persist until its task completes and MUST get a delivery attempted with its own credentials; " +
			"which updates are pushed is the agent's choice, so the terminal state its task reached is the push owed. A " +
			"refusal is honest; an acceptance followed by silence is scenario 2.",
		Scenario: scenario2,
	},
})

package suites

import (
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
)

// clientSpecs are the client suite's specs (suites/client): the harness plays
// a scripted agent and judges a vendor's client through its client driver
// (docs/client-driver.md). CLI-001…019 are the protocol's client rules and
// the known SDK bug classes; CLI-020 and up are the scenario cases, in a
// table of their own file.
var clientSpecs = []Info{
	{
		ID: "CLI-001", Suite: Client, Level: MUST,
		Title:    "The client sends A2A-Version on every request",
		Sections: []string{"3.6", "3.2.6"},
		TCK:      []string{"VER-CLIENT-001"},
		Why: "A missing A2A-Version means 0.3 (§3.6.2): a v1.0 agent may refuse the request with " +
			"VersionNotSupportedError or serve it with 0.3 semantics. Clients MUST send it on every " +
			"request. The spec runs a send and a streaming flow and checks every operation request the " +
			"client sent (card fetches are recorded, not judged).",
		Timeout: 60 * time.Second,
		Grounds: quotes(
			spec("3.6.1", "Clients MUST send the A2A-Version header with each request to maintain compatibility after an agent upgrades to a new version of the protocol (except for 0.3 Clients - 0.3 will be assumed for empty header)."),
			spec("3.6.1", "Clients MAY provide the A2A-Version as a request parameter instead of a header."),
		),
	},
	{
		ID: "CLI-002", Suite: Client, Level: MUST,
		Title:    "The client copies its interface's tenant into every request",
		Sections: []string{"8.3.2", "5.2"},
		Why: "An interface that declares a tenant routes by it: v1.0.1 §8.3.2 item 4 says clients MUST " +
			"copy it into every request (JSON-RPC params.tenant; HTTP+JSON the /{tenant} path prefix or " +
			"the body's tenant). A client that never sends it reaches the wrong tenant or none (a known " +
			"SDK bug class).",
		Grounds: quotes(
			spec("8.3.2", "Clients MUST follow these rules: … Set the tenant field in every request message to exactly the value declared in the selected AgentInterface entry (omit the field if tenant is not set in that entry)"),
			proto("When set, clients MUST include this value in the tenant field of all request messages sent to this interface."),
		),
	},
	{
		ID: "CLI-003", Suite: Client, Level: SHOULD,
		Title:    "The client ignores unknown fields in the card and in every answer",
		Sections: []string{"5.7"},
		Why: "A newer agent adds members an older client does not know; §5.7 says unknown fields SHOULD " +
			"be ignored. The scripted agent adds one to every object of the card, of every response and " +
			"of every stream event; a client that rejects them (a known SDK bug class) cannot talk to " +
			"any agent newer than itself. SHOULD, so a miss warns.",
		Grounds: quotes(
			spec("5.7", "Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves."),
		),
	},
	{
		ID: "CLI-004", Suite: Client, Level: SHOULD,
		Title:    "A plain JSON-RPC error answering a streaming request is raised, not read as an empty stream",
		Sections: []string{"9.4.2", "3.1.2"},
		Why: "Agents may answer a streaming request that fails before it starts with a plain (non-SSE) " +
			"error response (A2A v1.0 §3.1.2: accepted practice). A client that reads it as a stream with " +
			"no events, and so as a success, hides the error from its caller (a known SDK bug class). " +
			"No sentence of the A2A text binds the client here, so a miss warns (docs/levels.md).",
		Grounds: reports.Basis{
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
	},
	{
		ID: "CLI-008", Suite: Client, Level: SHOULD,
		Title:    "An error the agent sends inside a stream is raised or resynced, never read as an event or as the stream's end",
		Sections: []string{"3.3.2", "11.7", "9.4.2"},
		Why: "A stream that fails mid-task carries an error object where an event would be, then ends. The " +
			"text gives that error no framing, so the scripted agent sends the ones seen in practice, after " +
			"the task snapshot and its WORKING update: a JSON-RPC error response in a data: line, and " +
			"HTTP+JSON's {\"error\": Status} with and without an event: error line. Each case declares both " +
			"bindings (HTTP+JSON first twice, JSON-RPC first once), so a client is judged in the framing of " +
			"the binding it picks. A client that drops it reports an empty event and then success for a task it no " +
			"longer follows (an SDK bug class). Raising it passes, as does resyncing (GetTask or " +
			"SubscribeToTask). No sentence binds the client, so a miss warns.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("3.3.2", "Servers MUST return appropriate errors and SHOULD provide actionable information to help clients resolve issues."),
				spec("11.7", "Streaming responses are simple, linearly ordered sequences: first a Task (or single Message), then zero or more status or artifact update events until the task reaches a terminal or interrupted state, at which point the stream closes."),
			},
			Reading: "No sentence binds the client here, and none gives an error inside a stream its framing: the MUST is the " +
				"agent's, which returns an error when an operation fails, and a stream is a task, then updates, closed at a " +
				"terminal or interrupted state, so an error object is neither an event nor that close. A client that drops " +
				"it reports a success the agent never gave. That is a guard without a client keyword, so a miss warns.",
		},
	},
	{
		ID: "CLI-009", Suite: Client, Level: SHOULD,
		Title:    "An HTTP+JSON error sent as application/a2a+json is read as the A2A error it names, as it is when sent as application/json",
		Sections: []string{"11.1", "11.6"},
		Why: "v1.0.1 asks HTTP+JSON answers to use application/a2a+json. A client whose error parser " +
			"accepts only application/json raises every such error as a bare HTTP status, so a client can " +
			"no longer tell TaskNotFoundError from any other 404 (an SDK bug class). The scripted agent " +
			"answers the client's GetTask with A2A v1.0.1 §11.6's TaskNotFoundError, once as " +
			"application/a2a+json and once as application/json: the error must be raised, and typed as " +
			"task-not-found whenever the application/json one is. No sentence binds the client, so a miss " +
			"warns; a client that speaks only JSON-RPC is not applicable.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("11.1", "application/a2a+json SHOULD be used for requests and responses"),
				spec("11.6", "implementations MUST include a google.rpc.ErrorInfo object in the details array for A2A-specific errors"),
			},
			Reading: "No sentence binds the client here: the keywords are the agent's, which answers HTTP+JSON as " +
				"application/a2a+json and names each A2A error in an ErrorInfo. A client that reads that error only " +
				"as application/json loses what the MUST is for. That is a guard without a client keyword, so a miss warns.",
		},
	},
	{
		ID: "CLI-010", Suite: Client, Level: SHOULD,
		Title:    "A revalidated card whose interfaces moved to new URLs is taken, not refused, and the task goes on",
		Sections: []string{"8.3.2", "8.6.2"},
		Why: "A rotation can move an agent's endpoint (scenario 1: the worker's card changed its url). Once the " +
			"first message is answered, the scripted agent's card declares every interface at a new URL; the " +
			"old URLs keep working, since the text does not say which one a task begun on the old one must " +
			"use. A follow-up through either passes. A client that refuses the new card because it no longer " +
			"lists the endpoint in use (a resolver bug class) ends the flow instead. No sentence binds the " +
			"client, so a miss warns.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
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
	},
	{
		ID: "CLI-011", Suite: Client, Level: MUST,
		Title:    "On HTTP+JSON, the client sends ListTasks' filters as camelCase query parameters",
		Sections: []string{"11.5", "3.1.4"},
		Why: "An HTTP+JSON ListTasks is a GET: its filters travel as query parameters, which §11.5 says MUST " +
			"use camelCase, the JSON names of the request's fields (contextId, pageSize, not context_id, " +
			"page_size). A client that names them after the proto fields sends filters the agent does not " +
			"read, and gets every task back (an SDK bug class). The client sends a message and then lists the " +
			"tasks of its context in the state the task ended in (action list), HTTP+JSON listed first; a " +
			"client that lists over JSON-RPC is not applicable.",
		Timeout: 60 * time.Second,
		Grounds: quotes(
			spec("11.5", "Query parameter names MUST use camelCase to match the JSON serialization of Protocol Buffer field names."),
			spec("11.5", "HTTP methods that do not support request bodies (GET, DELETE) MUST transmit operation request parameters as path parameters or query parameters."),
		),
	},
	{
		ID: "CLI-012", Suite: Client, Level: SHOULD,
		Title:    "A default push config the application gives its client reaches every task the client creates, sent or streamed",
		Sections: []string{"3.1.1", "3.1.2", "3.1.7"},
		Supplied: []string{reports.PieceDefaultPush},
		Why: "Client SDKs let an application set one push config for every message its client sends. One that " +
			"attaches it only to some requests (only to messages that name a task, or to SendMessage and not " +
			"SendStreamingMessage) leaves the application's receiver deaf to the other tasks, and the application " +
			"waits for pushes that never come (an a2a-js client attached its default only to messages naming a " +
			"taskId). The driver gives its client the case's webhook as that default and creates two tasks, one " +
			"with SendMessage and one with SendStreamingMessage (action push-default); the scripted agent's own " +
			"record must show a config for the webhook on each, given inline with the creating message or " +
			"separately with CreateTaskPushNotificationConfig, as the text allows both. No sentence binds a client " +
			"to its own default, so a miss warns.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
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
	},
	{
		ID: "CLI-013", Suite: Client, Level: MUST,
		Title:    "A client that verifies card signatures keeps the card it trusts when the extended card's signature fails",
		Sections: []string{"8.4.3", "3.1.11", "13.3"},
		Why: "A client that fetched an extended card whose signature does not verify, and raised that, must not go " +
			"on with it: a2a-js kept the refused card in its cache, so that later capability checks, and later " +
			"calls for the card, ran on content the application had refused to trust. The scripted public card is " +
			"signed and claims no streaming; its extended card is signed with a key set of its own (at the " +
			"signature's jku), then altered, and claims streaming and interfaces at other URLs. The driver streams " +
			"a message, fetches and verifies the extended card, and streams another (action extended-card). A " +
			"second message that uses the extended card (through its interfaces, or streamed when the first, under " +
			"the public card, was not) fails when the client fetched the extended card's key set, and so verifies " +
			"it (§8.4.3's procedure); without that fetch the client did not verify the card it then trusted, which " +
			"the text asks only with SHOULD, and it warns.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
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
	},
	{
		ID: "CLI-005", Suite: Client, Level: MUST,
		Title:    "The client picks the first declared interface whose binding it speaks, not the first listed",
		Sections: []string{"8.3.2", "5.8"},
		Why: "§8.3.2: walk supportedInterfaces in order and pick the first binding the client supports. " +
			"One scripted card lists first an interface of a custom binding no client speaks; a client " +
			"that takes the first entry whatever its binding (a known SDK bug class) talks to a URL " +
			"that does not speak its binding. Another lists each binding twice, at different URLs " +
			"(JSON-RPC, HTTP+JSON, JSON-RPC, HTTP+JSON, all working): whichever binding the client " +
			"speaks, its requests belong at the first interface of that binding, and a client that " +
			"takes the last one of its binding (the @a2a-js/sdk 1.3.0 ClientFactory shape) is caught " +
			"by the URL its requests reach. §8.3.2 introduces its selection rules with MUST, so a miss fails. " +
			"Two more cards list a JSON-RPC interface of protocolVersion 0.3 first (then JSON-RPC and HTTP+JSON " +
			"at 1.0, or HTTP+JSON alone): a 1.0 client that picks it is reported as a disputed finding, since " +
			"the text does not settle whether an interface of another version is a supported transport.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "CLI-006", Suite: Client, Level: MUST,
		Title:    "The client speaks each interface's own binding at its URL (HTTP+JSON listed first)",
		Sections: []string{"8.3.2", "5.2"},
		Why: "With HTTP+JSON listed before JSON-RPC, a client that speaks HTTP+JSON uses it and a " +
			"JSON-RPC-only client skips it; a client that sends JSON-RPC to the HTTP+JSON URL took the " +
			"first entry whatever its binding. §8.3.2 introduces its selection rules with MUST, so a miss fails.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("8.3.2", "Clients MUST follow these rules: … Use the correct URL for the selected transport"),
				spec("8.3.1", "Each interface MUST accurately declare its transport protocol and URL"),
			},
			Reading: "Rule 3 of 8.3.2 is under the same MUST as the tenant rule, so the text supports a MUST for speaking the " +
				"selected interface's own binding at its URL (a JSON-RPC request sent to the URL an interface declares for " +
				"HTTP+JSON is not the correct URL for the transport used).",
		},
	},
	{
		ID: "CLI-007", Suite: Client, Level: SHOULD,
		Title:    "When the interface it picked refuses connections, the client falls back to another declared one",
		Sections: []string{"5.2", "8.3.2"},
		Why: "§5.2 asks clients to implement fallback logic for alternative protocols (SHOULD). Two scripted cards, one per " +
			"binding listed first: that binding's interface on a port that refuses connections, a " +
			"working one of the same binding, a working one of the other binding, then the first " +
			"binding again on a refusing port. A client that never falls back gives up in at least " +
			"one case whether it takes the first interface of its binding (§8.3.2) or the last, and " +
			"whichever binding it prefers; a client that falls back, to another URL of its binding " +
			"or to the other binding (both readings of the sentence), completes both. A case that " +
			"ends without the task completed warns.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("5.2", "Fallback Behavior: Clients SHOULD implement fallback logic for alternative protocols"),
				spec("8.3.1", "The supportedInterfaces field SHOULD declare all supported protocol combinations in preference order"),
			},
			Reading: "The SHOULD of 5.2 names fallback to alternative protocols, that is another binding. The spec also accepts " +
				"a fallback to another declared interface of the same binding, which 5.2 does not name; a client of one " +
				"binding only can complete the cases only that way, so for it the spec asks more than the sentence. A case " +
				"that does not complete warns.",
		},
	},
}

func init() { register(clientSpecs...) }

package suites

import (
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
)

// registry is the frozen list of specs. Keep it sorted by ID within each area;
// never reuse an ID. specs.golden must list exactly these.
var registry = []Info{
	// ---- discovery -------------------------------------------------------
	{
		ID: "DISC-001", Suite: Discovery, Level: MUST,
		Title:    "The agent card is served at /.well-known/agent-card.json as JSON",
		Sections: []string{"8.1", "8.2"}, Scenario: "3",
		TCK: []string{"CARD-DISC-001"},
		Why: "Discovery is the first thing every client does: a GET of the well-known path must " +
			"answer 200 with a JSON body that decodes as an AgentCard. Everything else the " +
			"harness checks starts from this card.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("8.1", "A2A Servers MUST make an Agent Card available."),
				spec("8.2", "Clients can find Agent Cards through: … Well-Known URI: Accessing https://{server_domain}/.well-known/agent-card.json"),
				spec("14.3", "The resource at this URI MUST return an AgentCard object as defined in Section 4.4.1 of the A2A specification."),
			},
			Reading: "The card must be available, and the well-known URI, when served, must return an AgentCard. " +
				"The well-known URI is one of three discovery mechanisms the text lists, the only one a harness " +
				"given a base URL can use; no sentence makes that path itself a MUST.",
		},
	},
	{
		ID: "DISC-002", Suite: Discovery, Level: MUST,
		Title:    "The agent card is valid against the v1.0 AgentCard schema",
		Sections: []string{"4.4.1", "5.5", "5.7", "8.3"}, Scenario: "3",
		TCK: []string{"CARD-STRUCT-001", "CARD-PROTO-001", "CARD-PROTO-002", "DM-SERIAL-001", "DM-SERIAL-004"},
		Why: "Every REQUIRED field of the proto must be present (required arrays non-empty), " +
			"names camelCase, shapes ProtoJSON. A v0.3-only card (top-level url, no " +
			"supportedInterfaces) fails and says so; extra v0.3 keys beside a valid v1.0 card " +
			"are allowed and reported.",
		Grounds: quotes(
			spec("5.7", "Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages."),
			spec("5.7", "Arrays marked as required MUST contain at least one element."),
			spec("5.5", "All JSON serializations of the A2A protocol data model MUST use camelCase naming for field names"),
			spec("8.3", "The AgentCard MUST properly declare supported protocols"),
		),
	},
	{
		ID: "DISC-003", Suite: Discovery, Level: SHOULD,
		Title:    "The card response carries Cache-Control with a max-age",
		Sections: []string{"8.6.1"}, Scenario: "3",
		TCK: []string{"CARD-CACHE-001"},
		Why: "Without a max-age, caches and CDNs pick their own lifetime for the card and a " +
			"rotated card can be served stale for as long as they like (scenario 3).",
		Grounds: quotes(
			spec("8.6.1", "Agent Card HTTP endpoints SHOULD include a Cache-Control response header with a max-age directive appropriate for the agent's expected update frequency"),
		),
	},
	{
		ID: "DISC-004", Suite: Discovery, Level: SHOULD,
		Title:    "The card response carries an ETag that is stable while the card is unchanged",
		Sections: []string{"8.6.1"}, Scenario: "1",
		TCK: []string{"CARD-CACHE-002"},
		Why: "The ETag is the card's generation: clients revalidate with it, and the harness " +
			"uses it to tell a rotation from a stale copy. An ETag that changes on every fetch " +
			"of the same card makes revalidation useless.",
		Grounds: quotes(
			spec("8.6.1", "Agent Card HTTP endpoints SHOULD include an ETag response header derived from the Agent Card's version field or a hash of the card content"),
		),
	},
	{
		ID: "DISC-005", Suite: Discovery, Level: SHOULD,
		Title:    "A conditional GET with the card's current ETag gets 304 Not Modified",
		Sections: []string{"8.6.1"}, Scenario: "1",
		Why: "Revalidation is how a client learns cheaply that its cached card is still current " +
			"(RFC 9110 §13.1.2). An agent that ignores If-None-Match forces a full fetch every " +
			"time, and a client that must re-resolve the card before each state transition " +
			"(scenario 1) pays for it on every step.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("8.6", "Servers and clients SHOULD use standard HTTP caching mechanisms to reduce unnecessary network overhead."),
				spec("8.6.2", "When a cached Agent Card has expired, clients SHOULD use conditional requests (If-None-Match with the stored ETag, or If-Modified-Since) to avoid re-downloading unchanged cards"),
			},
			Reading: "The server side of the conditional requests clients SHOULD send is the standard HTTP answer " +
				"to them (RFC 9110 §13.1.2: 304 for a matching If-None-Match), which the caching SHOULD covers.",
		},
	},
	{
		ID: "DISC-006", Suite: Discovery, Level: SHOULD,
		Title:    "When the card body depends on A2A-Version, the response says Vary: A2A-Version",
		Sections: []string{"8.6"}, Scenario: "3",
		Why: "Some agents serve a v0.3 card to clients that send no A2A-Version and a v1.0 card to " +
			"those that do. A cache that is not told the body varies by that header hands one client " +
			"the other's card: the stale-CDN failure of scenario 3. The spec fetches the card with " +
			"and without the header and, when the bodies differ, requires Vary to name A2A-Version.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("8.6", "Servers and clients SHOULD use standard HTTP caching mechanisms to reduce unnecessary network overhead."),
				spec("8.6.2", "Clients SHOULD honor HTTP caching semantics"),
				spec("3.6.2", "Agents MUST process requests using the semantics of the requested A2A-Version (matching Major.Minor)."),
			},
			Reading: "No sentence names Vary. A card body that depends on the A2A-Version request header is cached " +
				"correctly under standard HTTP caching (RFC 9110 §12.5.5, RFC 9111 §4.1) only when the response " +
				"says Vary: A2A-Version; the level is the caching SHOULD.",
		},
	},
	{
		ID: "DISC-007", Suite: Discovery, Level: MAY,
		Title:    "Last-Modified, when sent, is a valid HTTP-date not in the future and revalidates with If-Modified-Since",
		Sections: []string{"8.6.1"},
		TCK:      []string{"CARD-CACHE-003"},
		Why: "Last-Modified is optional, but a malformed or future date poisons every cache that " +
			"trusts it. When the header is present it must parse as an HTTP-date (RFC 9110 §5.6.7), " +
			"not lie in the future, and a conditional GET with it must not return a different card as" +
			" 304.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("8.6.1", "Agent Card HTTP endpoints MAY include a Last-Modified response header"),
			},
			Reading: "The header is optional. When sent it is the HTTP header RFC 9110 §8.8.2 defines, so its form " +
				"and its use in If-Modified-Since revalidation are RFC 9110's; the A2A text adds nothing beyond MAY.",
		},
	},
	{
		ID: "DISC-008", Suite: Discovery, Level: SHOULD,
		Title:    "The card carries no v0.3-only members beside its v1.0 fields",
		Sections: []string{"8.3", "4.4.1"}, Scenario: "3",
		Why: "Hybrid cards (v0.3 url, preferredTransport, protocolVersion … beside " +
			"supportedInterfaces) are allowed by the schema but leave old clients talking to the v0.3" +
			" endpoint while new ones use v1.0: two views of one agent. The spec reports each " +
			"v0.3-only member as a warning.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("A.2", "Server Implementations MAY: … Emit only current form in responses (recommended)"),
				spec("A.2.1", "The kind field is no longer part of the protocol and should not be emitted"),
				spec("A.2.2", "Remove supportsExtendedAgentCard from top-level AgentCard"),
				spec("5.7", "Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves."),
			},
			Reading: "Only the migration appendix speaks to legacy members in what a server emits: emitting only the " +
				"current form is recommended (RFC 2119 keywords, in lower case), and kind and " +
				"supportsExtendedAgentCard are to go. No sentence names the other v0.3 card members, and a " +
				"receiver ignores unrecognized fields, so a hybrid card is valid and each legacy member is " +
				"at most a SHOULD.",
		},
	},
	{
		ID: "DISC-009", Suite: Discovery, Level: MUST,
		Title:    "Every declared interface answers with the binding and protocol version it declares",
		Sections: []string{"5.2", "8.3", "8.3.1", "9.1", "11.3"}, Scenario: "3",
		TCK: []string{"CARD-PROTO-001", "CARD-PROTO-002", "BIND-FIELD-001", "JSONRPC-SVC-001", "HTTP_JSON-URL-001", "HTTP_JSON-URL-002", "GRPC-SVC-001", "GRPC-SVC-003"},
		Why: "A card is a claim (scenario 3): each supportedInterfaces entry must be an absolute URL " +
			"that speaks the binding it names, at the protocol version it names. The spec probes " +
			"every JSON-RPC, HTTP+JSON and gRPC interface with a GetTask for an unknown id and expects" +
			" that binding's TaskNotFound answer; an interface of a binding or major version the " +
			"harness does not speak (custom URIs, 0.3) is listed as unchecked, so the spec cannot " +
			"pass over it.",
		Grounds: quotes(
			spec("8.3.1", "Each interface MUST accurately declare its transport protocol and URL"),
			spec("3.6.2", "Agents MUST process requests using the semantics of the requested A2A-Version (matching Major.Minor)."),
			proto("The URL where this interface is available. Must be a valid absolute HTTPS URL in production."),
		),
	},
	{
		ID: "DISC-010", Suite: Discovery, Level: MUST,
		Title:    "An unsupported A2A-Version is refused with VersionNotSupportedError on every binding",
		Sections: []string{"3.6.2"},
		TCK:      []string{"VER-SERVER-002", "VER-SERVER-001", "GRPC-META-001"},
		Why: "An agent that serves a request under a version it does not implement answers with " +
			"semantics the client did not ask for. A request with A2A-Version: 9.9 must get " +
			"VersionNotSupportedError (-32009, HTTP 400 with reason VERSION_NOT_SUPPORTED); the same " +
			"request with 1.0 must be served.",
		Grounds: quotes(
			spec("3.6.2", "If the version is not supported by the interface, agents MUST return a … VersionNotSupportedError"),
			spec("3.3.2", "The A2A protocol version specified in the request (via A2A-Version service parameter) is not supported by the agent."),
		),
	},
	{
		ID: "DISC-011", Suite: Discovery, Level: MUST,
		Title:    "A request without A2A-Version is served as 0.3 or refused with VersionNotSupportedError, never with another error",
		Sections: []string{"3.6.2"},
		TCK:      []string{"VER-SERVER-003"},
		Why: "The spec says a missing A2A-Version means 0.3; a v1.0-only agent should then refuse with" +
			" VersionNotSupportedError, yet most SDKs serve such requests as 1.0 (A2A v1.0 §3.6, " +
			"UNSURE). Both readings are accepted and the one observed is recorded; a 5xx, a crash or " +
			"any other error fails.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("3.6.2", "Agents MUST interpret empty value as 0.3 version."),
				spec("3.6.2", "If the version is not supported by the interface, agents MUST return a … VersionNotSupportedError"),
				spec("3.6.1", "except for 0.3 Clients - 0.3 will be assumed for empty header"),
			},
			Reading: "A request without the header is a 0.3 request: an interface that serves 0.3 serves it, one that " +
				"does not answers VersionNotSupportedError. The spec also accepts an answer given as under 1.0, " +
				"which these sentences do not provide for.",
		},
	},
	{
		ID: "DISC-012", Suite: Discovery, Level: MUST,
		Title:    "Patch numbers play no part in version negotiation",
		Sections: []string{"3.6"},
		TCK:      []string{"VER-CLIENT-002"},
		Why: "Versions are Major.Minor: a request naming 1.0.3 must be served as 1.0, and the card's " +
			"interfaces must declare protocolVersion as Major.Minor without a patch number, or " +
			"clients comparing strings disagree with the agent.",
		Grounds: quotes(
			spec("3.6", "Patch version numbers SHOULD NOT be used in requests, responses and Agent Cards, and MUST not be considered when clients and servers negotiate protocol versions."),
		),
	},
	{
		ID: "DISC-013", Suite: Discovery, Level: MUST,
		Title:    "Streaming is served when the card advertises it and refused with UnsupportedOperationError when it does not",
		Sections: []string{"3.3.4", "3.1.2", "3.1.6"}, Scenario: "3",
		TCK: []string{"CORE-CAP-002", "CORE-STREAM-001"},
		Why: "Capabilities are claims to be confirmed by live behaviour (scenario 3): an advertised " +
			"streaming capability must open an SSE stream whose first event is a Task or Message; an " +
			"unadvertised one must be refused with UnsupportedOperationError on SendStreamingMessage " +
			"and SubscribeToTask, not silently served.",
		Grounds: quotes(
			spec("3.3.4", "Streaming: If AgentCard.capabilities.streaming is false or not present, attempts to use SendStreamingMessage or SubscribeToTask operations MUST return … UnsupportedOperationError"),
			spec("3.1.2", "The operation MUST establish a streaming connection for real-time updates. The stream MUST follow one of these patterns"),
			spec("3.1.6", "The operation MUST return a Task object as the first event in the stream"),
		),
	},
	{
		ID: "DISC-014", Suite: Discovery, Level: MUST,
		Title:    "Push-notification configs are accepted when the card advertises push and refused with PushNotificationNotSupportedError when it does not",
		Sections: []string{"3.3.4", "3.1.7"}, Scenario: "2",
		TCK: []string{"CORE-CAP-001"},
		Why: "A card that claims push and cannot take a config, or does not claim it and silently " +
			"takes one, misleads every client that binds webhooks from the card (scenarios 1 and 2). " +
			"Creating a config on a live task must succeed exactly when pushNotifications is true; " +
			"otherwise all push operations answer PushNotificationNotSupportedError.",
		Grounds: quotes(
			spec("3.3.4", "Push Notifications: If AgentCard.capabilities.pushNotifications is false or not present, operations related to push notification configuration (Create, Get, List, Delete) MUST return … PushNotificationNotSupportedError"),
			spec("3.1.7", "The operation MUST establish a webhook endpoint for task update notifications."),
			spec("3.1.7", "This operation is only available if the agent supports push notifications capability."),
		),
	},
	{
		ID: "DISC-015", Suite: Discovery, Level: MUST,
		Title:    "GetExtendedAgentCard follows the card: refused when not advertised, authenticated when advertised",
		Sections: []string{"3.1.11", "3.3.4"},
		TCK:      []string{"CORE-CAP-003", "CARD-EXT-001", "CARD-EXT-002"},
		Enable:   "The authenticated half needs the run's credentials: pass --header 'Authorization: …' (or $A2A_CONFORM_HEADERS) for a scheme the card declares.",
		Why: "Without capabilities.extendedAgentCard the call must fail with " +
			"UnsupportedOperationError. With it, a call without credentials must be refused (it is an" +
			" authenticated operation) and a call with the run's credentials must return an AgentCard" +
			" or ExtendedAgentCardNotConfiguredError.",
		Grounds: quotes(
			spec("3.3.4", "Extended Agent Card: If AgentCard.capabilities.extendedAgentCard is false or not present, attempts to call the Get Extended Agent Card operation MUST return … UnsupportedOperationError … If the agent declares support but has not configured an extended card, it MUST return … ExtendedAgentCardNotConfiguredError"),
			spec("13.3", "operation MUST require authentication"),
			spec("13.3", "Agents MUST authenticate requests using one of the schemes declared in the public AgentCard.securitySchemes and AgentCard.security fields"),
		),
	},
	{
		ID: "DISC-016", Suite: Discovery, Level: MUST,
		Title:    "A request that does not declare a required extension is refused with ExtensionSupportRequiredError",
		Sections: []string{"3.3.4", "4.6"},
		TCK:      []string{"CORE-CAP-004"},
		Why: "An extension marked required changes what requests mean; serving a client that has not " +
			"declared it (A2A-Extensions) silently drops that meaning. Not applicable when the card " +
			"marks no extension required.",
		Grounds: quotes(
			spec("3.3.4", "Extensions: When a server requests use of an extension marked as required: true in the Agent Card but the client does not declare support for it, the agent MUST return … ExtensionSupportRequiredError"),
			spec("4.6.3", "unless the extension is marked as required in the AgentCard, in which case the agent MUST return an error indicating unsupported extension"),
		),
	},
	{
		ID: "DISC-017", Suite: Discovery, Level: MUST,
		Title:    "Card signatures, when present, verify over the canonical card with a valid key",
		Sections: []string{"8.4.1", "8.4.2", "8.4.3"}, Scenario: "3",
		TCK:    []string{"CARD-SIGN-001", "CARD-SIGN-002", "CARD-SIGN-003", "CARD-SIGN-004"},
		Enable: "Give the harness the verification keys with jwks: FILE in the config when the card's signatures carry no jku.",
		Why: "A signature binds a card to its publisher, so a CDN or proxy cannot serve an altered one" +
			" (scenario 3). Each signature must be a JWS whose protected header carries alg and kid, " +
			"verifying over the RFC 8785 canonical card without its signatures member, with a key " +
			"from jku or the configured JWKS that is not expired. Not applicable when the card " +
			"carries no signatures.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("8.4.1", "Before signing, the Agent Card content MUST be canonicalized using the JSON Canonicalization Scheme (JCS)"),
				spec("8.4.1", "The signatures field itself MUST be excluded from the content being signed to avoid circular dependencies."),
				spec("8.4.2", "The protected header MUST include: … alg: Algorithm used for signing … kid: Key ID for identifying the signing key"),
				spec("8.4.3", "Expired or revoked keys MUST NOT be used for verification"),
			},
			Reading: "Signing is optional (MAY, §8.4); a signature that is present is held to the MUSTs of how it is " +
				"made, and a verifier may use no expired key to accept it.",
		},
	},
	{
		ID: "DISC-018", Suite: Discovery, Level: SHOULD,
		Title:    "An A2A-Extensions header naming an extension the agent does not know is ignored",
		Sections: []string{"4.6", "9.2", "11.2"},
		TCK:      []string{"JSONRPC-SVC-002", "HTTP_JSON-SVC-002", "GRPC-META-001"},
		Why: "Service parameters ride in HTTP headers; a client may ask for extensions an agent lacks," +
			" and the agent should carry on without them rather than refuse the request.",
		Grounds: quotes(
			spec("4.6.3", "If a client requests a versions of an extension that the agent does not support, the agent SHOULD ignore the extension for that interaction and proceed without it"),
			spec("14.2.2", "The A2A-Extensions header field contains a comma-separated list of extension URIs that the client wants to use for the request."),
		),
	},
	{
		ID: "DISC-019", Suite: Discovery, Level: MUST,
		Title:    "Every operation on every binding requires the credentials the card declares",
		Sections: []string{"7.4", "13.1"},
		TCK:      []string{"AUTH-SERVER-002", "AUTH-SCOPE-001", "BIND-EQUIV-004"},
		Why: "securitySchemes and securityRequirements are claims like any capability: an agent " +
			"that declares them must authenticate every request on every binding, before any " +
			"lookup. Without credentials, every operation of the v1.0 method list (the extended card " +
			"when advertised), each naming ids nobody issued, is refused (HTTP 401 with " +
			"WWW-Authenticate, gRPC UNAUTHENTICATED, a JSON-RPC error whose code is recorded); an " +
			"anonymous call that gets the operation's own answer, TaskNotFoundError included, was " +
			"processed unauthenticated. With the run's credentials they are served.",
		Grounds: quotes(
			spec("7.4", "MUST authenticate every incoming request based on the provided credentials and its declared authentication requirements."),
			spec("3.3.2", "Servers MUST reject requests with invalid or missing authentication credentials"),
			spec("5.1", "When an agent supports multiple protocols, all supported protocols MUST: … Equivalent Authentication: Support the same authentication schemes declared in the AgentCard"),
			spec("13.1", "Authorization checks MUST occur before any database queries or operations that could leak information about the existence of resources outside the caller's authorization scope"),
			spec("7.4", "SHOULD use appropriate binding-specific error codes for authentication challenges or rejections."),
		),
	},
	{
		ID: "LIFE-001", Suite: Lifecycle, Level: MUST,
		Title:    "SendMessage answers with exactly one of a Task or a Message, valid against the v1.0 schema",
		Sections: []string{"3.1.1", "4.1", "5.5", "5.6.1", "5.7", "9.1", "11.1"},
		TCK:      []string{"CORE-SEND-001", "DM-TASK-001", "DM-TASK-002", "DM-MSG-001", "DM-MSG-002", "DM-PART-001", "DM-ART-001", "DM-STATUS-001", "DM-SERIAL-001", "DM-SERIAL-002", "DM-SERIAL-003", "DM-SERIAL-004", "JSONRPC-FMT-001", "JSONRPC-FMT-002", "HTTP_JSON-SVC-001", "GRPC-SVC-002"},
		Why: "The response to SendMessage on every declared binding must hold exactly one payload and " +
			"validate against the schema: camelCase names, enum names, UTC timestamps with Z, every " +
			"REQUIRED member, JSON content types and a well-formed JSON-RPC envelope.",
		Grounds: quotes(
			spec("3.1.1", "Clients send a message to an agent and receive either a task that tracks the processing or a direct response message."),
			spec("5.5", "All JSON serializations of the A2A protocol data model MUST use camelCase naming for field names … Enum values MUST be represented according to the … which serializes enums as their string names as defined in the Protocol Buffer definition"),
			spec("5.7", "Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages."),
			spec("5.6.1", "When serialized to JSON (in JSON-RPC, HTTP/REST, or other JSON-based bindings), these timestamps MUST be represented as ISO 8601 formatted strings in UTC timezone."),
		),
	},
	{
		ID: "LIFE-002", Suite: Lifecycle, Level: MUST,
		Title:    "Task and context ids come from the server, are returned, and are unique per new task",
		Sections: []string{"3.4.1", "3.4.2"},
		TCK:      []string{"CORE-MULTI-001", "CORE-MULTI-001a", "CORE-MULTI-003"},
		Needs:    []Need{NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "In v1.0 task ids are server-generated: every new task must carry an id no other task " +
			"has, and a contextId the agent generated must be returned with it.",
		Grounds: quotes(
			spec("3.4.2", "Task IDs are server-generated when a new task is created"),
			spec("3.4.2", "Agents MUST generate a unique taskId for each new task they create"),
			spec("3.4.1", "If an agent generates a new contextId, it MUST be included in the response"),
		),
	},
	{
		ID: "LIFE-003", Suite: Lifecycle, Level: MUST,
		Title:    "A client-chosen contextId is adopted and echoed, or refused with an error, never replaced",
		Sections: []string{"3.4.1"},
		TCK:      []string{"CORE-MULTI-002", "CORE-MULTI-002a"},
		Why: "An agent may accept a contextId the client chose; if it will not, it must refuse the " +
			"request rather than substitute its own, or the client's conversation silently forks. " +
			"Which reading the agent took is recorded.",
		Grounds: quotes(
			spec("3.4.1", "Agents MAY accept and preserve client-provided contextId values"),
			spec("3.4.1", "If an agent cannot accept a client-provided contextId, it MUST reject the request with an error and MUST NOT generate a new contextId for the response"),
		),
	},
	{
		ID: "LIFE-004", Suite: Lifecycle, Level: MUST,
		Title:    "SendMessage blocks by default until the task is terminal or interrupted",
		Sections: []string{"3.2.2"},
		TCK:      []string{"CORE-EXECUTION-MODE-001"},
		Needs:    []Need{NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "Without returnImmediately the call must wait for a terminal or interrupted state and " +
			"return that task; a client that trusts the default and gets a WORKING task back believes" +
			" work finished that did not.",
		Grounds: quotes(
			spec("3.2.2", "Operations are blocking by default"),
			spec("3.2.2", "The operation MUST wait until the task reaches a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED) or an interrupted state (TASK_STATE_INPUT_REQUIRED, TASK_STATE_AUTH_REQUIRED) before returning."),
		),
	},
	{
		ID: "LIFE-005", Suite: Lifecycle, Level: MUST,
		Title:    "With returnImmediately, SendMessage returns while the task is still in progress",
		Sections: []string{"3.2.2"},
		TCK:      []string{"CORE-EXECUTION-MODE-002"},
		Needs:    []Need{NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "returnImmediately asks for the task as soon as it exists; an agent that blocks anyway " +
			"stalls every client that streams or polls for progress.",
		Grounds: quotes(
			spec("3.2.2", "The operation MUST return immediately after creating the task, even if processing is still in progress."),
			spec("3.2.2", "The returned task will have an in-progress state (e.g., TASK_STATE_WORKING, TASK_STATE_INPUT_REQUIRED)."),
		),
	},
	{
		ID: "LIFE-006", Suite: Lifecycle, Level: MUST,
		Title:    "A message naming a taskId the server never issued gets TaskNotFoundError and creates no task",
		Sections: []string{"3.4.2"}, Scenario: "1",
		TCK: []string{"CORE-MULTI-004"},
		Why: "Scenario 1: after a rotation an instance with no record of a task accepted a follow-up " +
			"for it as a new task, and two state machines claimed one id. The message must fail with " +
			"TaskNotFoundError, and afterwards neither GetTask nor ListTasks may show a task with " +
			"that id.",
		Grounds: quotes(
			spec("3.4.2", "Agents MUST return a … TaskNotFoundError … if the provided taskId does not correspond to an existing task"),
			spec("3.4.2", "Client-provided taskId values for creating new tasks is NOT supported"),
		),
	},
	{
		ID: "LIFE-007", Suite: Lifecycle, Level: MUST,
		Title:    "GetTask, CancelTask and SubscribeToTask on an unknown id get TaskNotFoundError",
		Sections: []string{"3.1.3", "3.1.5", "3.1.6"}, Scenario: "1",
		TCK: []string{"CORE-GET-002", "CORE-CANCEL-003", "STREAM-SUB-004"},
		Why: "A task the agent does not know must be reported absent with TaskNotFoundError on every " +
			"operation and binding, so that a client can tell a task lost in a rotation from any " +
			"other failure (scenario 1).",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("3.3.2", "Servers MUST return a not found error when a requested resource does not exist or is not accessible to the authenticated client"),
				spec("3.1.3", "TaskNotFoundError … The task ID does not exist or is not accessible."),
				spec("3.1.5", "TaskNotFoundError … The task ID does not exist or is not accessible."),
				spec("3.1.6", "TaskNotFoundError … The task ID does not exist or is not accessible."),
			},
			Reading: "The MUST is the not-found error of §3.3.2; which error that is for an unknown task id is " +
				"named in the error list of each of the three operations: TaskNotFoundError.",
		},
	},
	{
		ID: "LIFE-008", Suite: Lifecycle, Level: MUST,
		Title:    "A message to a task in a terminal state gets UnsupportedOperationError",
		Sections: []string{"3.1.1", "4.1.3"},
		TCK:      []string{"CORE-SEND-002"},
		Needs:    []Need{NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "Terminal tasks cannot restart; a follow-up must create a new task. The required error is" +
			" UnsupportedOperationError (-32004); InvalidParams (-32602), which some SDKs return, is " +
			"reported as that known deviation and still fails the MUST.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-009", Suite: Lifecycle, Level: MUST,
		Title:    "A follow-up giving only the taskId continues that task in its context",
		Sections: []string{"3.4.3"},
		TCK:      []string{"CORE-MULTI-005"},
		Needs:    []Need{NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "When a message names only a taskId the agent must infer the contextId from the task: the" +
			" input-required task then resumes in its own context, not a new one.",
		Grounds: quotes(
			spec("3.4.3", "Clients MAY use taskId (with or without contextId) to continue or refine a specific task"),
			spec("3.4.3", "Agents MUST infer contextId from the task if only taskId is provided"),
			proto("If only task_id is provided, the server will infer context_id from it."),
		),
	},
	{
		ID: "LIFE-010", Suite: Lifecycle, Level: MUST,
		Title:    "A follow-up whose contextId contradicts its task's context is rejected",
		Sections: []string{"3.4.3"},
		TCK:      []string{"CORE-MULTI-006"},
		Needs:    []Need{NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "If taskId and contextId disagree, the agent cannot know which the client meant; it must " +
			"reject the message (the spec names no code; any A2A or validation error is accepted and " +
			"recorded) rather than guess.",
		Grounds: quotes(
			spec("3.4.3", "Agents MUST reject messages containing mismatching contextId and taskId (i.e., the provided contextId is different from that of the referenced"),
			proto("if both are provided, they have to match (the context_id has to be the one that is set on the task)."),
		),
	},
	{
		ID: "LIFE-011", Suite: Lifecycle, Level: INVARIANT,
		Title:    "Once terminal, a task never shows another state on any channel",
		Sections: []string{"4.1.3", "3.1.5"}, Scenario: "3",
		Needs:  []Need{NeedBehaviour},
		Enable: "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "A task in a terminal state cannot restart (A2A v1.0.1 docs/topics/life-of-a-task.md). Over everything observed of a set of tasks — GetTask polls, " +
			"ListTasks, stream events and, when registered, pushes — a task seen terminal never shows" +
			" another state afterwards (one checker over the whole history).",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-012", Suite: Lifecycle, Level: INVARIANT,
		Title:    "CancelTask cancels a working task, returns it canceled, and it stays canceled",
		Sections: []string{"3.1.5"}, Scenario: "3",
		TCK:    []string{"CORE-CANCEL-001"},
		Needs:  []Need{NeedBehaviour},
		Enable: "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "A cancel of a working task is acknowledged only by the task in TASK_STATE_CANCELED; an answer" +
			" with the task still working is an asynchronous cancel, followed until the task settles (canceled," +
			" or ended by itself first: both allowed). A canceled task must keep showing CANCELED past the moment" +
			" its work would have ended, and it stays under watch until the run's end.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-013", Suite: Lifecycle, Level: MUST,
		Title:    "Cancelling a terminal task is refused with TaskNotCancelableError",
		Sections: []string{"3.1.5", "3.3.1"},
		TCK:      []string{"CORE-CANCEL-002"},
		Needs:    []Need{NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "A completed task cannot be canceled: TaskNotCancelableError. For a task already " +
			"CANCELED, the spec's idempotency rule and its error table disagree (A2A v1.0 §3.1.5 " +
			"UNSURE): both the canceled task and TaskNotCancelableError are accepted, and which one " +
			"is recorded.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-014", Suite: Lifecycle, Level: INVARIANT,
		Title:    "Cancel-then-complete race: an acknowledged cancel is final and a refused one changes nothing",
		Sections: []string{"3.1.5", "4.1.3"}, Scenario: "3",
		Needs:   []Need{NeedBehaviour},
		Enable:  "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Timeout: 2 * time.Minute,
		Long:    true,
		Why: "Scenario 3: a cancel was acknowledged and the task completed anyway. Over N trials with " +
			"the cancel fired at seeded, jittered offsets around the scripted completion, either the " +
			"cancel was acknowledged and nothing later shows another terminal state, or it was " +
			"refused and the task ends in its own state. With 0 violations in n trials the violation " +
			"rate is below 3/n at 95% confidence; trials whose outcome is unknown are indeterminate, " +
			"never a pass.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-015", Suite: Lifecycle, Level: MUST,
		Title:    "A streamed task starts with the Task, carries its updates in order and closes at the terminal state",
		Sections: []string{"3.1.2", "3.5.2", "9.4.2", "11.7"},
		TCK:      []string{"CORE-STREAM-001", "CORE-STREAM-003", "STREAM-ORDER-001", "JSONRPC-SSE-001", "HTTP_JSON-SSE-001", "GRPC-ERR-003"},
		Needs:    []Need{NeedStreaming, NeedBehaviour},
		Enable:   "Streaming specs run when the card advertises capabilities.streaming (otherwise they check the refusal and are not applicable); they also need scripted behaviour: the directive extension (docs/directive-extension.md) or a prompt map in the config.",
		Why: "SendStreamingMessage must answer text/event-stream whose first event is the Task, whose " +
			"updates arrive in the order produced (SUBMITTED/WORKING, artifact chunks in order, the " +
			"outcome), framed per binding, and which the agent closes once the task is terminal.",
		Grounds: quotes(
			spec("3.1.2", "Task lifecycle stream: If the agent returns a … the stream MUST begin with the Task object, followed by zero or more"),
			spec("3.1.2", "The stream MUST close when the task reaches a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED)."),
			spec("3.5.2", "All implementations MUST deliver events in the order they were generated. Events MUST NOT be reordered during transmission, regardless of protocol binding."),
			spec("9.4.2", "Response: HTTP 200 with Content-Type: text/event-stream"),
		),
	},
	{
		ID: "LIFE-016", Suite: Lifecycle, Level: MUST,
		Title:    "A streamed Message reply is the only event, and the stream then closes",
		Sections: []string{"3.1.2"},
		TCK:      []string{"CORE-STREAM-002"},
		Needs:    []Need{NeedStreaming, NeedBehaviour},
		Enable:   "Streaming specs run when the card advertises capabilities.streaming (otherwise they check the refusal and are not applicable); they also need scripted behaviour: the directive extension (docs/directive-extension.md) or a prompt map in the config.",
		Why: "When the agent answers a streaming request with a Message rather than a task, the stream" +
			" carries exactly that one Message and closes.",
		Grounds: quotes(
			spec("3.1.2", "Message-only stream: If the agent returns a … the stream MUST contain exactly one Message object and then close immediately."),
		),
	},
	{
		ID: "LIFE-017", Suite: Lifecycle, Level: MUST,
		Title:    "Concurrent streams of one task see the same events in the same order, and closing one leaves the others",
		Sections: []string{"3.5.2"}, Scenario: "2",
		TCK:    []string{"STREAM-ORDER-002", "STREAM-ORDER-003", "STREAM-ORDER-004"},
		Needs:  []Need{NeedStreaming, NeedBehaviour},
		Enable: "Streaming specs run when the card advertises capabilities.streaming (otherwise they check the refusal and are not applicable); they also need scripted behaviour: the directive extension (docs/directive-extension.md) or a prompt map in the config.",
		Why: "Events must be broadcast to every active stream of a task; two subscribers that see " +
			"different sequences disagree about what happened (scenario 2: a stream attached where " +
			"the task's events never arrive).",
		Grounds: quotes(
			spec("3.5.2", "Events MUST be broadcast to all active streams for that task"),
			spec("3.5.2", "Each stream MUST receive the same events in the same order"),
			spec("3.5.2", "Closing one stream MUST NOT affect other active streams for the same task"),
			spec("3.1.6", "The operation MUST return a Task object as the first event in the stream, representing the current state of the task at the time of subscription."),
			spec("3.5.2", "An agent MAY serve multiple concurrent streams to one or more clients for the same task."),
		),
	},
	{
		ID: "LIFE-018", Suite: Lifecycle, Level: MUST,
		Title:    "SubscribeToTask starts with a snapshot of the current task and closes when it turns terminal",
		Sections: []string{"3.1.6"},
		TCK:      []string{"STREAM-SUB-001", "STREAM-SUB-002", "GRPC-ERR-003"},
		Needs:    []Need{NeedStreaming, NeedBehaviour},
		Enable:   "Streaming specs run when the card advertises capabilities.streaming (otherwise they check the refusal and are not applicable); they also need scripted behaviour: the directive extension (docs/directive-extension.md) or a prompt map in the config.",
		Why: "The first event of a subscription must be the Task as it is now, closing the gap between" +
			" GetTask and Subscribe; the stream then carries the updates and closes at the terminal " +
			"state.",
		Grounds: quotes(
			spec("3.1.6", "The operation MUST return a Task object as the first event in the stream, representing the current state of the task at the time of subscription."),
			spec("3.1.6", "The stream MUST terminate when the task reaches a terminal state"),
			spec("3.5.2", "All implementations MUST deliver events in the order they were generated."),
		),
	},
	{
		ID: "LIFE-019", Suite: Lifecycle, Level: MUST,
		Title:    "Subscribing to a terminal task is refused with UnsupportedOperationError",
		Sections: []string{"3.1.6"},
		TCK:      []string{"STREAM-SUB-003"},
		Needs:    []Need{NeedStreaming},
		Enable:   "Streaming specs run when the card advertises capabilities.streaming (otherwise they check the refusal and are not applicable); they also need scripted behaviour: the directive extension (docs/directive-extension.md) or a prompt map in the config.",
		Why: "There is nothing to stream from a finished task; the subscription must be refused with " +
			"UnsupportedOperationError, not opened and left hanging or closed empty.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-020", Suite: Lifecycle, Level: MUST,
		Title:    "ListTasks pages newest first to the end, with nextPageToken always present and empty on the last page",
		Sections: []string{"3.1.4"},
		TCK:      []string{"CORE-LIST-002", "CORE-LIST-003", "CORE-LIST-004"},
		Why: "Tasks must be sorted by status timestamp, most recent first, and paged by opaque " +
			"cursors: walking pageToken to the end visits each task once, and the last page carries " +
			"nextPageToken \"\" (present, not omitted).",
		Grounds: quotes(
			spec("3.1.4", "The nextPageToken field MUST always be present in the response."),
			spec("3.1.4", "When there are no more results to retrieve (i.e., this is the final page), the field MUST be set to an empty string (\"\")."),
			spec("3.1.4", "Implementations MUST return tasks sorted by their status timestamp time in descending order (most recently updated tasks first)."),
			spec("3.1.4", "MUST use cursor-based pagination for performance and consistency"),
		),
	},
	{
		ID: "LIFE-021", Suite: Lifecycle, Level: MUST,
		Title:    "ListTasks leaves artifacts out unless includeArtifacts is true",
		Sections: []string{"3.1.4"},
		TCK:      []string{"CORE-LIST-005"},
		Why: "With includeArtifacts false or unset, listed tasks must have no artifacts member at all " +
			"(not an empty list); with it true, artifacts appear.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("3.1.4", "When includeArtifacts is false (the default), the artifacts field MUST be omitted entirely from each Task object in the response."),
				spec("3.1.4", "The field should not be present as an empty array or null value."),
				spec("3.1.4", "When includeArtifacts is true, the artifacts field should be included with its actual content (which may be an empty array if the task has no artifacts)."),
			},
			Reading: "The MUST is the omission of artifacts when includeArtifacts is false or unset. That they appear when it is " +
				"true rests on a lowercase should, which the spec judges at the same level as the omission.",
		},
	},
	{
		ID: "LIFE-022", Suite: Lifecycle, Level: MUST,
		Title:    "ListTasks filters by contextId and status and honours pageSize",
		Sections: []string{"3.1.4", "11.5"},
		TCK:      []string{"CORE-LIST-001", "HTTP_JSON-QP-001"},
		Why: "Filters must narrow the list to tasks of the given context and state, pageSize must " +
			"bound each page (1..100; out of range is refused or clamped, and which is recorded), and" +
			" the HTTP+JSON binding takes them as camelCase query parameters.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-023", Suite: Lifecycle, Level: MUST,
		Title:    "historyLength bounds the history returned and GetTask returns the task's status and artifacts",
		Sections: []string{"3.2.4", "3.1.3"},
		TCK:      []string{"CORE-HIST-002", "CORE-GET-001", "CORE-HIST-004"},
		Why: "GetTask must return the task with its status and artifacts; with historyLength N it must" +
			" return at most N history messages, the most recent ones.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-024", Suite: Lifecycle, Level: SHOULD,
		Title:    "historyLength 0 omits history, and history is chronological and faithful",
		Sections: []string{"3.2.4"},
		TCK:      []string{"CORE-HIST-001", "CORE-HIST-003", "CORE-HIST-005", "CORE-HIST-006"},
		Needs:    []Need{NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {slow: …, input-required: …, …}) naming text that makes it show the behaviour.",
		Why: "historyLength 0 (on GetTask and in SendMessage's configuration) should leave history " +
			"out; history entries should run oldest first and carry the content of the messages as " +
			"sent.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-025", Suite: Lifecycle, Level: MUST,
		Title:    "The same task read over each declared binding gives the same answer",
		Sections: []string{"5.1"},
		TCK:      []string{"BIND-EQUIV-001", "BIND-EQUIV-002", "GRPC-SVC-001"},
		Why: "Every binding an agent declares must offer the same operations with equivalent results: " +
			"a task created on one binding and read on the other has the same id, context, state, " +
			"artifacts and history.",
		Grounds: quotes(
			spec("5.1", "When an agent supports multiple protocols, all supported protocols MUST: … Identical Functionality: Provide the same set of operations and capabilities … Consistent Behavior: Return semantically equivalent results for the same requests"),
		),
	},
	{
		ID: "LIFE-026", Suite: Lifecycle, Level: MUST,
		Title:    "Each error is the same A2A error on every binding, with its code, status and ErrorInfo reason",
		Sections: []string{"5.4", "9.5", "11.6"},
		TCK:      []string{"BIND-EQUIV-003", "CORE-ERR-001", "JSONRPC-ERR-001", "JSONRPC-ERR-002", "JSONRPC-ERR-003", "JSONRPC-SSE-002", "HTTP_JSON-ERR-001", "HTTP_JSON-ERR-002", "HTTP_JSON-STATUS-001", "GRPC-ERR-001", "GRPC-ERR-002"},
		Why: "A failure must carry its A2A error on every binding: the JSON-RPC code with data as an " +
			"array of @type objects, and on HTTP+JSON a google.rpc.Status body whose ErrorInfo " +
			"(domain a2a-protocol.org) names the reason, at the HTTP status of the v1.0.1 table or of" +
			" the v1.0.0 table (which one matched is recorded).",
		Grounds: quotes(
			spec("5.4", "All A2A-specific errors defined in … MUST be mapped to binding-specific error representations."),
			spec("9.5", "Each object in the data array MUST include a @type key that identifies the object's type."),
			spec("11.6", "implementations MUST include a google.rpc.ErrorInfo object in the details array for A2A-specific errors"),
			spec("10.6", "For A2A-specific errors, implementations MUST include a google.rpc.ErrorInfo message in the status.details array"),
		),
	},
	{
		ID: "LIFE-027", Suite: Lifecycle, Level: MUST,
		Title:    "Malformed and invalid requests are refused with the binding's validation errors",
		Sections: []string{"3.3.2", "9.5", "11.6"},
		TCK:      []string{"CORE-ERR-002"},
		Why: "The agent must check requests before acting: malformed JSON, an invalid JSON-RPC " +
			"envelope, an unknown method and a SendMessage without a message get the binding's " +
			"standard errors (-32700, -32600, -32601, -32602 / HTTP 400 or 404), never a task, a 5xx " +
			"or a hang. A missing or mistyped REQUIRED member (no message, parts a string) is one the " +
			"text asks agents to reject only with SHOULD (spec §5.7): serving it warns.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-028", Suite: Lifecycle, Level: MAY,
		Title:    "A part whose media type the agent does not accept gets ContentTypeNotSupportedError",
		Sections: []string{"3.1.1"},
		TCK:      []string{"CORE-SEND-003"},
		Why: "An agent that cannot handle a part's media type can say so with " +
			"ContentTypeNotSupportedError rather than silently drop or misread the content. The " +
			"A2A text lists that error for SendMessage but never requires an agent to refuse a " +
			"media type, so the level is MAY (the TCK's CORE-SEND-003 says MUST; docs/levels.md). " +
			"Serving the part is recorded, never judged (a2a-go and the JS SDK serve it): only a " +
			"refusal is judged, on its error. Not applicable when the card's defaultInputModes accept " +
			"every type, or when the agent served the part on every binding.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "LIFE-029", Suite: Lifecycle, Level: SHOULD,
		Title:    "Unknown members in requests are ignored, not refused",
		Sections: []string{"5.7"},
		TCK:      []string{"DM-SERIAL-005"},
		Why: "Newer clients send members older agents do not know; the agent should ignore them and " +
			"serve the request.",
		Grounds: quotes(
			spec("5.7", "Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves."),
		),
	},

	{
		ID: "LIFE-030", Suite: Lifecycle, Level: MUST,
		Title:    "A task asking for authorization enters TASK_STATE_AUTH_REQUIRED with a status message saying what is needed, and accepts a follow-up message",
		Sections: []string{"7.6.1", "4.1.3"},
		TCK:      []string{"AUTH-INTASK-001", "AUTH-INTASK-002", "AUTH-INTASK-003", "AUTH-INTASK-006"},
		Needs:    []Need{NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {auth-required: …}) naming text that makes it ask for authorization.",
		Why: "An agent that needs the client to authorize something must track the work in a Task " +
			"in TASK_STATE_AUTH_REQUIRED and say in the status message what is needed, or the client " +
			"cannot tell what to do. The task should still take the client's messages (to go on once " +
			"authorized, correct or decline): refusing one warns. Where the task goes after the " +
			"follow-up (done, or asking again) is the agent's choice and is an observation.",
		Grounds: quotes(
			spec("7.6.1", "MUST use a Task to track the operation it is performing"),
			spec("7.6.1", "MUST transition the TaskState to TASK_STATE_AUTH_REQUIRED"),
			spec("7.6.1", "MUST include a TaskStatus message explaining the required authorization, unless the details of the authorization have been negotiated out-of-band or via an extension"),
			spec("7.6.1", "Agents SHOULD support receiving messages directed to the Task while the Task remains in TASK_STATE_AUTH_REQUIRED."),
		),
	},
	{
		ID: "LIFE-031", Suite: Lifecycle, Level: MUST,
		Title:    "Another identity is kept from the caller's task: it cannot read, cancel, subscribe to, message or reach the push configs of it, and ListTasks leaves it out",
		Sections: []string{"13.1", "3.1.4"},
		TCK:      []string{"AUTH-SCOPE-002"},
		Needs:    []Need{NeedSecondIdentity},
		Enable:   scopeEnable,
		Why: "An agent with users must keep each user's tasks from the others on every operation that names a " +
			"task, and scope ListTasks even without filters. The run's identity creates a task (one waiting for " +
			"input when the agent can be asked for it, else any); a second identity (second-header: another user " +
			"whom the agent's authorization model keeps from the first) then asks for it by id on every binding. " +
			"Nothing may be served to it, the task must be left as it was, and its ListTasks, of the task's " +
			"context or unfiltered, must not list it. Without a second identity the spec cannot run; an agent " +
			"whose card declares no security has one identity and the spec does not apply.",
		Grounds: quotes(
			spec("13.1", "Servers MUST implement authorization checks on every … request"),
			spec("13.1", "Even when contextId or other filter parameters are not specified in requests, implementations MUST scope results to the caller's authorized access boundaries"),
			spec("13.1", "MUST only return tasks visible to the authenticated client according to the agent's authorization model … MUST verify the authenticated client has access to the requested task according to the agent's authorization model … Task-related operations (Cancel, Subscribe, Push Notification Config): MUST verify the client has appropriate access rights"),
		),
	},
	{
		ID: "LIFE-032", Suite: Lifecycle, Level: MUST,
		Title:    "Another identity's refusal of the caller's task is the same error as for a task id that does not exist",
		Sections: []string{"3.3.2", "13.1"},
		TCK:      []string{"AUTH-SCOPE-003"},
		Needs:    []Need{NeedSecondIdentity},
		Enable:   scopeEnable,
		Why: "A refusal that differs from the unknown-id answer (403 or PERMISSION_DENIED where an unknown id " +
			"gets TaskNotFoundError, a count that includes the task) tells a caller that the task exists. For " +
			"each operation LIFE-031 makes, the second identity's answer about the run identity's task is compared " +
			"with its answer about an id nobody issued, on the same binding: class, A2A error, code, HTTP status, " +
			"status name and ErrorInfo reason must be the same (messages, which name the id, are not compared). " +
			"An agent that refuses both with the same authorization error passes.",
		Grounds: quotes(
			spec("3.3.2", "Servers MUST NOT reveal the existence of resources the client is not authorized to access"),
			spec("3.3.2", "Servers MUST return a not found error when a requested resource does not exist or is not accessible to the authenticated client"),
			spec("3.3.2", "Servers SHOULD NOT distinguish between \"does not exist\" and \"not authorized\" to prevent information leakage"),
			spec("13.1", "Authorization checks MUST occur before any database queries or operations that could leak information about the existence of resources outside the caller's authorization scope"),
		),
	},
	{
		ID: "LIFE-033", Suite: Lifecycle, Level: SHOULD,
		Title:    "A stream of a task that asks for authorization delivers TASK_STATE_AUTH_REQUIRED and, kept open, carries the task on after a follow-up",
		Sections: []string{"7.6.1", "3.1.2"},
		TCK:      []string{"AUTH-INTASK-005"},
		Needs:    []Need{NeedStreaming, NeedBehaviour},
		Enable:   "Give the agent the directive extension (docs/directive-extension.md) in its test build, or a prompt map in the config (prompt-map: {auth-required: …}) naming text that makes it ask for authorization.",
		Why: "The credential of an in-task authorization usually arrives out of band, and the task may go on " +
			"without any client message: a client that loses its stream at AUTH_REQUIRED misses what follows. " +
			"The spec streams a task that asks for authorization, requires the AUTH_REQUIRED update, watches " +
			"the stream stay open for as long as the agent took to get there (at least the grace LIFE-015 gives " +
			"a stream to close), then sends the follow-up as a call of its own and requires the same stream to " +
			"carry the task's next state. A stream closed at AUTH_REQUIRED follows §11.7 (streams close on " +
			"interrupted states; the A2A text leaves it open between §11.7 and §7.6.1): that reading is recorded, never " +
			"judged. A SHOULD: a stream kept open that then drops or never carries the task on warns.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("7.6.1", "If the credential is received out-of-band, the agent SHOULD maintain any active response streams with the client after setting the TaskState to TASK_STATE_AUTH_REQUIRED."),
				spec("7.6.1", "The agent MAY immediately continue Task processing after receiving the credential, without a requirement that clients send a follow-up message."),
				spec("11.7", "then zero or more status or artifact update events until the task reaches a terminal or interrupted state, at which point the stream closes."),
			},
			Reading: "The level is §7.6.1's SHOULD. §11.7 describes streams as closing at an interrupted state, which " +
				"AUTH_REQUIRED is, so a stream closed at AUTH_REQUIRED is recorded as that reading and not warned on; a stream " +
				"kept open that breaks, or does not carry the task's next state after the follow-up, warns.",
		},
	},

	// ---- webhook ---------------------------------------------------------
	{
		ID: "PUSH-001", Suite: Webhook, Level: MUST,
		Title:    "Push configs round-trip: create returns an id, get and list show them, delete removes one for good, twice is harmless, and nothing is pushed to it after",
		Sections: []string{"3.1.7", "3.1.8", "3.1.9", "3.1.10"}, Scenario: "2",
		TCK:     []string{"PUSH-CREATE-001", "PUSH-GET-001", "PUSH-LIST-001", "PUSH-DEL-001", "PUSH-DEL-002"},
		Needs:   []Need{NeedPush, NeedWebhook, NeedBehaviour},
		Enable:  pushEnable,
		Timeout: 90 * time.Second,
		Why: "Two configs are created on a task of the spec's own that waits for input. Create must " +
			"return each with an id; get returns its url (and authentication, whose secrets an agent " +
			"may redact); list contains both; delete removes one (list and get no longer show it), a " +
			"second delete has the same effect (it succeeds, or answers that the config is not there, " +
			"as a repeated HTTP DELETE's 404 does); then the task is finished and its terminal state must reach the " +
			"kept config and never the deleted one.",
		Grounds: quotes(
			spec("3.1.7", "Created configuration with assigned ID"),
			spec("3.1.8", "The operation MUST return configuration details including webhook URL and notification settings. The operation MUST fail if the configuration does not exist or the client lacks access."),
			spec("3.1.9", "The operation MUST return all active push notification configurations for the specified task"),
			spec("3.1.10", "The operation MUST permanently remove the specified push notification configuration. No further notifications will be sent to the configured webhook after deletion. This operation MUST be idempotent - multiple deletions of the same config have the same effect."),
		),
	},
	{
		ID: "PUSH-002", Suite: Webhook, Level: MUST,
		Title:    "Push-config operations on an unknown task fail with TaskNotFoundError, and get of an unknown config fails",
		Sections: []string{"3.1.7", "3.1.8", "3.1.9", "3.1.10"}, Scenario: "1",
		TCK:    []string{"PUSH-GET-002"},
		Needs:  []Need{NeedPush, NeedWebhook},
		Enable: pushEnable,
		Why: "A client whose task did not survive a rotation (scenario 1) learns it from these errors; " +
			"an agent that registers a webhook for a task it does not have tells it the opposite. " +
			"Create, get, list and delete on an id nobody issued must answer TaskNotFoundError on " +
			"every binding; get of a config id nobody created on a task of the spec's own must fail " +
			"(TaskNotFoundError is the named error; another warns), and delete of it should succeed.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "PUSH-003", Suite: Webhook, Level: MUST,
		Title:    "A config given inline in SendMessage is registered and the task's terminal state is pushed to it",
		Sections: []string{"3.1.1", "4.3.3"}, Scenario: "2",
		TCK:    []string{"PUSH-CREATE-002"},
		Needs:  []Need{NeedPush, NeedWebhook, NeedBehaviour},
		Enable: pushEnable,
		Why: "Registration inline with the message is the only one with no gap before the first " +
			"transition. The config must be listed while the task runs and the terminal state must " +
			"arrive, with the config's credentials. A dispatcher that only knows configs it loaded " +
			"at start-up (scenario 2) acknowledges the config and pushes nothing. As in every PUSH " +
			"spec, a push later than the patience (and a short grace) is indeterminate with its " +
			"latency, not a failure, unless loss is proven: a later task's push arrived while it " +
			"did not, or, on a path the harness configured itself, nothing of the run was ever " +
			"delivered. When the run could not show that the agent reaches the receiver (the " +
			"webhook-reach fact, proved once before the specs), the spec could not run.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				proto("Configuration for the agent to send push notifications for task updates. Task id should be empty when sending this configuration in a `SendMessage` request."),
				spec("3.1.9", "The operation MUST return all active push notification configurations for the specified task"),
				depOnUpdate,
				depAtLeastOnce,
			},
			Reading: depTerminalPushReading + " A config given inline with the message is a configured webhook of the task from " +
				"the start, and List MUST show it while it is active.",
		},
	},
	{
		// A2A v1.0.1 §4.3.3: at least one delivery attempt for each configured
		// webhook, and a body that is a StreamResponse with exactly one member.
		ID: "PUSH-004", Suite: Webhook, Level: INVARIANT,
		Title:    "After a config is created, the task's terminal state is pushed to it, every push a one-member StreamResponse for that task",
		Sections: []string{"4.3.3", "3.1.7"}, Scenario: "2",
		TCK:    []string{"PUSH-DELIVER-002", "PUSH-DELIVER-003", "PUSH-CREATE-002"},
		Needs:  []Need{NeedPush, NeedWebhook, NeedBehaviour},
		Enable: pushEnable,
		Why: "Tasks of the spec's own that work for a while get a config through " +
			"CreateTaskPushNotificationConfig; each must have its terminal state pushed, and every " +
			"push must be a valid StreamResponse with one member, about that task. States the " +
			"harness saw by polling after the config was acknowledged but no push carried are " +
			"reported (the spec lets the agent choose which events it pushes), and so is the " +
			"delivery latency (p50/p95/max).",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				depOnUpdate,
				depAtLeastOnce,
				spec("4.3.3", "The webhook payload is a … StreamResponse … object containing exactly one of the following"),
				depServerDecides,
			},
			Reading:  depTerminalPushInvariant,
			Scenario: scenario2,
		},
	},
	{
		// A2A v1.0.1 §13.2: credentials in webhook requests as the config's
		// authentication specifies.
		ID: "PUSH-005", Suite: Webhook, Level: MUST,
		Title:    "Every push carries the scheme and credentials of the task's own config, never ones derived from the card",
		Sections: []string{"4.3.3"}, Scenario: "1",
		TCK:    []string{"PUSH-DELIVER-001"},
		Needs:  []Need{NeedPush, NeedWebhook, NeedBehaviour},
		Enable: pushEnable,
		Why: "Scenario 1: after a card rotation changed the advertised auth scheme, pushes were " +
			"signed the new card's way and the receiver rejected them. The config's scheme and " +
			"credentials are chosen to differ from anything the card advertises; every push must " +
			"carry exactly them. Which header carried the config's token is recorded, not judged " +
			"(UNSURE, A2A v1.0 §4.3.3).",
		Grounds: reports.Basis{
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
	},
	{
		// A2A v1.0.1 §3.1.7: the configuration persists until task completion or
		// explicit deletion; §4.3.3: at least one delivery attempt per webhook.
		ID: "PUSH-006", Suite: Webhook, Level: INVARIANT,
		Title:    "A transition triggered right after a config is acknowledged is pushed to it (read your writes)",
		Sections: []string{"3.1.7", "4.3.3"}, Scenario: "2",
		TCK:    []string{"PUSH-CREATE-002", "PUSH-DELIVER-002"},
		Needs:  []Need{NeedPush, NeedWebhook, NeedBehaviour},
		Enable: pushEnable,
		Why: "Scenario 2: the registration returned 200, the next transition was never pushed, " +
			"because the dispatcher's view lagged the store. A task of the spec's own waits for " +
			"input; the config is created and the moment it is acknowledged the input is sent. The " +
			"transitions that follow, the terminal one at least, must be pushed.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("3.1.7", "The operation MUST establish a webhook endpoint for task update notifications. When task updates occur, the agent will send HTTP POST requests to the configured webhook URL"),
				depConfigPersists,
				depAtLeastOnce,
			},
			Reading: depTerminalPushInvariant + " Once the create is acknowledged the endpoint is established, so an update that " +
				"occurs after the acknowledgement is one the config is owed.",
			Scenario: scenario2,
		},
	},
	{
		// A2A v1.0.1 §4.3.3 lets agents retry (MAY); §13.2 asks them to (SHOULD).
		ID: "PUSH-007", Suite: Webhook, Level: SHOULD,
		Title:    "A push the receiver answered 5xx is retried with backoff until it arrives",
		Sections: []string{"4.3.3", "13.2"}, Scenario: "2",
		Needs:   []Need{NeedPush, NeedWebhook, NeedBehaviour},
		Enable:  pushEnable,
		Timeout: 120 * time.Second,
		Long:    true,
		Why: "Receivers fail: a deploy, a 503 from a load balancer. The receiver answers the first " +
			"attempt to the config with 503 (one refusal: A2A lets an agent give up after N " +
			"failures); the event it carried must arrive later, and so must the terminal state. The " +
			"harness waits for the retry 25 s after the refused attempt (or the patience after the " +
			"task ended, when later), ending as soon as it came, so a first retry at 15 s is waited " +
			"for (--push-retry-wait sets another wait). A retry that does not come in that time " +
			"while later pushes to the config were acknowledged warns, naming the wait; when nothing " +
			"at all arrived after the refusal, a slow queue cannot be told from no retry, and the " +
			"spec is indeterminate. Either is looked at again when the run ends: a retry that came " +
			"meanwhile makes the spec pass, saying how late it came. The intervals " +
			"between attempts are reported, and duplicates are counted (allowed: delivery is at " +
			"least once).",
		Grounds: reports.Basis{
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
	},
	{
		// A terminal state cannot restart (life-of-a-task); §4.3.3: at least one
		// delivery attempt per configured webhook.
		ID: "PUSH-008", Suite: Webhook, Level: INVARIANT,
		Title:    "After an acknowledged cancel, TASK_STATE_CANCELED is pushed and no push carries another terminal state",
		Sections: []string{"3.1.5", "4.3.3", "4.1.3"}, Scenario: "3",
		Needs:  []Need{NeedPush, NeedWebhook, NeedBehaviour},
		Enable: pushEnable,
		Why: "The cancel-then-complete race seen from the webhook: a client that relies on pushes " +
			"must learn of the cancel, and must never be told the task completed after it was " +
			"canceled. The pushes join the polls in one history checked by the LIFE-011 checker, " +
			"watched past the moment the task's script would have ended.",
		Grounds: reports.Basis{
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
	},
	{
		// A2A v1.0.1 §3.1.7: the configuration persists until task completion or
		// explicit deletion.
		ID: "PUSH-009", Suite: Webhook, Level: MUST,
		Title:    "Push configs survive a restart of the agent and are delivered to after it",
		Sections: []string{"3.1.7"}, Scenario: "2",
		TCK:       []string{"PUSH-CREATE-002"},
		Needs:     []Need{NeedPush, NeedWebhook, NeedBehaviour, NeedTopology},
		Exclusive: true,
		Timeout:   120 * time.Second,
		Enable: "Let the harness restart the agent: run without --target (embedded reference agent) or with " +
			"--agent-cmd (the harness starts your agent, with {store} for its state); " + pushEnable,
		Why: "A config held in an instance's memory is gone after a restart, while the task it " +
			"belongs to carries on: every later transition is lost in silence. A task of the " +
			"spec's own waits for input with a config; the harness restarts the agent; get and list " +
			"must still show the config, and the task's terminal state must be pushed to it.",
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				depConfigPersists,
				spec("3.1.8", "The operation MUST return configuration details including webhook URL and notification settings."),
				spec("3.1.9", "The operation MUST return all active push notification configurations for the specified task"),
				depAtLeastOnce,
			},
			Reading: "A restart of the agent is neither the task's completion nor the config's deletion, so the config MUST " +
				"still be there after it for Get and List, and be delivered to. " + depTerminalPushReading,
		},
	},
	{
		ID: "PUSH-010", Suite: Webhook, Level: SHOULD,
		Title:    "A webhook URL on a loopback address nobody registered is refused, or nothing is sent to it",
		Sections: []string{"13.2"},
		Needs:    []Need{NeedPush, NeedBehaviour},
		Enable:   pushEnable,
		Why: "SSRF: a client that can name any URL can make the agent POST into its own network. " +
			"The harness opens a canary listener on 127.0.0.1 that no allow-list names and gives its " +
			"URL as an inline config. Refusing the config passes, and so does accepting it and " +
			"never sending to it (checked at dial time, as a2a-go's unreleased main does); a push arriving at the " +
			"canary warns. The canary is watched for the patience after the task ended (late is not " +
			"lost), and its silence counts only when the run showed that the agent reaches the " +
			"harness's receiver at all (the run's webhook-reach fact); otherwise that part is " +
			"unchecked.",
		Grounds: quotes(
			spec("13.2", "Agents SHOULD validate webhook URLs to prevent SSRF (Server-Side Request Forgery) attacks … Reject private IP ranges (127.0.0.0/8 … Reject localhost and link-local addresses … Implement URL allowlists where appropriate"),
			topic("streaming-and-async", "Servers SHOULD NOT blindly trust and send POST requests to any URL provided by a client."),
		),
	},
	// ---- rollout ---------------------------------------------------------
	{
		ID: "ROLL-001", Suite: Rollout, Level: INVARIANT,
		Title:    "After a rotation the card's ETag changes exactly when the card changed, and revalidating with the old ETag gets 200 and the new card",
		Sections: []string{"8.6.1"}, Scenario: "1",
		Needs:     []Need{NeedTopology},
		Enable:    EnableTopology + EnableHooks,
		Exclusive: true,
		Why: "Scenario 1: the ETag is how a client learns the card's generation changed. The deployment " +
			"changes (the harness replaces every instance by the next generation, or runs your rotate-card, " +
			"else rollout-step, hook) and the harness compares the card and its ETag before and after, on " +
			"each instance, or through the target in several reads when it cannot address instances; a " +
			"client revalidating with the ETag it held must get the new card, never 304 for a card that " +
			"changed (RFC 9110 §8.8.3: a strong validator changes with the representation). An instance whose " +
			"card reads the same after the change is asked to revalidate too: a 200 with another card while " +
			"reads without validators keep the old one is a stale origin, and fails. Through the " +
			"target the revalidation is judged only once every read shows the one new card.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "ROLL-002", Suite: Rollout, Level: INVARIANT,
		Title:    "A task running across a rotation stays reachable with its state and history intact, or is TaskNotFound; a follow-up to a lost task gets TaskNotFound, never a new task",
		Sections: []string{"3.1.1", "3.1.3"}, Scenario: "1",
		Needs:     []Need{NeedTopology, NeedBehaviour},
		Enable:    EnableTopology + EnableHooks + " The task is scripted: the directive extension or a prompt map with a \"slow\" key (across a hook of yours, whose length the harness cannot bound, an \"input-required\" key: that task stays in progress however long the hook takes).",
		Exclusive: true,
		Timeout:   90 * time.Second,
		Why: "Scenario 1: after a rolling restart the new instances had no record of a running task and " +
			"accepted a follow-up naming it as a fresh task. After the change (the harness's roll, or " +
			"your rollout-step, rotate-card or restart-instance hook), GetTask on every instance, or " +
			"through the target in several reads when the harness cannot address instances, must return " +
			"the same task (not SUBMITTED again, its first message in its history) or TaskNotFoundError; " +
			"a task that survived must reach its scripted end, and a follow-up to one that was lost must " +
			"get TaskNotFoundError (task ids are the server's). A hook's exit status vouches for nothing: " +
			"a hook whose change does not show from outside leaves the spec unchecked. A lost task is " +
			"allowed, and reported as a finding (scenario 1's orphan).",
		Grounds: reports.Basis{
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
	},
	{
		ID: "ROLL-003", Suite: Rollout, Level: INVARIANT,
		Title:    "Tasks and push configs survive a rolling restart: every task reaches its scripted terminal state and every config gets its terminal delivery",
		Sections: []string{"3.1.7", "4.3"}, Scenario: "2",
		Needs:     []Need{NeedTopology, NeedBehaviour, NeedPush, NeedWebhook},
		Enable:    EnableTopology + " The deliveries need the card to advertise push notifications and the agent to reach the harness's receiver (--webhook-url).",
		Exclusive: true,
		Timeout:   90 * time.Second,
		Why: "Scenario 2: instances are replaced one by one while tasks run on each of them, each task " +
			"with a push config registered through another instance. A config MUST persist until the " +
			"task completes, and a task id must stay resolvable across instances: every task must end " +
			"as its script set, and each config must get the terminal state pushed, with the config's own " +
			"credentials and about its own task (§4.3.3), before and after the roll. A push later than " +
			"patience is indeterminate unless a later push of the deployment arrived (then it is lost). " +
			"A task left unchanged on an instance the roll stopped, past its script's end plus the " +
			"patience, is orphaned by the roll. The counts of tasks, deliveries, duplicates and losses are reported.",
		Grounds: reports.Basis{
			Quotes: depRolledConfigQuotes(),
			Reading: "No single MUST sentence states this invariant. A config MUST persist until its task completes and " +
				"delivery to it MUST be attempted at least once, with the config's own credentials, whichever instance holds " +
				"the task; which updates are pushed is the agent's choice, so the terminal state, the first the topic names, " +
				"is the push owed, and a task whose config got nothing across the roll is scenario 2's acknowledged-and-dropped webhook.",
			Scenario: scenario2,
		},
	},
	{
		ID: "ROLL-004", Suite: Rollout, Level: INVARIANT,
		Title:    "A starting instance serves its card only when it can honour it: 503 with Retry-After before, push and streams working from the first 200",
		Sections: []string{"8.3", "3.1.7", "3.1.2"}, Scenario: "2",
		Needs:     []Need{NeedTopology, NeedBehaviour},
		Enable:    EnableTopology,
		Exclusive: true,
		Timeout:   90 * time.Second,
		Why: "Scenario 2: an instance published a card claiming push before its dispatcher ran; a " +
			"config was acknowledged and the notification lost. The harness stops the instances, " +
			"starts one and polls its card directly: 503 while it warms up is correct. From its first " +
			"200, a task with a push config registered through it must get its pushes, with the " +
			"config's credentials and about its own task: a push that never arrives while one registered " +
			"later through the same instance does is lost (a push slower than the deployment's normal " +
			"latency, measured before, is only reported: late is not lost). A stream through it must " +
			"run to the terminal state.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "ROLL-005", Suite: Rollout, Level: MUST,
		Title:    "SubscribeToTask through one instance, for a task running on another, gets every event to the terminal state and then closes",
		Sections: []string{"3.1.6", "3.5.2"}, Scenario: "2",
		Needs:  []Need{NeedTopology, NeedStreaming, NeedBehaviour},
		Enable: EnableTopology,
		Why: "Events MUST be broadcast to all active streams of a task (§3.5.2), wherever they attach. " +
			"Scenario 2: a stream attached to an instance that never got the task's events. A " +
			"snapshot followed by silence, or a close before the terminal state, fails.",
		Grounds: quotes(
			spec("3.5.2", "Events MUST be broadcast to all active streams for that task"),
			spec("3.5.2", "Each stream MUST receive the same events in the same order"),
			spec("3.1.6", "The operation MUST return a Task object as the first event in the stream"),
			spec("3.1.6", "The stream MUST terminate when the task reaches a terminal state"),
		),
	},
	{
		ID: "ROLL-006", Suite: Rollout, Level: INVARIANT,
		Title:    "A cancel acknowledged through one instance for a task running on another is final on every instance and stream",
		Sections: []string{"3.1.5", "4.1.3"}, Scenario: "3",
		Needs:   []Need{NeedTopology, NeedBehaviour},
		Enable:  EnableTopology,
		Timeout: 90 * time.Second,
		Long:    true,
		Why: "Scenario 3: a cancel was acknowledged and the task completed anyway. The task runs on " +
			"instance A with a stream and a push config of its own on A, and the cancel goes through " +
			"instance B. After the acknowledgement nothing may follow it: no state other than CANCELED " +
			"and no artifact the canceled task did not hold, on GetTask through every instance, A's " +
			"stream, a stream through another instance, or the pushes, for as long as the task would " +
			"have run plus a margin; every stream must carry CANCELED and close, and the config on A " +
			"must be pushed CANCELED (a push later than the patience is indeterminate unless a later " +
			"task's push through A arrived meanwhile, and is looked at again when the run ends). It then runs as a seeded race across instances (cancels at " +
			"offsets around the task's end, GetTask's state and artifacts judged), with the bound " +
			"stated as in LIFE-014.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "ROLL-007", Suite: Rollout, Level: MUST,
		Title:    "While a CDN still serves the previous generation's card, the build that dropped a capability, an interface or an extension refuses each stale claim, never serving it as something else, and cancels stay final",
		Sections: []string{"3.3.4", "4.6.3", "5.3", "8.6", "3.1.5"}, Scenario: "3",
		Needs:     []Need{NeedTopology, NeedBehaviour},
		Enable:    EnableTopology,
		Exclusive: true,
		Timeout:   90 * time.Second,
		Why: "Scenario 3: a CDN edge served an older build's card while the task manager had moved on. " +
			"The harness's CDN holds the old build's card (never past its Cache-Control max-age, the window the " +
			"report states) while the instances roll to the new build, which drops whatever it drops (the embedded " +
			"driver's: the previous build's own interface and required extension, and streaming and push; the " +
			"process driver's: whatever --agent-cmd-next no longer claims of --agent-cmd's card). " +
			"Acting on the stale card's claims: a dropped capability, through the stale card's own interface URL, " +
			"must be refused with UnsupportedOperationError or PushNotificationNotSupportedError (§3.3.4); " +
			"a dropped JSONRPC or HTTP+JSON interface, called at its stale URL, must be refused (no connection, " +
			"an HTTP error, the binding's error) or answered as the binding the card declared, never accepted " +
			"and answered as another binding; a dropped extension named in A2A-Extensions may be refused or " +
			"ignored (§4.6.3; which card marks it required is UNSURE, the reading seen is recorded), never " +
			"claimed as activated. A kind of claim the builds do not differ in is unchecked, never passed; a new " +
			"build that drops nothing is could-not-run. " +
			"The cancel-then-complete race runs during the overlap, its bound stated as in LIFE-014. " +
			"Exclusive: the rollout drops the capabilities for every caller until the run's own build is rolled back.",
		Grounds: reports.Basis{
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
	},
	{
		ID: "ROLL-008", Suite: Rollout, Level: INVARIANT,
		Title:    "During a rollout a revalidating client sees each instance's new card within a measured time and never an older generation again",
		Sections: []string{"8.6.1"}, Scenario: "1",
		Needs:     []Need{NeedTopology},
		Enable:    EnableTopology + EnableHooks + " Under the hooks driver only part of the title can be checked (per instance it needs the embedded or process driver).",
		Exclusive: true,
		Why: "A client that caches the card and revalidates it (If-None-Match) must converge on the new " +
			"generation once an instance serves it. The harness revalidates on every instance (or through " +
			"the target) while the deployment changes and reports the time to consistency as a " +
			"distribution; a flip back to an older generation on an instance, or a revalidation that keeps " +
			"confirming a card no fresh read serves any more, fails.",
		Grounds: reports.Basis{
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
	},
	{
		// No sentence says the terminal state is pushed (the agent chooses its
		// events), which is why the spec is an invariant, as ROLL-003 is.
		ID: "ROLL-009", Suite: Rollout, Level: INVARIANT,
		Title:    "Push configs registered mid-rollout, through the old instance just before and while it drains and through the new one while the old drains, all get their task's terminal state",
		Sections: []string{"3.1.7", "4.3.3"}, Scenario: "2",
		Needs:     []Need{NeedTopology, NeedBehaviour, NeedPush, NeedWebhook},
		Enable:    EnableTopology + " The deliveries need the card to advertise push notifications and the agent to reach the harness's receiver (--webhook-url). The tasks are scripted: the directive extension or a prompt map with a \"slow\" key.",
		Exclusive: true,
		Timeout:   90 * time.Second,
		Why: "Scenario 2: a config registered on instance A returned 200, A was drained, the task " +
			"completed elsewhere and no webhook fired. The harness rolls every instance and, for " +
			"each one, starts tasks of its own on the old instance; when the new one is ready it " +
			"registers a config through the old one (not yet draining); once the old one is told to " +
			"drain it registers one through the old one's own URL and one through the new one. A " +
			"refusal (503, UNAVAILABLE, a closed connection) is honest and retried within patience " +
			"(through a draining instance, until it is gone). Every accepted config must get the " +
			"terminal state its task reached, with the config's own credentials and about its own task " +
			"(§4.3.3); a push later than patience is indeterminate unless a later push of the " +
			"deployment arrived (then it is lost). The counts per phase, deliveries, losses and " +
			"duplicates are reported.",
		Grounds: reports.Basis{
			Quotes: depRolledConfigQuotes(),
			Reading: "No single MUST sentence states this invariant. A config accepted through any instance, before or while " +
				"it drains, MUST persist until its task completes and MUST get a delivery attempted with its own credentials; " +
				"which updates are pushed is the agent's choice, so the terminal state its task reached is the push owed. A " +
				"refusal is honest; an acceptance followed by silence is scenario 2.",
			Scenario: scenario2,
		},
	},
	{
		// No sentence says a task keeps what it was shown holding, which is
		// why the spec is an invariant.
		ID: "ROLL-010", Suite: Rollout, Level: INVARIANT,
		Title:    "A task continued through different instances keeps every artifact each turn added, and once ended stays ended on every instance",
		Sections: []string{"3.1.3", "3.2.2", "3.4.3"}, Scenario: "3",
		Needs:   []Need{NeedTopology, NeedBehaviour},
		Enable:  EnableTopology + " The task asks for input and is continued by follow-ups: the directive extension or a prompt map with an \"input-required\" key.",
		Timeout: 90 * time.Second,
		Why: "a2a-python #1188: on replicas sharing a task store, the replica that worked a turn of a " +
			"task kept its copy of it, and when a later follow-up reached it, resumed from that copy and " +
			"saved it over what another replica had written: the other turn's artifacts and history " +
			"vanished, with no error. A task of the spec's own asks for input; its first turn goes " +
			"through instance A, its second through B, its third through A again, each asking for input " +
			"again (with an artifact, under the directive). After the third turn every instance must show " +
			"every artifact the task held after the second; a client message the history showed and then " +
			"lost is a finding (history is the agent's to keep), and is all that can show the bug when the " +
			"agent's turns that ask for input add no artifact (a prompt map's). The task is then canceled through B and " +
			"a follow-up sent through A, which last left it waiting: it must be refused or change nothing, " +
			"and every instance must show the task canceled for as long as a turn took plus a margin " +
			"(scenario 3: nothing after an acknowledged cancel). An instance that does not know the task " +
			"another created is a finding, and the spec could not run.",
		Grounds: reports.Basis{
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
	},
	{
		// Per-instance validators are a SHOULD miss (ETag) or an optional
		// header done wrongly (Last-Modified): they warn. The stale card a
		// date taken from an instance's start leads to mid-rollout is
		// scenario 1's invariant, as ROLL-001's is for the ETag, and fails.
		ID: "ROLL-011", Suite: Rollout, Level: INVARIANT,
		Title:    "The same card has the same ETag and Last-Modified on every instance and after a restart, and revalidating the old build's card by its date on a new instance mid-rollout gets the new card",
		Sections: []string{"8.6", "8.6.1", "8.6.2"}, Scenario: "1",
		Needs:     []Need{NeedTopology},
		Enable:    EnableTopology + " It needs at least two instances.",
		Exclusive: true,
		Timeout:   60 * time.Second,
		Why: "Behind a load balancer a client revalidates its card on whichever instance answers. The " +
			"harness reads the card on each instance: the same card, byte for byte, must carry the same " +
			"ETag and the same Last-Modified everywhere, and again after an instance restarts (it restarts " +
			"in a later second than any instance started before, so a date taken from an instance's start " +
			"time shows); a miss warns. Then it rolls the instances and, once the first new instance serves, " +
			"restarts an instance of the old build: a client holding the card that instance serves and " +
			"revalidating it by its date (If-Modified-Since) on the new instance must get the new card; a " +
			"304 keeps it on the old build's card (scenario 1) and fails.",
		Grounds: reports.Basis{
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
	},
}

// pushEnable is how to enable the webhook specs.
const pushEnable = "The card must advertise capabilities.pushNotifications, and the agent must reach the harness's receiver: " +
	"by default it listens on 127.0.0.1 (--webhook-listen ADDR to choose); give --webhook-url with the base URL the " +
	"agent can reach it at (a tunnel, an ingress) when that is not the listen address, and allow that URL in the " +
	"agent's webhook allow-list. Scripted tasks need the directive extension or a prompt map."

// scopeEnable is how to enable the scoping specs (LIFE-031, LIFE-032).
const scopeEnable = "Give the run a second identity: --second-header 'Authorization: Bearer …' (config key second-header, or " +
	"$A2A_CONFORM_SECOND_HEADERS), the credentials of another user whom the agent's authorization model keeps from the " +
	"tasks the run's own --header creates. Headers it does not name are sent as the run's."

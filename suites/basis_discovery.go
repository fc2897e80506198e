package suites

import "github.com/a2a-conform/a2a-conform/reports"

// The bases of the discovery specs (suites/discovery): the Agent Card, its
// caching, version negotiation and whether what it claims holds.
var _ = setBasis(map[string]reports.Basis{
	"DISC-001": {
		Quotes: []reports.Quote{
			spec("8.1", "A2A Servers MUST make an Agent Card available."),
			spec("8.2", "Clients can find Agent Cards through: … Well-Known URI: Accessing https://{server_domain}/.well-known/agent-card.json"),
			spec("14.3", "The resource at this URI MUST return an AgentCard object as defined in Section 4.4.1 of the A2A specification."),
		},
		Reading: "The card must be available, and the well-known URI, when served, must return an AgentCard. " +
			"The well-known URI is one of three discovery mechanisms the text lists, the only one a harness " +
			"given a base URL can use; no sentence makes that path itself a MUST.",
	},
	"DISC-002": quotes(
		spec("5.7", "Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages."),
		spec("5.7", "Arrays marked as required MUST contain at least one element."),
		spec("5.5", "All JSON serializations of the A2A protocol data model MUST use camelCase naming for field names"),
		spec("8.3", "The AgentCard MUST properly declare supported protocols"),
	),
	"DISC-003": quotes(
		spec("8.6.1", "Agent Card HTTP endpoints SHOULD include a Cache-Control response header with a max-age directive appropriate for the agent's expected update frequency"),
	),
	"DISC-004": quotes(
		spec("8.6.1", "Agent Card HTTP endpoints SHOULD include an ETag response header derived from the Agent Card's version field or a hash of the card content"),
	),
	"DISC-005": {
		Quotes: []reports.Quote{
			spec("8.6", "Servers and clients SHOULD use standard HTTP caching mechanisms to reduce unnecessary network overhead."),
			spec("8.6.2", "When a cached Agent Card has expired, clients SHOULD use conditional requests (If-None-Match with the stored ETag, or If-Modified-Since) to avoid re-downloading unchanged cards"),
		},
		Reading: "The server side of the conditional requests clients SHOULD send is the standard HTTP answer " +
			"to them (RFC 9110 §13.1.2: 304 for a matching If-None-Match), which the caching SHOULD covers.",
	},
	"DISC-006": {
		Quotes: []reports.Quote{
			spec("8.6", "Servers and clients SHOULD use standard HTTP caching mechanisms to reduce unnecessary network overhead."),
			spec("8.6.2", "Clients SHOULD honor HTTP caching semantics"),
			spec("3.6.2", "Agents MUST process requests using the semantics of the requested A2A-Version (matching Major.Minor)."),
		},
		Reading: "No sentence names Vary. A card body that depends on the A2A-Version request header is cached " +
			"correctly under standard HTTP caching (RFC 9110 §12.5.5, RFC 9111 §4.1) only when the response " +
			"says Vary: A2A-Version; the level is the caching SHOULD.",
	},
	"DISC-007": {
		Quotes: []reports.Quote{
			spec("8.6.1", "Agent Card HTTP endpoints MAY include a Last-Modified response header"),
		},
		Reading: "The header is optional. When sent it is the HTTP header RFC 9110 §8.8.2 defines, so its form " +
			"and its use in If-Modified-Since revalidation are RFC 9110's; the A2A text adds nothing beyond MAY.",
	},
	"DISC-008": {
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
	"DISC-009": quotes(
		spec("8.3.1", "Each interface MUST accurately declare its transport protocol and URL"),
		spec("3.6.2", "Agents MUST process requests using the semantics of the requested A2A-Version (matching Major.Minor)."),
		proto("The URL where this interface is available. Must be a valid absolute HTTPS URL in production."),
	),
	"DISC-010": quotes(
		spec("3.6.2", "If the version is not supported by the interface, agents MUST return a … VersionNotSupportedError"),
		spec("3.3.2", "The A2A protocol version specified in the request (via A2A-Version service parameter) is not supported by the agent."),
	),
	"DISC-011": {
		Quotes: []reports.Quote{
			spec("3.6.2", "Agents MUST interpret empty value as 0.3 version."),
			spec("3.6.2", "If the version is not supported by the interface, agents MUST return a … VersionNotSupportedError"),
			spec("3.6.1", "except for 0.3 Clients - 0.3 will be assumed for empty header"),
		},
		Reading: "A request without the header is a 0.3 request: an interface that serves 0.3 serves it, one that " +
			"does not answers VersionNotSupportedError. The spec also accepts an answer given as under 1.0, " +
			"which these sentences do not provide for.",
	},
	"DISC-012": quotes(
		spec("3.6", "Patch version numbers SHOULD NOT be used in requests, responses and Agent Cards, and MUST not be considered when clients and servers negotiate protocol versions."),
	),
	"DISC-013": quotes(
		spec("3.3.4", "Streaming: If AgentCard.capabilities.streaming is false or not present, attempts to use SendStreamingMessage or SubscribeToTask operations MUST return … UnsupportedOperationError"),
		spec("3.1.2", "The operation MUST establish a streaming connection for real-time updates. The stream MUST follow one of these patterns"),
		spec("3.1.6", "The operation MUST return a Task object as the first event in the stream"),
	),
	"DISC-014": quotes(
		spec("3.3.4", "Push Notifications: If AgentCard.capabilities.pushNotifications is false or not present, operations related to push notification configuration (Create, Get, List, Delete) MUST return … PushNotificationNotSupportedError"),
		spec("3.1.7", "The operation MUST establish a webhook endpoint for task update notifications."),
		spec("3.1.7", "This operation is only available if the agent supports push notifications capability."),
	),
	"DISC-015": quotes(
		spec("3.3.4", "Extended Agent Card: If AgentCard.capabilities.extendedAgentCard is false or not present, attempts to call the Get Extended Agent Card operation MUST return … UnsupportedOperationError … If the agent declares support but has not configured an extended card, it MUST return … ExtendedAgentCardNotConfiguredError"),
		spec("13.3", "operation MUST require authentication"),
		spec("13.3", "Agents MUST authenticate requests using one of the schemes declared in the public AgentCard.securitySchemes and AgentCard.security fields"),
	),
	"DISC-016": quotes(
		spec("3.3.4", "Extensions: When a server requests use of an extension marked as required: true in the Agent Card but the client does not declare support for it, the agent MUST return … ExtensionSupportRequiredError"),
		spec("4.6.3", "unless the extension is marked as required in the AgentCard, in which case the agent MUST return an error indicating unsupported extension"),
	),
	"DISC-017": {
		Quotes: []reports.Quote{
			spec("8.4.1", "Before signing, the Agent Card content MUST be canonicalized using the JSON Canonicalization Scheme (JCS)"),
			spec("8.4.1", "The signatures field itself MUST be excluded from the content being signed to avoid circular dependencies."),
			spec("8.4.2", "The protected header MUST include: … alg: Algorithm used for signing … kid: Key ID for identifying the signing key"),
			spec("8.4.3", "Expired or revoked keys MUST NOT be used for verification"),
		},
		Reading: "Signing is optional (MAY, §8.4); a signature that is present is held to the MUSTs of how it is " +
			"made, and a verifier may use no expired key to accept it.",
	},
	"DISC-018": quotes(
		spec("4.6.3", "If a client requests a versions of an extension that the agent does not support, the agent SHOULD ignore the extension for that interaction and proceed without it"),
		spec("14.2.2", "The A2A-Extensions header field contains a comma-separated list of extension URIs that the client wants to use for the request."),
	),
	"DISC-019": quotes(
		spec("7.4", "MUST authenticate every incoming request based on the provided credentials and its declared authentication requirements."),
		spec("3.3.2", "Servers MUST reject requests with invalid or missing authentication credentials"),
		spec("5.1", "When an agent supports multiple protocols, all supported protocols MUST: … Equivalent Authentication: Support the same authentication schemes declared in the AgentCard"),
		spec("13.1", "Authorization checks MUST occur before any database queries or operations that could leak information about the existence of resources outside the caller's authorization scope"),
		spec("7.4", "SHOULD use appropriate binding-specific error codes for authentication challenges or rejections."),
	),
})

package suites

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
	},
	{
		ID: "DISC-003", Suite: Discovery, Level: SHOULD,
		Title:    "The card response carries Cache-Control with a max-age",
		Sections: []string{"8.6.1"}, Scenario: "3",
		TCK: []string{"CARD-CACHE-001"},
		Why: "Without a max-age, caches and CDNs pick their own lifetime for the card and a " +
			"rotated card can be served stale for as long as they like (scenario 3).",
	},
	{
		ID: "DISC-004", Suite: Discovery, Level: SHOULD,
		Title:    "The card response carries an ETag that is stable while the card is unchanged",
		Sections: []string{"8.6.1"}, Scenario: "1",
		TCK: []string{"CARD-CACHE-002"},
		Why: "The ETag is the card's generation: clients revalidate with it, and the harness " +
			"uses it to tell a rotation from a stale copy. An ETag that changes on every fetch " +
			"of the same card makes revalidation useless.",
	},
	{
		ID: "DISC-005", Suite: Discovery, Level: SHOULD,
		Title:    "A conditional GET with the card's current ETag gets 304 Not Modified",
		Sections: []string{"8.6.1"}, Scenario: "1",
		Why: "Revalidation is how a client learns cheaply that its cached card is still current " +
			"(RFC 9110 §13.1.2). An agent that ignores If-None-Match forces a full fetch every " +
			"time, and a client that must re-resolve the card before each state transition " +
			"(scenario 1) pays for it on every step.",
	},
}

package suites

import "time"

// clientACTSSpecs are client specs written for the ACTS draft's client tests
// that are not CLIENT-PARSE payloads (a2aproject/A2A PR #1882,
// tests/acts/client-parsing.acts.yaml, branch conformance-spec, commit
// 42509658). The sentence each rests on is in docs/levels.md.
var clientACTSSpecs = []Info{
	{
		ID: "CLI-039", Suite: Client, Level: SHOULD,
		Title:    "ACTS CLIENT-CAP-001: the client checks the card's capabilities before streaming or subscribing",
		Sections: []string{"3.3.4"},
		Why: "Spec §3.3.4 (v1.0.1): clients SHOULD validate capability support by examining the Agent Card " +
			"before attempting operations that require optional capabilities; the ACTS draft's " +
			"CLIENT-CAP-001 (level should) asks the same. The scripted card says capabilities.streaming " +
			"false (the agent, as §3.3.4 says it MUST, answers SendStreamingMessage and SubscribeToTask " +
			"with UnsupportedOperationError), and the driver is asked to stream, then to subscribe. A " +
			"client that sends SendStreamingMessage or SubscribeToTask all the same warns; one that sends " +
			"and polls instead, or raises an error without sending them, passes.",
		Timeout: 60 * time.Second,
		Grounds: quotes(
			spec("3.3.4", "Clients SHOULD validate capability support by examining the Agent Card before attempting operations that require optional capabilities."),
			spec("3.3.4", "If AgentCard.capabilities.streaming is false or not present, attempts to use SendStreamingMessage or SubscribeToTask operations MUST return"),
		),
	},
}

func init() { register(clientACTSSpecs...) }

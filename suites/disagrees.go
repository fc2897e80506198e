package suites

import "github.com/a2a-conform/a2a-conform/reports"

// disagreements lists, per spec, where it knowingly judges otherwise than
// the official TCK (a2aproject/a2a-tck) or the ACTS draft (the A2A
// conformance test specification, a2aproject/A2A PR #1882), each with the
// public issue that records the upstream test's problem. A vendor holding
// an upstream result reads here why ours differs (explain, the report,
// the HTML).
var disagreements = map[string][]reports.Disagreement{
	"LIFE-028": {{
		Upstream: "TCK CORE-SEND-003 (a2a-tck #202)",
		Asserts:  "a MUST that an unsupported media type yields ContentTypeNotSupportedError, while its generic test, declaring no expected error, passes only when SendMessage succeeds",
		Why:      "the A2A text lists ContentTypeNotSupportedError as a possible error and requires no agent to refuse a media type, so the spec is MAY: serving the part is allowed, and only a refusal is judged, which must name that error",
	}},
	"LIFE-003": {{
		Upstream: "TCK CORE-MULTI-002a (a2a-tck #202)",
		Asserts:  "a MUST that an agent refuses a client-chosen contextId it will not take rather than substitute its own, while its generic test passes only when the request succeeds",
		Why:      "the spec judges what the requirement says: the contextId is echoed, or the request is refused with an error; a task under another contextId fails",
	}},
	"LIFE-012": {{
		Upstream: "TCK CORE-CANCEL-001 (a2a-tck #140, #190)",
		Asserts:  "that cancelling a task just created succeeds; a synchronous agent whose task has already completed fails it (#140), and on later TCK builds the test is skipped instead (#190)",
		Why:      "the spec scripts a task that is still running when the cancel arrives, runs it again with longer steps when it was found at rest, and never fails an agent for refusing to cancel a task that had already ended (that refusal is what A2A v1.0.1 §3.1.5 asks for)",
	}},
	"LIFE-013": {{
		Upstream: "TCK CORE-CANCEL-002 (a2a-tck #206, fixed by #207)",
		Asserts:  "on TCK builds before the fix, any error for the cancel of a terminal task",
		Why:      "the text names the error, TaskNotCancelableError, for a task that has ended; for a second cancel of a canceled task the canceled task itself, or TaskNotFoundError once it was purged (A2A v1.0.1 §3.3.1), are taken too, and any other error fails the spec",
	}},
	"LIFE-019": {{
		Upstream: "TCK STREAM-SUB-003 (a2a-tck #206, fixed by #207)",
		Asserts:  "on TCK builds before the fix, any error for a subscription to a terminal task",
		Why:      "the text names the error, UnsupportedOperationError; another error fails the spec",
	}},
	"DISC-013": {{
		Upstream: "TCK CORE-CAP-002 (a2a-tck #206, fixed by #207)",
		Asserts:  "on TCK builds before the fix, any error body for streaming on an agent that does not advertise it",
		Why:      "the text names the error, UnsupportedOperationError; another error fails the spec",
	}},
	"DISC-014": {{
		Upstream: "TCK CORE-CAP-001 (a2a-tck #206, fixed by #207)",
		Asserts:  "on TCK builds before the fix, any error for push-config operations on an agent that does not advertise push",
		Why:      "the text names the error, PushNotificationNotSupportedError; another error fails the spec",
	}},
	"DISC-015": {{
		Upstream: "TCK CORE-CAP-003 (a2a-tck #206, fixed by #207)",
		Asserts:  "on TCK builds before the fix, any error for GetExtendedAgentCard on an agent that does not advertise it",
		Why:      "the text names the error, UnsupportedOperationError; another error fails the spec",
	}},
	"DISC-010": {{
		Upstream: "TCK VER-SERVER-002 (a2a-tck #206, fixed by #207)",
		Asserts:  "on TCK builds before the fix, any error for an unsupported A2A-Version",
		Why:      "the text names the error, VersionNotSupportedError; another error fails the spec",
	}},
	"DISC-011": {{
		Upstream: "ACTS VER-NEG-002 (corrected by a2aproject/A2A PR #2227)",
		Asserts:  "a successful v1.0 answer to a request without A2A-Version",
		Why:      "an absent header means 0.3 (A2A v1.0.1 §3.6.2), so a 1.0-only interface may refuse it with VersionNotSupportedError; the spec accepts both readings and fails only another error",
	}},
	"LIFE-026": {{
		Upstream: "ACTS REST-PD-001 (corrected by a2aproject/A2A PR #2227)",
		Asserts:  "HTTP+JSON errors as RFC 7807 problem details",
		Why:      "A2A v1.0.1 §11.6 gives HTTP+JSON errors as google.rpc.Status, which this spec judges; the draft's test failed every conformant implementation",
	}},
	"DISC-003": {{
		Upstream: "ACTS CARD-CACHE-001 (corrected by a2aproject/A2A PR #2227)",
		Asserts:  "before the correction, nothing about the caching headers it is named for (the draft's grammar could not inspect headers)",
		Why:      "the spec reads the Cache-Control header itself",
	}},
	"LIFE-001": {{
		Upstream: "ACTS JSONRPC-CT-001, REST-CT-001 (corrected by a2aproject/A2A PR #2227)",
		Asserts:  "before the correction, nothing about the Content-Type they are named for",
		Why:      "the spec reads the answer's Content-Type with its body",
	}},
	"DISC-019": {{
		Upstream: "ACTS SEC-AUTH-001, -002, -003, -004, -006 (corrected by a2aproject/A2A PR #2227)",
		Asserts:  "before the correction, nothing: they were gated on a capabilities.authentication member that AgentCapabilities does not have, so they could run against no agent",
		Why:      "the spec runs whenever the card declares security schemes and requirements, refuses every operation sent without credentials on every binding, and checks that with the run's credentials the same operations are served",
	}},
}

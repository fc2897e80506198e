package suites

// TCKRequirement is one requirement of the official A2A TCK (branch 1.0-dev,
// a2aproject/a2a-tck@357c4a87afa2818731590647cccbea31c31733a2), as catalogued in
// its requirement list: its ID, level and spec section.
type TCKRequirement struct {
	ID      string
	Level   Level
	Section string
}

// TCK lists all 129 TCK requirements.
var TCK = []TCKRequirement{
	{"CORE-SEND-001", MUST, "3.1.1"},
	{"CORE-SEND-002", MUST, "3.1.1"},
	{"CORE-SEND-003", MUST, "3.1.1"},
	{"CORE-STREAM-001", MUST, "3.1.2"},
	{"CORE-STREAM-002", MUST, "3.1.2"},
	{"CORE-STREAM-003", MUST, "3.1.2"},
	{"CORE-GET-001", MUST, "3.1.3"},
	{"CORE-GET-002", MUST, "3.1.3"},
	{"CORE-LIST-001", MUST, "3.1.4"},
	{"CORE-LIST-002", MUST, "3.1.4"},
	{"CORE-LIST-003", MUST, "3.1.4"},
	{"CORE-LIST-004", MUST, "3.1.4"},
	{"CORE-LIST-005", MUST, "3.1.4"},
	{"CORE-CANCEL-001", MUST, "3.1.5"},
	{"CORE-CANCEL-002", MUST, "3.1.5"},
	{"CORE-CANCEL-003", MUST, "3.1.5"},
	{"CORE-EXECUTION-MODE-001", MUST, "3.2.2"},
	{"CORE-EXECUTION-MODE-002", MUST, "3.2.2"},
	{"CORE-ERR-001", MUST, "3.3.2"},
	{"CORE-ERR-002", MUST, "3.3.2"},
	{"CORE-CAP-001", MUST, "3.3.4"},
	{"CORE-CAP-002", MUST, "3.3.4"},
	{"CORE-CAP-003", MUST, "3.3.4"},
	{"CORE-CAP-004", MUST, "3.3.4"},
	{"CORE-MULTI-001", MAY, "3.4.1"},
	{"CORE-MULTI-001a", MUST, "3.4.1"},
	{"CORE-MULTI-002", MAY, "3.4.1"},
	{"CORE-MULTI-002a", MUST, "3.4.1"},
	{"CORE-MULTI-003", MUST, "3.4.2"},
	{"CORE-MULTI-004", MUST, "3.4.2"},
	{"CORE-MULTI-005", MUST, "3.4.3"},
	{"CORE-MULTI-006", MUST, "3.4.3"},
	{"CORE-HIST-001", SHOULD, "3.2.4"},
	{"CORE-HIST-002", MUST, "3.2.4"},
	{"CORE-HIST-003", SHOULD, "3.2.4"},
	{"CORE-HIST-004", MAY, "3.2.4"},
	{"CORE-HIST-005", SHOULD, "3.2.4"},
	{"CORE-HIST-006", SHOULD, "3.2.4"},
	{"DM-TASK-001", MUST, "4.1.1"},
	{"DM-TASK-002", MUST, "4.1.3"},
	{"DM-MSG-001", MUST, "4.1.4"},
	{"DM-MSG-002", MUST, "4.1.5"},
	{"DM-PART-001", MUST, "4.1.6"},
	{"DM-ART-001", MUST, "4.1.7"},
	{"DM-STATUS-001", MUST, "4.1.2"},
	{"DM-SERIAL-001", MUST, "5.5"},
	{"DM-SERIAL-002", MUST, "5.5"},
	{"DM-SERIAL-003", MUST, "5.6.1"},
	{"DM-SERIAL-004", MUST, "5.7"},
	{"DM-SERIAL-005", SHOULD, "5.7"},
	{"STREAM-ORDER-001", MUST, "3.5.2"},
	{"STREAM-ORDER-002", MUST, "3.5.2"},
	{"STREAM-ORDER-003", MUST, "3.5.2"},
	{"STREAM-ORDER-004", MUST, "3.5.2"},
	{"STREAM-SUB-001", MUST, "3.1.6"},
	{"STREAM-SUB-002", MUST, "3.1.6"},
	{"STREAM-SUB-003", MUST, "3.1.6"},
	{"STREAM-SUB-004", MUST, "3.1.6"},
	{"PUSH-CREATE-001", MUST, "3.1.7"},
	{"PUSH-CREATE-002", MUST, "3.1.7"},
	{"PUSH-GET-001", MUST, "3.1.8"},
	{"PUSH-GET-002", MUST, "3.1.8"},
	{"PUSH-LIST-001", MUST, "3.1.9"},
	{"PUSH-DEL-001", MUST, "3.1.10"},
	{"PUSH-DEL-002", MUST, "3.1.10"},
	{"PUSH-DELIVER-001", MUST, "4.3.3"},
	{"PUSH-DELIVER-002", MUST, "4.3.3"},
	{"PUSH-DELIVER-003", MUST, "4.3.3"},
	{"CARD-DISC-001", MUST, "8.1"},
	{"CARD-PROTO-001", MUST, "8.3"},
	{"CARD-PROTO-002", MUST, "8.3.1"},
	{"CARD-STRUCT-001", MUST, "4.4.1"},
	{"CARD-EXT-001", MUST, "3.1.11"},
	{"CARD-EXT-002", MUST, "3.1.11"},
	{"CARD-SIGN-001", MUST, "8.4.1"},
	{"CARD-SIGN-002", MUST, "8.4.1"},
	{"CARD-SIGN-003", MUST, "8.4.2"},
	{"CARD-SIGN-004", MUST, "8.4.3"},
	{"CARD-CACHE-001", SHOULD, "8.6.1"},
	{"CARD-CACHE-002", SHOULD, "8.6.1"},
	{"CARD-CACHE-003", MAY, "8.6.1"},
	{"AUTH-TLS-001", MUST, "7.1"},
	{"AUTH-TLS-002", SHOULD, "7.1"},
	{"AUTH-SERVER-001", SHOULD, "7.2"},
	{"AUTH-SERVER-002", MUST, "7.4"},
	{"AUTH-INTASK-001", MUST, "7.6.1"},
	{"AUTH-INTASK-002", MUST, "7.6.1"},
	{"AUTH-INTASK-003", MUST, "7.6.1"},
	{"AUTH-INTASK-004", MUST, "7.6.1"},
	{"AUTH-INTASK-005", SHOULD, "7.6.1"},
	{"AUTH-INTASK-006", SHOULD, "7.6.1"},
	{"AUTH-SCOPE-001", MUST, "13.1"},
	{"AUTH-SCOPE-002", MUST, "13.1"},
	{"AUTH-SCOPE-003", MUST, "3.3.2"},
	{"VER-CLIENT-001", MUST, "3.6.1"},
	{"VER-SERVER-001", MUST, "3.6.2"},
	{"VER-SERVER-002", MUST, "3.6.2"},
	{"VER-SERVER-003", MUST, "3.6.2"},
	{"VER-CLIENT-002", MUST, "3.6"},
	{"BIND-EQUIV-001", MUST, "5.1"},
	{"BIND-EQUIV-002", MUST, "5.1"},
	{"BIND-EQUIV-003", MUST, "5.1"},
	{"BIND-EQUIV-004", MUST, "5.1"},
	{"BIND-FIELD-001", MUST, "5.2"},
	{"JSONRPC-FMT-001", MUST, "9.1"},
	{"JSONRPC-FMT-002", MUST, "9.1"},
	{"JSONRPC-SVC-001", MUST, "9.1"},
	{"JSONRPC-SVC-002", MUST, "9.2"},
	{"JSONRPC-ERR-001", MUST, "9.5"},
	{"JSONRPC-ERR-002", MUST, "9.5"},
	{"JSONRPC-ERR-003", MUST, "9.5"},
	{"JSONRPC-SSE-001", MUST, "9.4.2"},
	{"JSONRPC-SSE-002", MUST, "5.4"},
	{"GRPC-SVC-001", MUST, "10.1"},
	{"GRPC-SVC-002", MUST, "10.1"},
	{"GRPC-SVC-003", MUST, "10.1"},
	{"GRPC-META-001", MUST, "10.2"},
	{"GRPC-ERR-001", MUST, "10.6"},
	{"GRPC-ERR-002", MUST, "5.4"},
	{"GRPC-ERR-003", MUST, "10.7"},
	{"HTTP_JSON-URL-001", MUST, "11.3"},
	{"HTTP_JSON-URL-002", MUST, "11.3"},
	{"HTTP_JSON-SVC-001", MUST, "11.1"},
	{"HTTP_JSON-SVC-002", MUST, "11.2"},
	{"HTTP_JSON-QP-001", MUST, "11.5"},
	{"HTTP_JSON-ERR-001", MUST, "11.6"},
	{"HTTP_JSON-ERR-002", MUST, "11.6"},
	{"HTTP_JSON-STATUS-001", MUST, "5.4"},
	{"HTTP_JSON-SSE-001", MUST, "11.7"},
}

// tckByID indexes TCK by requirement ID.
var tckByID = func() map[string]TCKRequirement {
	m := make(map[string]TCKRequirement, len(TCK))
	for _, r := range TCK {
		m[r.ID] = r
	}
	return m
}()

// tckRank orders the TCK's levels from weakest to strongest.
var tckRank = map[Level]int{MAY: 1, SHOULD: 2, MUST: 3}

// TCKRequirements returns the TCK requirements spec i names, in its order;
// IDs the catalogue does not know are left out (TestTCKCoverage rejects them).
func TCKRequirements(i Info) []TCKRequirement {
	var out []TCKRequirement
	for _, id := range i.TCK {
		if r, ok := tckByID[id]; ok {
			out = append(out, r)
		}
	}
	return out
}

// TCKLevel is the official TCK's level for what spec i covers: the strongest
// level among the TCK requirements it names (MUST > SHOULD > MAY), "" when it
// names none. A spec's own Level comes from the A2A text and decides its
// verdict; this is shown beside it, never in its place (docs/levels.md).
func TCKLevel(i Info) Level {
	var best Level
	for _, r := range TCKRequirements(i) {
		if tckRank[r.Level] > tckRank[best] {
			best = r.Level
		}
	}
	return best
}

// TCKNotApplicable lists the TCK requirements of the areas this harness
// covers that no spec covers, each with the reason. Every other TCK ID of
// those areas must be named by a spec (TestTCKCoverage).
var TCKNotApplicable = map[string]string{
	"AUTH-TLS-001":    "not automatable against a loopback target, and a deployment matter (the TCK tags it not-automatable): that traffic is encrypted outside testing. The harness speaks TLS to every https:// and gRPC interface off loopback and refuses plaintext there; gRPC plaintext on loopback is an observation (grpc-transport)",
	"AUTH-TLS-002":    "not automatable against a loopback target (the TCK tags it not-automatable): which TLS version and ciphers a production endpoint negotiates is a deployment matter. Against an https:// target the harness reports what it negotiated (observation tls of DISC-001, interface-N.tls of DISC-009), never a verdict",
	"AUTH-INTASK-004": "no wire observation can judge it: the rule is about the channel on which the agent arranges to receive an in-task credential (an OAuth redirect, a human approval), which lies outside A2A, and an in-band method may have been negotiated out of band or by an extension the harness cannot see. The AUTH_REQUIRED status message is free text; a client message carrying a credential would be the client's doing, and the agent's acceptance of one cannot be told from a negotiated in-band method. LIFE-030 checks what is on the wire of the flow (a Task in AUTH_REQUIRED with a status message)",
	"AUTH-SERVER-001": "a client-side rule (the TCK tags it not-automatable): the harness itself validates certificate chains with the system roots (and --ca-file's) on every TLS connection; nothing of the agent's to check",
}

// TCKAreasCovered are the TCK ID prefixes the suites must cover: every
// requirement of these areas is named by a spec or listed in
// TCKNotApplicable with the reason.
var TCKAreasCovered = []string{"CORE-", "DM-", "STREAM-", "CARD-", "VER-", "BIND-", "JSONRPC-", "GRPC-", "HTTP_JSON-", "PUSH-", "AUTH-"}

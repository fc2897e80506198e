// Package reports holds the ConformanceReport model, the one thing every output
// is built from (report.json, junit.xml, report.html, the scorecard and badges),
// and the code that writes, reads and verifies those files.
//
// The model is a contract: vendors submit report.json files unedited and the
// scorecard merges them. Add fields freely; never rename or repurpose one
// without bumping APIVersion.
package reports

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

const (
	// APIVersion versions the report schema (docs/report-format.md).
	APIVersion = "a2a-conform.dev/v1alpha1"
	// Kind is the only kind of document this package writes.
	Kind = "ConformanceReport"
)

// Verdict is the outcome of one spec (DESIGN.md "Verdicts").
type Verdict string

const (
	Pass          Verdict = "pass"
	Fail          Verdict = "fail"
	Warn          Verdict = "warn"
	NotApplicable Verdict = "not-applicable"
	CouldNotRun   Verdict = "could-not-run"
	Indeterminate Verdict = "indeterminate"
)

// Verdicts lists every verdict in display order.
var Verdicts = []Verdict{Pass, Fail, Warn, NotApplicable, CouldNotRun, Indeterminate}

// Counts reports whether the verdict enters the score's denominator: everything
// but not-applicable does, and only pass counts as passed.
func (v Verdict) Counts() bool { return v != NotApplicable }

// Report is one run of the harness against one implementation.
type Report struct {
	APIVersion      string          `json:"apiVersion"`
	Kind            string          `json:"kind"`
	Implementation  Implementation  `json:"implementation"`
	Harness         Harness         `json:"harness"`
	ProtocolVersion string          `json:"protocolVersion"`
	Run             Run             `json:"run"`
	Card            json.RawMessage `json:"card,omitempty"`
	// CardError says why no card could be fetched, when none was.
	CardError string   `json:"cardError,omitempty"`
	Summary   Summary  `json:"summary"`
	Results   []Result `json:"results"`
	// Digest is "sha256:<hex>" over the canonical JSON of the report with Digest
	// empty; verify recomputes it to detect edits.
	Digest string `json:"digest,omitempty"`
	// Baseline is the outcome of run --expect: how each expected non-pass
	// and each unexpected one came out (reports/baseline.go).
	Baseline *Baseline `json:"baseline,omitempty"`

	// raw holds the bytes ReadJSON decoded, so that Verify hashes exactly what
	// was submitted, including members this version does not know.
	raw []byte
}

// Implementation identifies the agent under test, from its card unless the
// config overrides it.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	URL     string `json:"url,omitempty"`
	// Role is "client" for a client-mode report (the implementation is a
	// client driven through docs/client-driver.md); absent for an agent.
	Role string `json:"role,omitempty"`
}

// Harness identifies the a2a-conform build that produced the report.
type Harness struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Run records how the run was made, enough to reproduce it.
type Run struct {
	Start       time.Time `json:"start"`
	DurationMs  int64     `json:"durationMs"`
	Seed        int64     `json:"seed"`
	Suites      []string  `json:"suites,omitempty"`
	LabelFilter string    `json:"labelFilter,omitempty"`
	Focus       []string  `json:"focus,omitempty"`
	Faults      []string  `json:"faults,omitempty"`
	// Mode is "client" for `a2a-conform client` (the harness played the
	// agent and judged a client driver); absent for an agent run.
	Mode string `json:"mode,omitempty"`
	// Topology is the driver: embedded, process, hooks or none.
	Topology string `json:"topology"`
	Target   string `json:"target,omitempty"`
	// Unreachable is set when the target could not be reached at all; then no
	// spec passed and the CLI exits 3.
	Unreachable bool `json:"unreachable,omitempty"`
	// SpecRevision is the A2A specification text the harness's specs rest
	// on (tag), e.g. "v1.0.1"; with the harness version it fixes the spec set.
	SpecRevision string `json:"specRevision,omitempty"`
	// Requirements names the frozen requirement set the run's specs and
	// levels are ("a2a-1.0.1-r2": A2A protocol version, harness revision
	// of the spec list); a scorecard scores the report against it.
	Requirements string `json:"requirements,omitempty"`
	// CardDigest is sha256 of the card's bytes as fetched at the start.
	CardDigest string `json:"cardDigest,omitempty"`
	// Args is the run's configuration as `a2a-conform run` flags, secrets
	// left out (headers come from the environment on a re-run), for the
	// reproduce command each failure shows.
	Args []string `json:"args,omitempty"`
	// HasHeaders says the run sent headers of its own (--header, or
	// $A2A_CONFORM_HEADERS), whose values no report holds.
	HasHeaders bool `json:"hasHeaders,omitempty"`
	// DeclaredSpecs is how many agent specs the harness that wrote the
	// report declares (its whole set, whatever the run selected), so that
	// a report read alone shows whether it covers the set.
	DeclaredSpecs int `json:"declaredSpecs,omitempty"`
	// Interrupted names the signal that stopped the run before every
	// selected spec had run (SIGINT, SIGTERM); the report is then partial
	// and the CLI exits 128 + the signal's number.
	Interrupted string `json:"interrupted,omitempty"`
	// Shard is set when the run was one shard of a split selection (run
	// --shard i/n), or when the report merges such shards (a2a-conform
	// merge; then Index is 0 and Merged and Missing say which shards it
	// holds). Absent for an unsharded run.
	Shard *Shard `json:"shard,omitempty"`
	// Notes say what the harness changed during the run because of how the
	// target behaved (e.g. shorter bounds after transport failures).
	Notes []string `json:"notes,omitempty"`
	// Rate is the request rate the run used, per instance (absent when
	// the run sent no request).
	Rate *Rate `json:"rate,omitempty"`
}

// Rate is the request rate a run used: its bound (run --max-rps, 0 for
// none, per instance) and, per instance that answered
// (the A2A-Conform-Instance header, else the address), what it was sent.
type Rate struct {
	MaxRPS    int            `json:"maxRps"`
	Instances []InstanceRate `json:"instances"`
}

// InstanceRate is what one instance was sent: requests in all, the most in
// any one second (counted in 100 ms steps), and the mean per second from
// its first request to its last (at least one second). Every attempt
// counts, a retried refusal included.
type InstanceRate struct {
	Instance      string  `json:"instance"`
	Requests      int     `json:"requests"`
	PeakPerSecond int     `json:"peakPerSecond"`
	MeanPerSecond float64 `json:"meanPerSecond"`
}

// Shard says which part of a split run a report holds (suites.InShard gives
// the rule: by spec ID, exclusive specs all in shard 1).
type Shard struct {
	// Index is the shard this run ran, 1 to Total; 0 in a merged report.
	Index int `json:"index,omitempty"`
	// Total is how many shards the selection was split into.
	Total int `json:"total"`
	// Merged lists, in a merged report, the shard indexes it holds.
	Merged []int `json:"merged,omitempty"`
	// Missing lists, in a merged report, the shard indexes it lacks: their
	// specs are counted as not passed and the report is partial.
	Missing []int `json:"missing,omitempty"`
}

// Summary counts verdicts overall, per suite and per level. Score is
// pass / (all verdicts but not-applicable): could-not-run and indeterminate
// count against it.
type Summary struct {
	Total     int                        `json:"total"`
	ByVerdict map[Verdict]int            `json:"byVerdict"`
	BySuite   map[string]map[Verdict]int `json:"bySuite"`
	ByLevel   map[string]map[Verdict]int `json:"byLevel"`
	Score     Score                      `json:"score"`
	// Partial counts results with parts of their title left unchecked
	// (Result.Unchecked); none of them is a pass.
	Partial int `json:"partial,omitempty"`
	// Findings counts results that report findings (Result.Findings).
	Findings int `json:"findings,omitempty"`
}

// Score is the headline figure with its denominator always shown.
type Score struct {
	Passed      int     `json:"passed"`
	Denominator int     `json:"denominator"`
	Percent     float64 `json:"percent"`
	// MustFailed counts fail verdicts on MUST and INVARIANT specs: non-zero
	// means the CLI exits 1.
	MustFailed int `json:"mustFailed"`
	// Warned counts warn verdicts (a SHOULD not met). They are in the
	// denominator and not in Passed; this figure lists them separately.
	Warned int `json:"warned"`
}

// Result is one spec's outcome.
type Result struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Suite    string   `json:"suite"`
	Level    string   `json:"level"`
	Sections []string `json:"sections,omitempty"`
	Scenario string   `json:"scenario,omitempty"`
	TCK      []string `json:"tck,omitempty"`
	// TCKLevel is the official TCK's level for what the spec covers: the
	// strongest level among the requirements in TCK, "" when it names none.
	// It is shown beside Level, which comes from the A2A text and alone
	// decides the verdict.
	TCKLevel string `json:"tckLevel,omitempty"`
	// Basis is the text the spec's level rests on, word for word, with
	// where it stands: a vendor reads it beside the verdict.
	Basis *Basis `json:"basis,omitempty"`
	// Judges says, for a client spec, what of the client its verdict
	// rests on: the SDK's own behaviour, or code the driver supplies where
	// SDKs have none.
	Judges  *Judged `json:"judges,omitempty"`
	Verdict Verdict `json:"verdict"`
	// Reason is one paragraph: for anything but pass, what was expected, what
	// was seen, and for could-not-run how to enable the spec.
	Reason     string                 `json:"reason,omitempty"`
	DurationMs int64                  `json:"durationMs"`
	Violations []invariants.Violation `json:"violations,omitempty"`
	// Observations records which reading of an ambiguous rule the agent took
	// (e.g. "second-cancel": "TaskNotCancelableError") and measured figures
	// (e.g. "race.trials": "200").
	Observations map[string]string `json:"observations,omitempty"`
	// Unchecked lists the parts of the title the spec could not check, each
	// with why. A result with unchecked parts is never a pass (DESIGN.md
	// "Verdicts"; docs/report-format.md "Partial checks").
	Unchecked []string `json:"unchecked,omitempty"`
	// Findings are what the spec saw that the A2A text allows but whoever
	// runs the deployment should know, each one sentence: a task lost across
	// a restart, which leaves its client and its push configs orphaned
	// (scenario 1). They never change the verdict; the run's summary lists
	// them (Summary.Findings, the terminal, the HTML headline).
	Findings []string `json:"findings,omitempty"`
	// Steps are the changes the spec made to the deployment while it ran
	// (a roll of the harness's instances, a vendor's hook), each at its
	// offset on the transcript's clock: a replay bundle performs them at
	// the same point of its schedule.
	Steps []Step `json:"steps,omitempty"`
	// Replay says, for a fail, where the run wrote the replay bundle that
	// reproduces it, or why it wrote none: a fail's reproduction is never
	// silently missing.
	Replay     *ReplayNote `json:"replay,omitempty"`
	Transcript []Exchange  `json:"transcript,omitempty"`
	// Attempts are the re-runs of this spec alone (run --retry-unexpected),
	// after the attempt whose verdict this is. Verdict never changes: a spec
	// whose attempts disagree is flaky (Flipped), never a pass.
	Attempts []Attempt `json:"attempts,omitempty"`
	// TranscriptOmitted counts the exchanges of a passing (or
	// not-applicable) spec left out of Transcript, which then holds only
	// the first ones: a clean run's report stays small, and every other
	// verdict keeps its transcript whole.
	TranscriptOmitted int `json:"transcriptOmitted,omitempty"`
}

// Basis is what a spec's level rests on: sentences of the A2A text quoted
// word for word (Quotes); Reading, where the level does not simply follow
// from a keyword in them, says how it was read (an INVARIANT spec, which
// no single MUST sentence states, says so and how it follows from the
// quotes and from the field scenario it was derived from, Scenario).
// Disagrees lists where the spec knowingly judges otherwise than the
// official TCK or the ACTS draft.
type Basis struct {
	Quotes    []Quote        `json:"quotes"`
	Reading   string         `json:"reading,omitempty"`
	Scenario  *ScenarioQuote `json:"scenario,omitempty"`
	Disagrees []Disagreement `json:"disagrees,omitempty"`
}

// Quote is one passage of the A2A specification, in its exact words
// (emphasis, backticks and line breaks aside; "…" joins pieces that each
// stand in the text), and where it stands: Version ("1.0.1"), File (the
// path in the specification's repository: "docs/specification.md",
// "specification/a2a.proto", "docs/topics/life-of-a-task.md") and Section
// (the specification's section number, "3.1.5"; "" for the proto and the
// topic pages).
type Quote struct {
	Text    string `json:"text"`
	Version string `json:"version"`
	File    string `json:"file"`
	Section string `json:"section,omitempty"`
}

// Cite is where q stands, as a vendor looks it up: A2A v1.0.1 §3.1.5, or
// A2A v1.0.1 docs/topics/life-of-a-task.md.
func (q Quote) Cite() string {
	if q.Section != "" {
		return "A2A v" + q.Version + " §" + q.Section
	}
	return "A2A v" + q.Version + " " + q.File
}

// ScenarioQuote is the sentence of a field scenario (docs/scenarios.md)
// an INVARIANT spec is derived from.
type ScenarioQuote struct {
	Number string `json:"number"`
	Text   string `json:"text"`
}

// Disagreement is one place where a spec knowingly judges otherwise than
// an upstream conformance suite: Upstream names the test or requirement
// and its public issue ("TCK CORE-CANCEL-001 (a2a-tck #140)"), Asserts
// what it checks, Why what the A2A text says instead.
type Disagreement struct {
	Upstream string `json:"upstream"`
	Asserts  string `json:"asserts"`
	Why      string `json:"why"`
}

// ReplayNote is a fail's replay bundle (Bundle: its path beside the
// report, "replay/ID.json") or why there is none (None).
type ReplayNote struct {
	Bundle string `json:"bundle,omitempty"`
	None   string `json:"none,omitempty"`
}

// Step is one change a spec made to the deployment, timed on the clock of
// the transcript's AtMs.
type Step struct {
	AtMs  float64 `json:"atMs"`
	DurMs float64 `json:"durMs"`
	// Kind is "roll" (the harness replaced every instance of its own by the
	// next generation) or "hook" (the vendor's command for Point ran).
	Kind string `json:"kind"`
	// Point is the hook point the change is, or stands for: "rollout-step"
	// for the harness's roll, else the hook's ("rotate-card",
	// "restart-instance", "rollout-step").
	Point string `json:"point"`
	// Accepts are the hook points the spec takes for this change, in its
	// order of preference (Point among them).
	Accepts []string `json:"accepts,omitempty"`
	// TaskIDs are the spec's tasks running when the change began, as a hook
	// is told them.
	TaskIDs []string `json:"taskIds,omitempty"`
	// Generation is the deployment's generation after the change.
	Generation int `json:"generation,omitempty"`
	// Error says how the change failed ("" when it completed).
	Error string `json:"error,omitempty"`
}

// Exchange is one recorded request/response (or webhook delivery), already
// redacted and capped by the recorder.
type Exchange struct {
	Seq        int         `json:"seq"`
	AtMs       float64     `json:"atMs"` // since the run started (monotonic)
	DurMs      float64     `json:"durMs"`
	Direction  string      `json:"direction,omitempty"` // "out" (harness→agent) or "in" (webhook)
	Method     string      `json:"method"`
	URL        string      `json:"url"`
	Status     int         `json:"status,omitempty"`
	Instance   string      `json:"instance,omitempty"`
	ReqHeader  http.Header `json:"requestHeaders,omitempty"`
	ReqBody    string      `json:"requestBody,omitempty"`
	RespHeader http.Header `json:"responseHeaders,omitempty"`
	RespBody   string      `json:"responseBody,omitempty"`
	Events     []Event     `json:"events,omitempty"`
	Error      string      `json:"error,omitempty"`
	// Truncated says a body or the event list was cut at the recorder's cap.
	Truncated bool `json:"truncated,omitempty"`
}

// Event is one SSE event received on an exchange.
type Event struct {
	AtMs float64 `json:"atMs"`
	Data string  `json:"data"`
}

// Lines renders the basis as lines of plain text, as `explain`, `list`,
// JUnit and the terminal show it: each quote after where it stands, the
// reading, the scenario sentence, and each disagreement with an upstream
// suite.
func (b *Basis) Lines() []string {
	if b == nil {
		return nil
	}
	var out []string
	for _, q := range b.Quotes {
		out = append(out, q.Cite()+": \u201c"+q.Text+"\u201d")
	}
	if b.Reading != "" {
		out = append(out, "Reading: "+b.Reading)
	}
	if s := b.Scenario; s != nil {
		out = append(out, "Scenario "+s.Number+" (docs/scenarios.md): \u201c"+s.Text+"\u201d")
	}
	for _, d := range b.Disagrees {
		out = append(out, "Differs from "+d.Upstream+": it asserts "+d.Asserts+"; here, "+d.Why+".")
	}
	return out
}

// Judged is what a client spec's verdict rests on (Result.Judges).
type Judged struct {
	// What is JudgesSDK (the client SDK's own behaviour: the requests it
	// sends, the errors it raises, the events it surfaces) or
	// JudgesSupplied (code the driver supplies because SDKs leave it to
	// the application).
	What string `json:"what"`
	// Pieces names the supplied pieces the verdict rests on (PieceReceiver,
	// PieceState, PieceDefaultPush).
	Pieces []string `json:"pieces,omitempty"`
	// By says, per piece, who supplied it in this run, as the driver
	// reported it: SuppliedByDriver (the vendor's driver code, the default),
	// SuppliedByKit (the harness's driver kit) or SuppliedBySDK.
	By map[string]string `json:"by,omitempty"`
}

// The values of Judged.
const (
	JudgesSDK      = "sdk"
	JudgesSupplied = "supplied"

	PieceReceiver    = "push-receiver"
	PieceState       = "client-state"
	PieceDefaultPush = "push-default"

	SuppliedByDriver = "driver"
	SuppliedByKit    = "kit"
	SuppliedBySDK    = "sdk"
)

// Text says in a sentence what the verdict judges.
func (j *Judged) Text() string {
	if j == nil {
		return ""
	}
	if j.What != JudgesSupplied {
		return "judges the client SDK's own behaviour (the requests it sends, the errors it raises, the events it surfaces)"
	}
	var parts []string
	for _, p := range j.Pieces {
		name := map[string]string{PieceReceiver: "the push receiver", PieceState: "the client's task state rule",
			PieceDefaultPush: "the client's default push config"}[p]
		if name == "" {
			name = p
		}
		if by, ok := j.By[p]; ok {
			who := map[string]string{SuppliedByDriver: "the driver's own code", SuppliedByKit: "the harness's driver kit", SuppliedBySDK: "the SDK"}[by]
			if who == "" {
				who = by
			}
			name += " (here: " + who + ")"
		}
		parts = append(parts, name)
	}
	return "judges what SDKs may leave to the application, supplied here as the driver says: " + strings.Join(parts, ", ")
}

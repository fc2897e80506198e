// Package directive encodes and decodes the a2a-conform directive extension: a
// data part in a message that scripts what the agent does with the task (how long
// each step takes, how the task ends, how many artifact chunks it streams, or a
// plain Message reply). The harness builds directives with this package; the
// reference agent in fakes/ decodes them with it; vendors implement the format
// from docs/directive-extension.md, which this package must agree with.
package directive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// URI identifies the extension in AgentCard.capabilities.extensions, in the
// A2A-Extensions request header and in Message.extensions. The trailing /v1 is
// the extension's major version: a breaking change gets a new URI (spec §4.6.3
// forbids silently falling back to an older extension version).
const URI = "https://a2a-conform.dev/extensions/directive/v1"

// Key is the one member of the data part's JSON object that holds the
// directive. A fixed key (rather than a media type) survives SDKs that drop or
// rewrite Part.mediaType.
const Key = "a2aConformDirective"

// Version is the only directive version this package (and the reference agent)
// implements. Versions are integers; an agent that receives one it does not
// implement rejects the message (see ErrUnsupportedVersion).
const Version = 1

// SupportedVersions is what an agent lists in its card extension params.
var SupportedVersions = []int{Version}

// Bounds on what a directive may ask for. Everything in a message is untrusted:
// an agent must not be scripted into sleeping for a day or streaming a million
// chunks.
const (
	MaxDelay          = 10 * time.Minute
	MaxArtifactChunks = 100
	MaxTextBytes      = 64 << 10
)

// Outcome is how the scripted task ends (or, for OutcomeMessage, that no task is
// created at all).
type Outcome string

const (
	OutcomeCompleted     Outcome = "completed"
	OutcomeFailed        Outcome = "failed"
	OutcomeRejected      Outcome = "rejected"
	OutcomeInputRequired Outcome = "input-required"
	OutcomeAuthRequired  Outcome = "auth-required"
	OutcomeMessage       Outcome = "message"
)

// Outcomes lists every outcome, in documentation order.
var Outcomes = []Outcome{OutcomeCompleted, OutcomeFailed, OutcomeRejected,
	OutcomeInputRequired, OutcomeAuthRequired, OutcomeMessage}

// State is the task state the outcome ends in; "" for OutcomeMessage.
func (o Outcome) State() a2a.TaskState {
	switch o {
	case OutcomeCompleted:
		return a2a.TaskStateCompleted
	case OutcomeFailed:
		return a2a.TaskStateFailed
	case OutcomeRejected:
		return a2a.TaskStateRejected
	case OutcomeInputRequired:
		return a2a.TaskStateInputRequired
	case OutcomeAuthRequired:
		return a2a.TaskStateAuthRequired
	}
	return ""
}

func (o Outcome) valid() bool {
	for _, v := range Outcomes {
		if o == v {
			return true
		}
	}
	return false
}

// Directive is one script. The zero values of the optional members are the
// documented defaults, so Directive{Version: 1} is "complete at once, echoing
// the text".
type Directive struct {
	// Version of the directive format; required. Only Version (1) exists.
	Version int `json:"version"`
	// Outcome is how the task ends; default OutcomeCompleted.
	Outcome Outcome `json:"outcome,omitempty"`
	// DelayMs is waited before every transition after the task's creation
	// (SUBMITTED→WORKING, each artifact chunk, the outcome), in milliseconds;
	// default 0. For OutcomeMessage it is waited once before the reply.
	DelayMs int64 `json:"delayMs,omitempty"`
	// ArtifactChunks is how many artifactUpdate events carry the task's one
	// artifact. Absent means 1 for OutcomeCompleted and 0 otherwise; 0 means no
	// artifact.
	ArtifactChunks *int `json:"artifactChunks,omitempty"`
	// Text is the content of the artifact (split across the chunks), of the
	// status message of failed/rejected/interrupted outcomes, or of the Message
	// reply. Default: the message's text parts, joined with a newline.
	Text string `json:"text,omitempty"`
}

// Delay is DelayMs as a duration.
func (d Directive) Delay() time.Duration { return time.Duration(d.DelayMs) * time.Millisecond }

// EffectiveOutcome applies the default.
func (d Directive) EffectiveOutcome() Outcome {
	if d.Outcome == "" {
		return OutcomeCompleted
	}
	return d.Outcome
}

// Chunks applies the default for ArtifactChunks.
func (d Directive) Chunks() int {
	if d.ArtifactChunks != nil {
		return *d.ArtifactChunks
	}
	if d.EffectiveOutcome() == OutcomeCompleted {
		return 1
	}
	return 0
}

// ErrUnsupportedVersion is returned (wrapped) for a directive whose version
// this package does not implement. The agent answers such a message with
// InvalidParams and creates no task, so that a harness newer than the agent
// fails loudly instead of observing a behaviour it did not ask for.
var ErrUnsupportedVersion = errors.New("unsupported directive version")

// Validate checks the version and the bounds.
func (d Directive) Validate() error {
	if d.Version != Version {
		return fmt.Errorf("%w %d (this agent implements %v)", ErrUnsupportedVersion, d.Version, SupportedVersions)
	}
	if d.Outcome != "" && !d.Outcome.valid() {
		return fmt.Errorf("unknown directive outcome %q (known: %v)", d.Outcome, Outcomes)
	}
	if d.DelayMs < 0 || d.Delay() > MaxDelay {
		return fmt.Errorf("directive delayMs %d out of range 0..%d", d.DelayMs, MaxDelay.Milliseconds())
	}
	if c := d.Chunks(); c < 0 || c > MaxArtifactChunks {
		return fmt.Errorf("directive artifactChunks %d out of range 0..%d", c, MaxArtifactChunks)
	}
	if len(d.Text) > MaxTextBytes {
		return fmt.Errorf("directive text is %d bytes, more than %d", len(d.Text), MaxTextBytes)
	}
	return nil
}

// Part encodes the directive as the data part a message carries.
func (d Directive) Part() (a2a.Part, error) {
	if err := d.Validate(); err != nil {
		return a2a.Part{}, err
	}
	return a2a.DataPart(map[string]Directive{Key: d})
}

// MustPart is Part for directives built in code, where an invalid one is a bug.
func (d Directive) MustPart() a2a.Part {
	p, err := d.Part()
	if err != nil {
		panic(err)
	}
	return p
}

// Decode reads one part. found is false when the part is not a directive part
// (not a data part, or a data part without the Key member); err is set when it
// is one but is malformed, out of bounds or of an unsupported version.
func Decode(p a2a.Part) (d Directive, found bool, err error) {
	data := bytes.TrimSpace(p.Data)
	if len(data) == 0 || data[0] != '{' {
		return Directive{}, false, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return Directive{}, false, nil
	}
	raw, ok := obj[Key]
	if !ok {
		return Directive{}, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&d); err != nil {
		return Directive{}, true, fmt.Errorf("malformed directive: %v", err)
	}
	return d, true, d.Validate()
}

// Find returns the directive among a message's parts. More than one directive
// part is an error: which one wins would be a guess.
func Find(parts []a2a.Part) (d Directive, found bool, err error) {
	for _, p := range parts {
		one, ok, perr := Decode(p)
		if !ok {
			continue
		}
		if found {
			return Directive{}, true, errors.New("more than one directive part in the message")
		}
		d, found, err = one, true, perr
	}
	return d, found, err
}

// Step is one transition a directive produces after the task is created.
type Step struct {
	// Delay is waited before the step.
	Delay time.Duration
	// State is the status the step moves the task to; "" for an artifact chunk.
	State a2a.TaskState
	// Chunk (1-based) and Of number an artifact chunk; zero for status steps.
	Chunk, Of int
}

// Steps lists the transitions after creation (the task is created in
// SUBMITTED): WORKING, then each artifact chunk, then the outcome state. Empty
// for OutcomeMessage, which creates no task.
func (d Directive) Steps() []Step {
	out := d.EffectiveOutcome()
	if out == OutcomeMessage {
		return nil
	}
	steps := []Step{{Delay: d.Delay(), State: a2a.TaskStateWorking}}
	n := d.Chunks()
	for i := 1; i <= n; i++ {
		steps = append(steps, Step{Delay: d.Delay(), Chunk: i, Of: n})
	}
	return append(steps, Step{Delay: d.Delay(), State: out.State()})
}

// Duration is how long the script takes from creation to its last transition.
func (d Directive) Duration() time.Duration {
	if d.EffectiveOutcome() == OutcomeMessage {
		return d.Delay()
	}
	return time.Duration(len(d.Steps())) * d.Delay()
}

// ChunkText returns the part of text carried by chunk i (1-based) of n: the
// text split into n nearly equal pieces on rune boundaries, so that the chunks
// concatenated give the text back.
func ChunkText(text string, i, n int) string {
	if n <= 0 || i < 1 || i > n {
		return ""
	}
	runes := []rune(text)
	lo := len(runes) * (i - 1) / n
	hi := len(runes) * i / n
	return string(runes[lo:hi])
}

// InputText joins the text parts of a message, the default Text of a directive.
func InputText(parts []a2a.Part) string {
	var texts []string
	for _, p := range parts {
		if p.Text != nil {
			texts = append(texts, *p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// CardExtension is the entry an agent implementing this package lists in
// capabilities.extensions. It is never required: clients that do not know the
// extension get the agent's ordinary behaviour.
func CardExtension() a2a.AgentExtension {
	versions := make([]any, len(SupportedVersions))
	for i, v := range SupportedVersions {
		versions[i] = v
	}
	return a2a.AgentExtension{
		URI:         URI,
		Description: "a2a-conform directive: a data part that scripts the task (delays, outcome, artifact chunks, message reply)",
		Params:      a2a.Struct{"versions": versions},
	}
}

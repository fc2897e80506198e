package suites

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// Script is a behaviour a spec needs from the agent.
type Script struct {
	// Outcome is how the task should end (directive outcomes).
	Outcome directive.Outcome
	// Delay is how long each step should take; a prompt-map agent decides for
	// itself, and specs measure what it does.
	Delay time.Duration
	// Chunks is how many artifact chunks to stream (0: the directive default).
	Chunks int
	// Text is carried through to the artifact or reply.
	Text string
}

// Prompt-map keys: for each behaviour the specs need, the config gives the text
// that makes an agent without the directive extension do it.
const (
	PromptComplete      = "complete"       // a task that completes promptly
	PromptSlow          = "slow"           // a task that stays working for a while, then completes
	PromptInputRequired = "input-required" // a task that asks for input, then completes on the next message
	PromptFail          = "fail"           // a task that fails
	PromptReject        = "reject"         // a task the agent rejects
	PromptMessage       = "message"        // a plain Message reply, no task
	PromptArtifacts     = "artifacts"      // a task that streams several artifact chunks
)

// PromptKeys lists the keys a prompt map may have.
var PromptKeys = []string{PromptComplete, PromptSlow, PromptInputRequired, PromptFail, PromptReject, PromptMessage, PromptArtifacts}

// DirectiveBehaviour scripts the agent through the directive extension.
type DirectiveBehaviour struct{}

func (DirectiveBehaviour) Kind() string { return "directive" }

// Extensions are the A2A-Extensions values to send with scripted messages.
func (DirectiveBehaviour) Extensions() []string { return []string{directive.URI} }

// Message builds a user message carrying the directive for s.
func (DirectiveBehaviour) Message(s Script) (a2a.Message, error) {
	d := directive.Directive{Version: directive.Version, Outcome: s.Outcome, DelayMs: s.Delay.Milliseconds(), Text: s.Text}
	if s.Chunks > 0 {
		n := s.Chunks
		d.ArtifactChunks = &n
	}
	p, err := d.Part()
	if err != nil {
		return a2a.Message{}, err
	}
	text := s.Text
	if text == "" {
		text = "a2a-conform scripted task"
	}
	return a2a.Message{
		MessageID: NewID("msg"), Role: a2a.RoleUser,
		Parts:      []a2a.Part{a2a.TextPart(text), p},
		Extensions: []string{directive.URI},
	}, nil
}

// PromptMapBehaviour scripts the agent with configured prompts.
type PromptMapBehaviour struct {
	Prompts map[string]string
}

func (PromptMapBehaviour) Kind() string         { return "prompt-map" }
func (PromptMapBehaviour) Extensions() []string { return nil }

// Message picks the prompt for the script's outcome; the error names the
// missing key so could-not-run can say what to configure.
func (b PromptMapBehaviour) Message(s Script) (a2a.Message, error) {
	key := promptKey(s)
	text, ok := b.Prompts[key]
	if !ok || strings.TrimSpace(text) == "" {
		have := make([]string, 0, len(b.Prompts))
		for k := range b.Prompts {
			have = append(have, k)
		}
		sort.Strings(have)
		return a2a.Message{}, fmt.Errorf("the prompt map has no %q entry (it has: %s)", key, strings.Join(have, ", "))
	}
	return a2a.Message{MessageID: NewID("msg"), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)}}, nil
}

func promptKey(s Script) string {
	switch s.Outcome {
	case directive.OutcomeFailed:
		return PromptFail
	case directive.OutcomeRejected:
		return PromptReject
	case directive.OutcomeInputRequired:
		return PromptInputRequired
	case directive.OutcomeMessage:
		return PromptMessage
	}
	if s.Chunks > 1 {
		return PromptArtifacts
	}
	if s.Delay > 0 {
		return PromptSlow
	}
	return PromptComplete
}

// NewID returns a random identifier with a readable prefix, for message ids.
func NewID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}

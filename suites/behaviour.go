package suites

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
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
	// Least is the weakest prompt-map key that still serves the spec's
	// check, along Fallback (artifacts → slow → complete). With a prompt map
	// that lacks the script's own key, the next key along the order that the
	// map has is used, down to Least; "" allows no fallback. A spec that
	// falls back checks only what the weaker behaviour can show.
	Least string
}

// Fallback is the documented order in which a spec that needs a task that
// stays working settles for less: several artifact chunks, else a task that
// works for a while, else one that completes.
var Fallback = []string{PromptArtifacts, PromptSlow, PromptComplete}

// Keys lists the prompt-map keys that can serve s, best first: its own key,
// then the weaker keys along Fallback down to s.Least.
func (s Script) Keys() []string {
	own := promptKey(s)
	keys := []string{own}
	if s.Least == "" || s.Least == own {
		return keys
	}
	i := slices.Index(Fallback, own)
	j := slices.Index(Fallback, s.Least)
	if i < 0 || j <= i {
		return keys
	}
	return append(keys, Fallback[i+1:j+1]...)
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
	PromptAuthRequired  = "auth-required"  // a task that asks for authorization, then goes on after the next message
)

// PromptKeys lists the keys a prompt map may have.
var PromptKeys = []string{PromptComplete, PromptSlow, PromptInputRequired, PromptFail, PromptReject, PromptMessage, PromptArtifacts, PromptAuthRequired}

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

// Message picks the prompt for the script: its own key, else the first
// weaker key the map has (Script.Keys). The error names the key that would
// serve best, so could-not-run can say what to configure.
func (b PromptMapBehaviour) Message(s Script) (a2a.Message, error) {
	key, err := b.Key(s)
	if err != nil {
		return a2a.Message{}, err
	}
	return a2a.Message{MessageID: NewID("msg"), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(b.Prompts[key])}}, nil
}

// Key is the prompt-map key Message uses for s.
func (b PromptMapBehaviour) Key(s Script) (string, error) {
	keys := s.Keys()
	for _, k := range keys {
		if strings.TrimSpace(b.Prompts[k]) != "" {
			return k, nil
		}
	}
	have := make([]string, 0, len(b.Prompts))
	for k := range b.Prompts {
		have = append(have, k)
	}
	sort.Strings(have)
	want := fmt.Sprintf("%q", keys[0])
	if len(keys) > 1 {
		want = fmt.Sprintf("%q (or, for this spec, %s)", keys[0], quoteAll(keys[1:]))
	}
	return "", fmt.Errorf("the prompt map has no %s entry (it has: %s)", want, strings.Join(have, ", "))
}

func quoteAll(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(q, " or ")
}

// KeyOf names what will produce s under behaviour b: the prompt-map key, or
// "directive" (the directive extension scripts every behaviour exactly).
func KeyOf(b Behaviour, s Script) string {
	if b == nil {
		return ""
	}
	if pm, ok := b.(PromptMapBehaviour); ok {
		if k, err := pm.Key(s); err == nil {
			return k
		}
		return ""
	}
	return b.Kind()
}

func promptKey(s Script) string {
	switch s.Outcome {
	case directive.OutcomeFailed:
		return PromptFail
	case directive.OutcomeRejected:
		return PromptReject
	case directive.OutcomeInputRequired:
		return PromptInputRequired
	case directive.OutcomeAuthRequired:
		return PromptAuthRequired
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

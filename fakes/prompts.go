package fakes

import (
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// DefaultPrompts is the prompt map of the reference agent: fixed phrases that
// trigger the behaviours the harness's specs need, for running the harness's
// prompt-map path against it with the directive extension switched off
// (Options{DisableDirective: true, PromptMap: true}). A harness config for
// this agent lists the same phrases. See docs/directive-extension.md.
func DefaultPrompts() map[string]directive.Directive {
	one := func(n int) *int { return &n }
	return map[string]directive.Directive{
		"work slowly then complete": {Version: 1, Outcome: directive.OutcomeCompleted, DelayMs: 500},
		"ask me for input":          {Version: 1, Outcome: directive.OutcomeInputRequired},
		"require authorization":     {Version: 1, Outcome: directive.OutcomeAuthRequired},
		"fail this task":            {Version: 1, Outcome: directive.OutcomeFailed},
		"reject this task":          {Version: 1, Outcome: directive.OutcomeRejected},
		"reply with a message":      {Version: 1, Outcome: directive.OutcomeMessage},
		"stream three chunks":       {Version: 1, Outcome: directive.OutcomeCompleted, DelayMs: 100, ArtifactChunks: one(3)},
	}
}

type prompt struct {
	phrase string
	d      directive.Directive
}

// compilePrompts orders phrases longest first, so that a phrase containing
// another wins over it.
func compilePrompts(m map[string]directive.Directive) []prompt {
	if m == nil {
		m = DefaultPrompts()
	}
	out := make([]prompt, 0, len(m))
	for phrase, d := range m {
		if p := strings.ToLower(strings.TrimSpace(phrase)); p != "" {
			out = append(out, prompt{phrase: p, d: d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].phrase) != len(out[j].phrase) {
			return len(out[i].phrase) > len(out[j].phrase)
		}
		return out[i].phrase < out[j].phrase
	})
	return out
}

// matchPrompt finds the first phrase contained in the text, ignoring case.
func matchPrompt(ps []prompt, text string) (directive.Directive, bool) {
	t := strings.ToLower(text)
	for _, p := range ps {
		if strings.Contains(t, p.phrase) {
			return p.d, true
		}
	}
	return directive.Directive{}, false
}

package suites

import (
	"context"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// A spec that scripts a behaviour judges the agent's answer to it only if the
// agent showed that behaviour (STYLE.md, "Ask for the least … Check that the
// agent actually showed it"). An agent driven by a prompt map, or an LLM
// agent answering a plain message, may do something else that is still
// correct A2A: complete when asked to fail, ask a clarifying question
// (INPUT_REQUIRED, an interrupted state at which a turn legitimately ends,
// spec §3.2.2 and §4.1.3, A2A v1.0 §4.1) when asked to complete, finish a "slow" task before the first
// look. Then the spec learned nothing about its requirement: indeterminate,
// never fail, with the key that was used and what the agent did instead.

// Settles is the state a task scripted by s comes to rest in (terminal, or
// interrupted for a script that asks for input).
func (s Script) Settles() a2a.TaskState {
	switch s.Outcome {
	case directive.OutcomeFailed:
		return a2a.TaskStateFailed
	case directive.OutcomeRejected:
		return a2a.TaskStateRejected
	case directive.OutcomeInputRequired:
		return a2a.TaskStateInputRequired
	case directive.OutcomeAuthRequired:
		return a2a.TaskStateAuthRequired
	}
	return a2a.TaskStateCompleted
}

// servedBy names what produced a message for s: the prompt-map key or the
// directive, or "a plain message" when the run has no scripted behaviour.
func (t *T) servedBy(s Script) string {
	if t.Env.Behaviour == nil {
		return "a plain message (no scripted behaviour)"
	}
	if k := KeyOf(t.Env.Behaviour, s); k != "" && k != t.Env.Behaviour.Kind() {
		return fmt.Sprintf("prompt-map key %q", k)
	}
	return t.Env.Behaviour.Kind()
}

// Showed ends the spec indeterminate when a task scripted by s came to rest
// in another state than s asked for; judge says what could then not be
// judged. With a prompt map that fell back to a weaker key (Script.Least),
// the weaker key's own state is what is asked. Violations recorded before
// (T.Record) are reported first.
func (t *T) Showed(s Script, task *a2a.Task, judge string) {
	GinkgoHelper()
	if task == nil {
		return
	}
	want := s.Settles()
	if t.Env.Behaviour != nil {
		if k := KeyOf(t.Env.Behaviour, s); k != promptKey(s) && k != "" && k != t.Env.Behaviour.Kind() {
			want = Script{Outcome: outcomeOfKey(k)}.Settles()
		}
	}
	got := task.Status.State
	if got == want {
		return
	}
	if t.Env.Behaviour == nil && want == a2a.TaskStateCompleted && got.Interrupted() {
		t.AskedForInput(task, judge)
	}
	t.Indeterminate("the agent did not show the behaviour asked of it: %s asked for a task that ends %s, and task %s came to rest %s; %s",
		t.servedBy(s), want, task.ID, got, judge)
}

// ShowedRunning ends the spec indeterminate when the first look at a task
// scripted to stay working for a while (s has a delay or several chunks)
// found it already at rest: the agent did not show a task that runs, so
// nothing that needs one can be judged.
func (t *T) ShowedRunning(s Script, first *a2a.Task, judge string) {
	GinkgoHelper()
	if first == nil {
		return
	}
	if st := first.Status.State; st.Terminal() || st.Interrupted() {
		t.TooFast("the agent did not show the behaviour asked of it: %s asked for a task that stays working for a while, and task %s was already %s at the first look; %s",
			t.servedBy(s), first.ID, st, judge)
	}
}

// AskedForInput ends the spec indeterminate when a task made from a plain,
// unscripted message came to rest interrupted: the agent asked for input (an
// LLM agent's clarifying question is a correct answer), so what needed a
// finished task (judge) cannot be judged. A task not interrupted is left to
// the caller.
func (t *T) AskedForInput(task *a2a.Task, judge string) {
	GinkgoHelper()
	if task == nil || !task.Status.State.Interrupted() {
		return
	}
	t.Indeterminate("the agent asked for input: task %s came to rest %s (an interrupted state, a legitimate end of a turn, §3.2.2), not finished; %s. A prompt map with a %q key, or the directive extension, gives the spec a task that finishes",
		task.ID, task.Status.State, judge, PromptComplete)
}

func outcomeOfKey(k string) directive.Outcome {
	switch k {
	case PromptFail:
		return directive.OutcomeFailed
	case PromptReject:
		return directive.OutcomeRejected
	case PromptInputRequired:
		return directive.OutcomeInputRequired
	case PromptAuthRequired:
		return directive.OutcomeAuthRequired
	case PromptMessage:
		return directive.OutcomeMessage
	}
	return directive.OutcomeCompleted
}

// StartRunning starts a task scripted to stay working for a while (s has a
// delay) with start, and returns it as the first look saw it, with the
// script it used. The first look is look's (nil: a GetTask right after the
// answer), taken when the answer was not already at rest. When the harness
// sets the task's length (the directive) and the first look found the task
// at rest, the agent (or a loaded machine) took longer to answer than the
// task's steps: it tries again with steps four times longer, up to the
// same bound as TooFast's retries of the whole spec (maxStretch, counted
// with the attempt's own stretch, so that the two never multiply), since
// the spec needs a running task, not a particular length, and observes that
// it did (lengthened-BINDING). A prompt map's task takes the
// time it takes, so it gets one try; the caller judges what it got
// (ShowedRunning).
func (t *T) StartRunning(ctx context.Context, c *client.Client, s Script, start func(Script) *a2a.Task, look func(*a2a.Task) *a2a.Task) (*a2a.Task, Script) {
	if look == nil {
		look = func(task *a2a.Task) *a2a.Task {
			if got, err := t.Get(ctx, c, task.ID); err == nil {
				return got
			}
			return task
		}
	}
	var tries []string
	for k := 1; ; k *= 4 {
		task := start(s)
		rest := func() bool { return task.Status.State.Terminal() || task.Status.State.Interrupted() }
		if !rest() {
			task = look(task)
		}
		directed := t.Env.Behaviour != nil && t.Env.Behaviour.Kind() == "directive"
		if !rest() || !directed || s.Delay <= 0 || !t.mayLengthen(k) || ctx.Err() != nil {
			if len(tries) > 0 {
				t.Observe("lengthened-"+c.Binding(), strings.Join(tries, "; ")+fmt.Sprintf("; then %s steps", t.Stretched(s).Delay))
			}
			return task, s
		}
		tries = append(tries, fmt.Sprintf("task %s was already %s at the first look with %s steps", task.ID, task.Status.State, t.Stretched(s).Delay))
		s.Delay *= 4
	}
}

package invariants

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// Source is the channel an observation came through.
type Source string

const (
	FromSend   Source = "SendMessage"
	FromGet    Source = "GetTask"
	FromList   Source = "ListTasks"
	FromCancel Source = "CancelTask"
	FromStream Source = "stream"
	FromPush   Source = "push"
)

// Observation is one sighting of a task's state. Request/response sources
// carry the time the request was issued and the time the answer arrived; an
// event (stream or push) has Issued == Received.
type Observation struct {
	TaskID   string
	State    a2a.TaskState
	Source   Source
	Issued   time.Duration // since the history's start
	Received time.Duration
	// Channel identifies an ordered channel: "" for the request/response
	// channel, a stream's name ("stream 2") for its events, "push" for pushes.
	Channel string
	// Ref says where to find it in the transcript, e.g. "GetTask #4", "event 3".
	Ref      string
	Instance string
	// Snapshot says the observation carried the whole Task (a request's
	// answer, a stream's Task event); Artifacts then holds its artifacts.
	Snapshot  bool
	Artifacts Artifacts
	// Stamp is the task's status timestamp as the agent sent it (a
	// snapshot or a status event; "" when none): the agent's own clock,
	// untrusted, told beside the harness's (LateChange).
	Stamp string
}

// Artifacts summarises a task's artifacts: how many parts each artifact id
// holds. It is what terminal immutability compares, since a terminal task
// gains no artifact and no part.
type Artifacts map[string]int

// ArtifactsOf summarises a task's artifacts.
func ArtifactsOf(list []a2a.Artifact) Artifacts {
	out := Artifacts{}
	for _, a := range list {
		out[a.ArtifactID] += len(a.Parts)
	}
	return out
}

// Beyond describes what a holds that base does not (new artifact ids, or
// more parts under an id), "" when nothing.
func (a Artifacts) Beyond(base Artifacts) string {
	var out []string
	for id, n := range a {
		m, ok := base[id]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("new artifact %s (%d part(s))", id, n))
		case n > m:
			out = append(out, fmt.Sprintf("artifact %s grew from %d to %d part(s)", id, m, n))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// Merge returns a copy of a with, per id, the larger part count of a and b.
func (a Artifacts) Merge(b Artifacts) Artifacts {
	out := Artifacts{}
	for id, n := range a {
		out[id] = n
	}
	for id, n := range b {
		if n > out[id] {
			out[id] = n
		}
	}
	return out
}

func (o Observation) where() string {
	s := fmt.Sprintf("task %s, %s at %s", o.TaskID, o.Ref, o.Received.Round(time.Millisecond))
	if o.Instance != "" {
		s += " (instance " + o.Instance + ")"
	}
	return s
}

// History collects observations from every source of a spec, concurrently.
type History struct {
	mu    sync.Mutex
	start time.Time
	obs   []Observation
}

// NewHistory starts a history; times are measured from now (monotonic).
func NewHistory() *History { return &History{start: time.Now()} }

// Now is the time since the history started, for Issued/Received stamps.
func (h *History) Now() time.Duration { return time.Since(h.start) }

// Add records an observation.
func (h *History) Add(o Observation) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.obs = append(h.obs, o)
}

// Observations returns a copy, ordered by arrival.
func (h *History) Observations() []Observation {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := append([]Observation(nil), h.obs...)
	sort.SliceStable(out, func(a, b int) bool { return out[a].Received < out[b].Received })
	return out
}

// ForTask returns the observations of one task, ordered by arrival.
func ForTask(obs []Observation, taskID string) []Observation {
	var out []Observation
	for _, o := range obs {
		if o.TaskID == taskID {
			out = append(out, o)
		}
	}
	return out
}

// TerminalImmutable checks that once a task was seen terminal it never shows
// another state (spec §4.1.3, life-of-a-task "Task Immutability"):
//   - across every source, a task has at most one terminal state;
//   - on the request/response channel, a request issued after a terminal answer
//     arrived sees that same terminal state;
//   - on one stream, no event after the terminal one reports another state
//     (a repeated final Task snapshot in the same state is allowed, §11.7);
//   - a terminal task gains nothing: on the request/response channel, a
//     snapshot asked for after the first terminal snapshot arrived holds no
//     artifact id and no part that the task did not hold then.
//
// Pushes carry no ordering guarantee (the spec leaves it open), so a push of an
// earlier non-terminal state arriving late is not counted against the agent;
// a push of a different terminal state is.
func TerminalImmutable(obs []Observation) []Violation {
	var vs []Violation
	byTask := map[string][]Observation{}
	var order []string
	for _, o := range obs {
		if _, ok := byTask[o.TaskID]; !ok {
			order = append(order, o.TaskID)
		}
		byTask[o.TaskID] = append(byTask[o.TaskID], o)
	}
	for _, id := range order {
		list := byTask[id]
		sort.SliceStable(list, func(a, b int) bool { return list[a].Received < list[b].Received })
		// Rule 1: one terminal state only. Each offending state is reported
		// once (at its first sighting) with how often it was seen.
		var first *Observation
		seen := map[a2a.TaskState]int{}
		at := map[a2a.TaskState]int{}
		for i := range list {
			o := list[i]
			if !o.State.Terminal() {
				continue
			}
			if first == nil {
				first = &list[i]
				continue
			}
			if o.State != first.State {
				if seen[o.State] == 0 {
					at[o.State] = len(vs)
					vs = append(vs, Violation{
						Invariant: "terminal-immutable",
						Where:     o.where(),
						Expected:  fmt.Sprintf("%s for ever (first seen terminal via %s)", first.State, first.Ref),
						Actual:    fmt.Sprintf("%s via %s", o.State, o.Source),
					})
				}
				seen[o.State]++
			}
		}
		for state, n := range seen {
			if n > 1 {
				vs[at[state]].Actual += fmt.Sprintf(" (and %d more sightings)", n-1)
			}
		}
		// Rule 2 and 3: per ordered channel, nothing different after terminal.
		byChannel := map[string][]Observation{}
		for _, o := range list {
			if o.Source == FromPush {
				continue
			}
			byChannel[o.Channel] = append(byChannel[o.Channel], o)
		}
		vs = append(vs, artifactsAfterTerminal(byChannel[""])...)
		for ch, seq := range byChannel {
			var term *Observation
			for i := range seq {
				o := seq[i]
				if term == nil {
					if o.State.Terminal() {
						term = &seq[i]
					}
					continue
				}
				after := o.Issued > term.Received // request channel: issued after the terminal answer
				if ch != "" {
					after = true // one stream is ordered by itself
				}
				if after && o.State != term.State && !o.State.Terminal() {
					// One violation per channel: the first regression says it all.
					vs = append(vs, Violation{
						Invariant: "terminal-immutable",
						Where:     o.where(),
						Expected:  fmt.Sprintf("%s (terminal since %s)", term.State, term.Ref),
						Actual:    fmt.Sprintf("%s via %s", o.State, o.Source),
					})
					break
				}
			}
		}
	}
	return vs
}

// artifactsAfterTerminal is TerminalImmutable's fourth rule, over the
// request/response channel of one task. What the task held when terminal is
// every artifact seen in a snapshot up to and including the first terminal
// one: a Task answer that lists fewer artifacts than an earlier one (a slim
// CancelTask answer) does not make the earlier ones look new.
func artifactsAfterTerminal(seq []Observation) []Violation {
	held := Artifacts{}
	var term *Observation
	for i := range seq {
		o := seq[i]
		if !o.Snapshot {
			continue
		}
		if term == nil {
			held = held.Merge(o.Artifacts)
			if o.State.Terminal() {
				term = &seq[i]
			}
			continue
		}
		if o.Issued <= term.Received {
			continue // asked before the terminal answer arrived: not ordered
		}
		if more := o.Artifacts.Beyond(held); more != "" {
			return []Violation{{
				Invariant: "terminal-immutable",
				Where:     o.where(),
				Expected:  fmt.Sprintf("the artifacts the task held when %s (terminal since %s): a terminal task gains nothing", term.State, term.Ref),
				Actual:    fmt.Sprintf("%s via %s", more, o.Source),
			}}
		}
	}
	return nil
}

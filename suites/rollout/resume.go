package rollout

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// ROLL-010 (§3.1.3, §3.2.2, §3.4.3, scenario 3): a task continued through
// different instances keeps what every turn added, and once it ended it
// stays ended on every instance. The replicated-deployment bug it catches is
// a2a-python #1188: an instance that worked a turn of a task keeps the task
// as it left it, and when a later follow-up reaches it, resumes from that
// stale copy and saves it over the newer state another instance wrote.
//
// The task asks for input (the least that keeps it open across turns): its
// first turn goes through instance A, its second through B, its third
// through A again, each asking for input again with an artifact when the
// directive scripts it. After the third turn every instance must still show
// every artifact the task held after the second; a message of the client's
// that the history showed and then lost is reported, never judged (history
// is the agent's to keep). The task is then canceled through B, and a
// follow-up through A, the instance that last left it waiting, must not
// bring it back: every instance must show it canceled, for as long as a
// turn took plus the settle window.
var _ = suites.Spec("ROLL-010", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 2)
	var slots []int
	for k, name := range inst.InstanceNames() {
		if name != "" {
			slots = append(slots, k)
		}
	}
	r := &turns{t: t, shown: map[string]int{}}
	for _, k := range slots {
		r.clients = append(r.clients, via(t, inst, k))
	}
	a, b := r.clients[0], r.clients[1]
	r.slots = slots
	// Each turn asks for input again; under the directive it also adds an
	// artifact of its own, which a stale copy would lose.
	ask := suites.Script{Outcome: directive.OutcomeInputRequired, Chunks: 1}

	first, err := r.turn(ctx, a, "", ask)
	if err != nil {
		t.NoTask(a, ask, nil, err)
	}
	t.Showed(ask, first, "there is no waiting task to continue through another instance")
	id := first.ID

	second, err := r.turn(ctx, b, id, ask)
	if err != nil {
		r.refused(ctx, 1, id, err)
		return
	}
	held := r.heldNow(ctx, id)
	r.observe("after-turn-2", second, held)
	third := second
	if second.Status.State.Terminal() {
		t.Unchecked("every artifact kept across a turn through another instance", fmt.Sprintf(
			"the task ended at its second turn (%s): no third turn, through instance %d, could be asked of it", second.Status.State, slots[0]))
	} else {
		third, err = r.turn(ctx, a, id, ask)
		if err != nil {
			r.refused(ctx, 0, id, err)
			return
		}
		r.keptAcross(ctx, id, held)
	}

	ended := third.Status.State
	if !ended.Terminal() {
		// One rule reads the answer (suites.CancelAnswerOf); an
		// asynchronous cancel is followed until the task settles, in
		// whichever terminal state it ends.
		got := t.CancelAndSettle(ctx, b, id)
		if !got.Settled.Terminal() {
			t.Unchecked("a task ended through one instance stays ended on the other", fmt.Sprintf(
				"the cancel of task %s (%s) through instance %d did not end it (%s), which the text allows", id, ended, slots[1], describe(got.Task, got.Err)))
			return
		}
		ended = got.Settled
	}
	r.staysEnded(ctx, id, ended, ask)
	t.Record(invariants.TerminalImmutable(invariants.ForTask(t.History().Observations(), id))...)
})

// turns is one ROLL-010 run: the instances' clients, the longest turn, and
// the client's own messages the task's history showed.
type turns struct {
	t       *suites.T
	clients []*client.Client
	slots   []int
	took    time.Duration
	// shown maps each of the client's message ids the history showed to
	// the turn that sent it.
	shown map[string]int
	sent  []string
}

// turn sends one turn through c (a new task when id is ""), blocking as
// by default, and returns the task once it is at rest (terminal or
// interrupted). An error is returned for the caller to read.
func (r *turns) turn(ctx context.Context, c *client.Client, id string, s suites.Script) (*a2a.Task, error) {
	t := r.t
	msg := t.Scripted(s)
	msg.TaskID = id
	began := time.Now()
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
	if err != nil {
		return nil, err
	}
	r.sent = append(r.sent, msg.MessageID)
	if resp.Task == nil {
		t.Indeterminate("the agent did not show the behaviour asked of it: turn %d (%s) was answered with a Message, not the task", len(r.sent), suites.KeyOf(t.Env.Behaviour, s))
	}
	task := resp.Task
	if st := task.Status.State; !st.Terminal() && !st.Interrupted() {
		task = t.WaitFor(ctx, c, task.ID, "the end of turn "+fmt.Sprint(len(r.sent)), suites.TerminalOrInterrupted)
	}
	r.took = max(r.took, time.Since(began))
	r.remember(task)
	what := "a follow-up"
	if id == "" {
		what = "a new task"
	}
	t.Observe(fmt.Sprintf("turn-%d", len(r.sent)), fmt.Sprintf("%s through instance %d: %s after %s", what, r.slotOf(c), task.Status.State, since(began)))
	return task, nil
}

func (r *turns) slotOf(c *client.Client) int {
	for i, x := range r.clients {
		if x == c {
			return r.slots[i]
		}
	}
	return -1
}

// remember notes which of the client's messages the task's history shows.
func (r *turns) remember(task *a2a.Task) {
	for _, m := range task.History {
		for i, id := range r.sent {
			if m.MessageID == id {
				r.shown[id] = i + 1
			}
		}
	}
}

// refused ends the spec when a follow-up through instance slots[k] was
// refused: an instance that does not know a task another holds loses it
// for every client its balancer sends there (a finding, and nothing of
// the spec can be judged); another refusal leaves the spec indeterminate
// (LIFE-009 judges follow-ups).
func (r *turns) refused(ctx context.Context, k int, id string, err error) {
	t := r.t
	if isKind(err, a2a.ErrTaskNotFound) {
		t.Finding("instance %d answered TaskNotFoundError to a follow-up of task %s, which instance %d created: "+
			"a deployment whose instances do not share their tasks loses them for every client its balancer sends elsewhere", r.slots[k], id, r.slots[0])
		t.CouldNotRunAsSaid("the follow-up of task %s through instance %d got TaskNotFoundError: this deployment's instances do not share the task, "+
			"so no turn could continue it through another instance (the finding says so)", id, r.slots[k])
	}
	t.Indeterminate("the follow-up of task %s through instance %d was refused (%s), so the task could not be continued through another instance (LIFE-009 judges follow-ups)",
		id, r.slots[k], suites.ErrText(err))
}

// heldNow reads the task through every instance and returns every
// artifact the task was shown holding so far, each of its snapshots merged.
func (r *turns) heldNow(ctx context.Context, id string) invariants.Artifacts {
	for _, c := range r.clients {
		if got, err := r.t.Get(ctx, c, id); err == nil {
			r.remember(got)
		}
	}
	held := invariants.Artifacts{}
	for _, o := range invariants.ForTask(r.t.History().Observations(), id) {
		if o.Snapshot {
			held = held.Merge(o.Artifacts)
		}
	}
	return held
}

func (r *turns) observe(key string, task *a2a.Task, held invariants.Artifacts) {
	r.t.Observe(key, fmt.Sprintf("%s with %d artifact(s) and %d history message(s)", task.Status.State, len(held), len(task.History)))
}

// keptAcross checks, after the third turn, that every instance shows every
// artifact the task held after the second (ids, and no fewer parts), and
// reports a message of the client's that the history showed and then lost.
func (r *turns) keptAcross(ctx context.Context, id string, held invariants.Artifacts) {
	t := r.t
	if len(held) == 0 {
		t.Observe("artifacts", "the task held no artifact after its second turn: only its history could show a turn written back from an older copy, and history is reported, not judged")
	}
	for i, c := range r.clients {
		got, err := t.Get(ctx, c, id)
		if err != nil {
			continue
		}
		where := fmt.Sprintf("GetTask %s through instance %d after the third turn (through instance %d)", id, r.slots[i], r.slots[0])
		if lost := lostFrom(held, invariants.ArtifactsOf(got.Artifacts)); lost != "" {
			t.Record(invariants.Violation{Invariant: "task-kept-across-instances", Where: where,
				Expected: "every artifact the task held after its second turn (through instance " + fmt.Sprint(r.slots[1]) + "): an answer holds all of a task's artifacts",
				Actual:   lost + ": the turn was written over newer state"})
		}
		var dropped []string
		have := map[string]bool{}
		for _, m := range got.History {
			have[m.MessageID] = true
		}
		for mid, turn := range r.shown {
			if !have[mid] && turn <= 2 {
				dropped = append(dropped, fmt.Sprintf("%s (turn %d)", mid, turn))
			}
		}
		if len(dropped) > 0 {
			sort.Strings(dropped)
			t.Finding("%s: the history no longer holds %s, which it showed before: a turn may have been written back from an older copy "+
				"(history is the agent's to keep, A2A v1.0.1 §3.7, so this is reported, not judged)", where, strings.Join(dropped, ", "))
		}
	}
}

// lostFrom describes what held has that got lacks: an artifact id gone, or
// fewer parts under one; "" when nothing.
func lostFrom(held, got invariants.Artifacts) string {
	var out []string
	for id, n := range held {
		m, ok := got[id]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("artifact %s (%d part(s)) gone", id, n))
		case m < n:
			out = append(out, fmt.Sprintf("artifact %s shrank from %d to %d part(s)", id, n, m))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// staysEnded sends a follow-up through the first instance, the one that
// last left the task waiting, to the task ended through the other, and
// watches every instance for as long as the longest turn took plus the
// settle window: the task must stay in its terminal state. A refusal of the
// message is the answer the text names (LIFE-008 judges which error).
func (r *turns) staysEnded(ctx context.Context, id string, ended a2a.TaskState, s suites.Script) {
	t := r.t
	a := r.clients[0]
	msg := t.Scripted(s)
	msg.TaskID = id
	sent := time.Now()
	resp, err := t.Send(ctx, a, &a2a.SendMessageRequest{Message: &msg, Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
	answer := "refused: " + suites.ErrText(err)
	if err == nil {
		answer = "accepted"
		if resp.Task != nil {
			answer += ", the task answered in " + string(resp.Task.Status.State)
			if resp.Task.Status.State != ended {
				t.Record(invariants.Violation{Invariant: "task-kept-across-instances",
					Where:    fmt.Sprintf("SendMessage to task %s through instance %d, after it ended %s through instance %d", id, r.slots[0], ended, r.slots[1]),
					Expected: string(ended) + ": a task in a terminal state cannot restart", Actual: answer})
			}
		}
	}
	until := sent.Add(r.took + t.Settle())
	bad := map[int]bool{}
	for {
		for i, c := range r.clients {
			got, err := t.Get(ctx, c, id)
			if err != nil || got.Status.State == ended || bad[i] {
				continue
			}
			bad[i] = true
			t.Record(invariants.Violation{Invariant: "task-kept-across-instances",
				Where:    fmt.Sprintf("GetTask %s through instance %d, %s after a follow-up through instance %d", id, r.slots[i], since(sent), r.slots[0]),
				Expected: fmt.Sprintf("%s, as it ended through instance %d: a task in a terminal state cannot restart", ended, r.slots[1]),
				Actual:   string(got.Status.State)})
		}
		if time.Now().After(until) || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(2 * suites.Poll):
		}
	}
	t.Observe("after-end", fmt.Sprintf("the follow-up through instance %d was %s; every instance watched for %s (the longest turn took %s)",
		r.slots[0], answer, since(sent), r.took.Round(time.Millisecond)))
}

package lifecycle

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// conversation is a task with a known history: the first user message, the
// agent's input-required status message (when it sent one), the second user
// message, then completion with an artifact.
type conversation struct {
	// task is the task as the last SendMessage answered it.
	task *a2a.Task
	// sent are the user messages in the order sent; prompt is the agent's
	// input-required status message, nil when it sent none.
	sent   []a2a.Message
	prompt *a2a.Message
}

var (
	inputScript  = suites.Script{Outcome: directive.OutcomeInputRequired}
	answerScript = suites.Script{Outcome: directive.OutcomeCompleted, Chunks: 1, Text: "a2a-conform history answer", Least: suites.PromptComplete}
)

// converse runs a two-turn task: a message that makes the agent ask for
// input, and a follow-up with the task's ids that completes it.
func converse(ctx context.Context, t *suites.T, c *client.Client) conversation {
	first := t.Scripted(inputScript)
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &first})
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "send", Where: "SendMessage (" + c.Binding() + ")",
			Expected: "a task for the input-required script", Actual: suites.ErrText(err)})
	}
	if resp.Task == nil {
		t.CouldNotRun("the agent answered the input-required script with a Message; the spec needs a task with a two-turn history.")
	}
	task := resp.Task
	if !atRest(task) {
		task = t.WaitFor(ctx, c, task.ID, "input-required", suites.TerminalOrInterrupted)
	}
	t.Showed(inputScript, task, "so no second turn could be added to it")
	prompt := task.Status.Message
	second := t.Scripted(answerScript)
	second.TaskID, second.ContextID = task.ID, task.ContextID
	resp, err = t.Send(ctx, c, &a2a.SendMessageRequest{Message: &second})
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "send", Where: "SendMessage to input-required task " + task.ID + " (" + c.Binding() + ")",
			Expected: "the task, resumed by the follow-up (§3.4)", Actual: suites.ErrText(err)})
	}
	if resp.Task == nil {
		t.CouldNotRun("the agent answered the follow-up to input-required task %s with a Message, not the task.", task.ID)
	}
	// The second turn may end the task or ask again: either way the
	// history holds both turns.
	done := resp.Task
	if !atRest(done) {
		done = t.WaitFor(ctx, c, task.ID, "terminal or interrupted", suites.TerminalOrInterrupted)
	}
	return conversation{task: done, sent: []a2a.Message{first, second}, prompt: prompt}
}

// known is the conversation's messages in the order they happened.
func (cv conversation) known() []a2a.Message {
	if len(cv.sent) < 2 {
		return cv.sent
	}
	out := []a2a.Message{cv.sent[0]}
	if cv.prompt != nil && cv.prompt.MessageID != "" {
		out = append(out, *cv.prompt)
	}
	return append(out, cv.sent[1:]...)
}

func indexOf(h []a2a.Message, id string) int {
	for i, m := range h {
		if m.MessageID == id {
			return i
		}
	}
	return -1
}

// newestFirst reports whether a history lists the conversation's first
// message after its last, i.e. runs newest first.
func newestFirst(h []a2a.Message, cv conversation) bool {
	if len(cv.sent) < 2 {
		return false
	}
	a, b := indexOf(h, cv.sent[0].MessageID), indexOf(h, cv.sent[len(cv.sent)-1].MessageID)
	return a >= 0 && b >= 0 && a > b
}

// mostRecent is the set of the n most recent messages of a full history,
// taking its order as it runs (LIFE-024 judges the order itself).
func mostRecent(h []a2a.Message, n int, reversed bool) (map[string]bool, []string) {
	if n > len(h) {
		n = len(h)
	}
	pick := h[len(h)-n:]
	if reversed {
		pick = h[:n]
	}
	set := map[string]bool{}
	var ids []string
	for _, m := range pick {
		set[m.MessageID] = true
		ids = append(ids, m.MessageID)
	}
	return set, ids
}

func messageIDs(h []a2a.Message) string {
	if len(h) == 0 {
		return "(none)"
	}
	ids := make([]string, len(h))
	for i, m := range h {
		ids[i] = m.MessageID
	}
	return strings.Join(ids, ", ")
}

// checkHistoryLength judges a history read with historyLength n against the
// full history (§3.2.4): at most n messages, all among the n most recent.
func checkHistoryLength(full, got []a2a.Message, n int, reversed bool, where string) []invariants.Violation {
	if len(got) > n {
		return []invariants.Violation{{Invariant: "history-length", Where: where,
			Expected: fmt.Sprintf("at most %d history messages (§3.2.4: the agent MUST NOT exceed historyLength)", n),
			Actual:   fmt.Sprintf("%d: %s", len(got), messageIDs(got))}}
	}
	set, ids := mostRecent(full, n, reversed)
	for _, m := range got {
		if !set[m.MessageID] {
			return []invariants.Violation{{Invariant: "history-length", Where: where,
				Expected: fmt.Sprintf("only the %d most recent messages (%s)", n, strings.Join(ids, ", ")),
				Actual:   fmt.Sprintf("%s, which is not among them", m.MessageID)}}
		}
	}
	return nil
}

// LIFE-023 (§3.1.3, §3.2.4): a two-turn task (input-required, then
// completed with an artifact) is read on every binding: GetTask gives its
// status and artifacts as the last answer had them, and historyLength 1 and
// 2 give at most that many messages, the most recent ones. The default
// history (no historyLength) is recorded: keeping history is a MAY.
var _ = suites.Spec("LIFE-023", func(ctx context.Context, t *suites.T) {
	c := t.Client()
	var cv conversation
	if canScript(t, inputScript) && canScript(t, answerScript) {
		cv = converse(ctx, t, c)
	} else {
		cv = conversation{task: createTaskIn(ctx, t, c, "", suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete})}
		t.Observe("history-task", fmt.Sprintf("a one-turn task: no %q prompt (or directive) for a second turn, so its history may hold one message", suites.PromptInputRequired))
	}
	id := cv.task.ID
	var vs []invariants.Violation
	// bounded counts the bindings whose full history was long enough for
	// historyLength 1 to leave something out: only those test the bound.
	bounded := 0
	for _, cl := range t.Clients() {
		b := cl.Binding()
		where := "GetTask " + id + " (" + b + ")"
		full, err := t.Get(ctx, cl, id)
		if err != nil {
			vs = append(vs, invariants.Violation{Invariant: "get-task", Where: where, Expected: "the task", Actual: suites.ErrText(err)})
			continue
		}
		if full.Status.State != cv.task.Status.State {
			vs = append(vs, invariants.Violation{Invariant: "get-task", Where: where,
				Expected: "the status the task ended in, " + string(cv.task.Status.State), Actual: string(full.Status.State)})
		}
		wantArtifacts := len(cv.task.Artifacts)
		if wantArtifacts == 0 && cv.sent != nil && directiveScripted(t) {
			wantArtifacts = 1
		}
		for _, a := range cv.task.Artifacts {
			found := false
			for _, g := range full.Artifacts {
				found = found || g.ArtifactID == a.ArtifactID
			}
			if !found {
				vs = append(vs, invariants.Violation{Invariant: "get-task", Where: where,
					Expected: "artifact " + a.ArtifactID + ", which the SendMessage answer carried (§3.1.3)",
					Actual:   fmt.Sprintf("%d artifacts without it", len(full.Artifacts))})
			}
		}
		if len(full.Artifacts) < wantArtifacts {
			vs = append(vs, invariants.Violation{Invariant: "get-task", Where: where,
				Expected: fmt.Sprintf("the completed task's artifacts (at least %d, §3.1.3)", wantArtifacts), Actual: fmt.Sprintf("%d", len(full.Artifacts))})
		}
		t.Observe("history-default-"+b, fmt.Sprintf("%d messages without historyLength", len(full.History)))
		if len(full.History) >= 2 {
			bounded++
		}
		reversed := newestFirst(full.History, cv)
		for _, n := range []int32{1, 2} {
			n := n
			w := fmt.Sprintf("GetTask %s historyLength=%d (%s)", id, n, b)
			got, err := cl.GetTask(ctx, &a2a.GetTaskRequest{ID: id, HistoryLength: &n})
			if err != nil {
				vs = append(vs, invariants.Violation{Invariant: "history-length", Where: w, Expected: "the task", Actual: suites.ErrText(err)})
				continue
			}
			vs = append(vs, checkHistoryLength(full.History, got.History, int(n), reversed, w)...)
		}
	}
	t.Violated(vs...)
	if bounded == 0 {
		t.CouldNotRun("task %s's history holds fewer than two messages on every binding (keeping history is the agent's choice), so whether historyLength bounds it cannot be judged; the spec needs a task with a longer history (a scripted input-required turn: the directive extension, or a prompt-map %q key).", id, suites.PromptInputRequired)
	}
})

// checkHistory judges a full history against the conversation (§3.2.4): the
// messages it kept run oldest first, and the user's carry the messageId,
// role and text they were sent with. Messages the agent did not keep are
// named in notes (keeping them is the agent's choice).
func checkHistory(h []a2a.Message, cv conversation, where string) (vs []invariants.Violation, notes []string) {
	last, lastID := -1, ""
	for _, m := range cv.known() {
		i := indexOf(h, m.MessageID)
		user := m.Role == a2a.RoleUser
		if i < 0 {
			if user {
				for _, g := range h {
					if g.Role == a2a.RoleUser && suites.TextOfParts(g.Parts) == suites.TextOfParts(m.Parts) {
						vs = append(vs, invariants.Violation{Invariant: "history-faithful", Where: where,
							Expected: "the user message with the messageId it was sent with, " + m.MessageID,
							Actual:   "its text under messageId " + g.MessageID})
						break
					}
				}
			}
			notes = append(notes, m.MessageID+" not kept")
			continue
		}
		g := h[i]
		if user && (g.Role != a2a.RoleUser || suites.TextOfParts(g.Parts) != suites.TextOfParts(m.Parts)) {
			vs = append(vs, invariants.Violation{Invariant: "history-faithful", Where: fmt.Sprintf("%s, history[%d]", where, i),
				Expected: fmt.Sprintf("message %s as sent: ROLE_USER, text %q", m.MessageID, suites.Cut(suites.TextOfParts(m.Parts), 80)),
				Actual:   fmt.Sprintf("%s, text %q", g.Role, suites.Cut(suites.TextOfParts(g.Parts), 80))})
		}
		if i < last {
			vs = append(vs, invariants.Violation{Invariant: "history-order", Where: where,
				Expected: fmt.Sprintf("oldest first (§3.2.4): %s (sent earlier) before %s", lastID, m.MessageID),
				Actual:   "history order " + messageIDs(h)})
		}
		last, lastID = i, m.MessageID
	}
	return vs, notes
}

// LIFE-024 (§3.2.4): on every binding, historyLength 0 leaves history out of
// GetTask and of the SendMessage answer, and the full history of a two-turn
// task runs oldest first with the user's messages as sent.
var _ = suites.Spec("LIFE-024", func(ctx context.Context, t *suites.T) {
	c := t.Client()
	cv := converse(ctx, t, c)
	id := cv.task.ID
	zero := int32(0)
	// Each binding reads the task and sends a task of its own, so the
	// bindings run together (suites.T.Each).
	cs := t.Clients()
	// judged says which bindings' history kept at least two of the
	// conversation's messages: with fewer, neither the order nor what
	// historyLength 0 leaves out says anything.
	judged := make([]bool, len(cs))
	t.Each(len(cs), func(i int) {
		cl := cs[i]
		b := cl.Binding()
		where := fmt.Sprintf("GetTask %s historyLength=0 (%s)", id, b)
		if got, err := cl.GetTask(ctx, &a2a.GetTaskRequest{ID: id, HistoryLength: &zero}); err != nil {
			t.Record(invariants.Violation{Invariant: "history-zero", Where: where, Expected: "the task", Actual: suites.ErrText(err)})
		} else if len(got.History) > 0 {
			t.Record(invariants.Violation{Invariant: "history-zero", Where: where,
				Expected: "no history (§3.2.4: historyLength 0 omits it)", Actual: fmt.Sprintf("%d messages", len(got.History))})
		} else {
			t.Observe("history-zero-"+b, map[bool]string{true: "omitted", false: "an empty list"}[got.History == nil])
		}

		where = "SendMessage configuration.historyLength=0 (" + b + ")"
		msg := t.Scripted(suites.Script{Outcome: directive.OutcomeCompleted})
		resp, err := t.Send(ctx, cl, &a2a.SendMessageRequest{Message: &msg, Configuration: &a2a.SendMessageConfiguration{HistoryLength: &zero}})
		switch {
		case err != nil:
			t.Record(invariants.Violation{Invariant: "history-zero", Where: where, Expected: "a task", Actual: suites.ErrText(err)})
		case resp.Task == nil:
			t.Observe("history-zero-send-"+b, "answered with a Message; nothing to judge")
		case len(resp.Task.History) > 0:
			t.Record(invariants.Violation{Invariant: "history-zero", Where: where + ", task " + resp.Task.ID,
				Expected: "no history in the answer (§3.2.4)", Actual: fmt.Sprintf("%d messages", len(resp.Task.History))})
		}

		full, err := t.Get(ctx, cl, id)
		if err != nil {
			t.Record(invariants.Violation{Invariant: "history-order", Where: "GetTask " + id + " (" + b + ")", Expected: "the task", Actual: suites.ErrText(err)})
			return
		}
		v, notes := checkHistory(full.History, cv, "GetTask "+id+" ("+b+") history")
		t.Record(v...)
		if len(notes) > 0 {
			t.Observe("history-kept-"+b, strings.Join(notes, "; "))
		}
		judged[i] = len(cv.known())-len(notes) >= 2
	})
	t.Violated()
	if !slices.Contains(judged, true) {
		t.CouldNotRun("task %s's history kept fewer than two of the conversation's %d messages on every binding (keeping history is the agent's choice), so its order and what historyLength 0 omits cannot be judged.", id, len(cv.known()))
	}
})

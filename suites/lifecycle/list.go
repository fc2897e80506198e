package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// listGap separates the creation of tasks whose list order is checked, so
// that their status timestamps differ even at millisecond precision (§5.6.1
// timestamps need not be finer).
const listGap = 3 * time.Millisecond

// Bounds on a ListTasks walk: the spec's own context holds a handful of
// tasks; the whole agent, at 100 a page, holds at most 10 000 before the walk
// stops judging the end.
const (
	maxContextPages = 10
	maxAllPages     = 100
)

func listSize(n int32) *int32 { return &n }

// canScript reports whether the run can script s (directive extension, or
// a prompt-map entry for it).
func canScript(t *suites.T, s suites.Script) bool {
	if t.Env.Behaviour == nil {
		return false
	}
	_, err := t.Env.Behaviour.Message(s)
	return err == nil
}

// createTaskIn creates a task and waits until it comes to rest (terminal, or
// interrupted: §3.2.2). With a contextID the task joins that context: one the
// agent issued, which a new message may name (§3.4.1). Without any scripted
// behaviour, a completed task is asked for in plain words, so that listing
// specs run against any agent that makes tasks; an agent that then asks for
// input gives an interrupted task, which serves every listing check as well
// as a finished one (its state and timestamp no longer move).
func createTaskIn(ctx context.Context, t *suites.T, c *client.Client, contextID string, s suites.Script) *a2a.Task {
	var msg a2a.Message
	if t.Env.Behaviour == nil && s.Outcome == directive.OutcomeCompleted {
		msg = a2a.Message{MessageID: suites.NewID("msg"), Role: a2a.RoleUser,
			Parts: []a2a.Part{a2a.TextPart("a2a-conform: please acknowledge this message briefly.")}}
		t.Observe("behaviour", "none: plain messages")
	} else {
		msg = t.Scripted(s)
	}
	msg.ContextID = contextID
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
	switch {
	case err != nil && contextID != "":
		t.CouldNotRun("the agent refused a new task in context %s, which it issued itself (%s); the spec needs several tasks in one context.", contextID, suites.ErrText(err))
	case err != nil:
		t.Violated(invariants.Violation{Invariant: "send", Where: "SendMessage (" + c.Binding() + ")",
			Expected: "a task for the message", Actual: suites.ErrText(err)})
	case resp.Task == nil:
		t.CouldNotRun("the agent answered with a Message, not a task; the spec needs tasks to read and list.")
	case contextID != "" && resp.Task.ContextID != contextID:
		t.CouldNotRun("the agent put a new task for context %s into context %q; the spec needs several tasks in one context.", contextID, resp.Task.ContextID)
	}
	task := resp.Task
	if !atRest(task) {
		task = t.WaitFor(ctx, c, task.ID, "terminal or interrupted", suites.TerminalOrInterrupted)
	}
	return task
}

// listStagger separates the starts of tasks created together
// (createTasksIn), so that on an agent that takes about the same time for
// each, their status timestamps differ by that much when they come to rest.
const listStagger = 25 * time.Millisecond

// createTasksIn creates one task per script in contextID, together rather
// than one after another (suites.T.Each), each start listStagger after the
// previous, and returns them at rest in script order. The listing specs judge
// order by the status timestamps the list itself shows (A2A v1.0 §3.1.4: newest
// first by last update), not by creation order, and list only once every
// task is at rest, so nothing moves them during the walk: creating them
// together changes nothing judged, and costs one task's time instead of
// their sum on an agent whose tasks take seconds.
func createTasksIn(ctx context.Context, t *suites.T, c *client.Client, contextID string, scripts ...suites.Script) []*a2a.Task {
	out := make([]*a2a.Task, len(scripts))
	t.Each(len(scripts), func(i int) {
		pause(ctx, time.Duration(i)*listStagger)
		out[i] = createTaskIn(ctx, t, c, contextID, scripts[i])
	})
	return out
}

// listPage is one ListTasks answer of a walk.
type listPage struct {
	tasks []a2a.Task
	next  *string
}

// walkList follows nextPageToken from the first page until a page carries
// "" (or no token), an error, a repeated token, or maxPages; complete says
// the walk reached its last page.
func walkList(ctx context.Context, c *client.Client, req a2a.ListTasksRequest, maxPages int) (pages []listPage, complete bool, err error) {
	used := map[string]bool{}
	for len(pages) < maxPages {
		r := req
		resp, err := c.ListTasks(ctx, &r)
		if err != nil {
			return pages, false, err
		}
		pages = append(pages, listPage{tasks: resp.Tasks, next: resp.NextPageToken})
		if resp.NextPageToken == nil || *resp.NextPageToken == "" {
			return pages, true, nil
		}
		tok := *resp.NextPageToken
		if used[tok] {
			return pages, false, fmt.Errorf("page %d's nextPageToken %q was already used: following it would loop", len(pages), suites.Cut(tok, 60))
		}
		used[tok] = true
		req.PageToken = tok
	}
	return pages, false, nil
}

// stampOf parses a status timestamp; ok is false when it is absent or not
// RFC 3339, and such a task is left out of order judgements.
func stampOf(task a2a.Task) (time.Time, bool) {
	if task.Status.Timestamp == "" {
		return time.Time{}, false
	}
	ts, err := time.Parse(time.RFC3339Nano, task.Status.Timestamp)
	return ts, err == nil
}

// checkPages judges a ListTasks walk (§3.1.4): nextPageToken present on
// every page and no page longer than asked (properties of each answer), and,
// over the tasks own accepts, each page newest first by status timestamp
// (ties allowed), the order continuing across page boundaries, and no task
// twice. Only the spec's own tasks are judged for order and repeats (STYLE.md,
// "Own what you judge"): they are at rest before the walk begins, so nothing
// moves them while it goes on, whereas another client's
// tasks may change between two pages and legitimately shift the cursor.
// foreign counts the tasks own rejected; own nil accepts every task.
func checkPages(pages []listPage, size int32, own func(id string) bool, where string) (vs []invariants.Violation, unstamped, foreign int) {
	seen := map[string]int{}
	// last is the last judged task with a usable timestamp, and the page it
	// was on: unstamped tasks are skipped, not treated as breaking the order.
	var last *a2a.Task
	lastPage := -1
	for p, page := range pages {
		at := fmt.Sprintf("%s, page %d", where, p+1)
		if page.next == nil {
			vs = append(vs, invariants.Violation{Invariant: "list-next-page-token", Where: at,
				Expected: `nextPageToken on every page, "" on the last (§3.1.4)`, Actual: fmt.Sprintf("no nextPageToken member (page of %d tasks)", len(page.tasks))})
		}
		if size > 0 && len(page.tasks) > int(size) {
			vs = append(vs, invariants.Violation{Invariant: "list-page-size", Where: at,
				Expected: fmt.Sprintf("at most pageSize %d tasks", size), Actual: fmt.Sprintf("%d tasks", len(page.tasks))})
		}
		for i := range page.tasks {
			task := &page.tasks[i]
			if own != nil && !own(task.ID) {
				foreign++
				continue
			}
			ts, ok := stampOf(*task)
			if !ok {
				unstamped++
			} else {
				if last != nil {
					lts, _ := stampOf(*last)
					if ts.After(lts) {
						boundary := ""
						if lastPage != p {
							boundary = " (across the page boundary)"
						}
						vs = append(vs, invariants.Violation{Invariant: "list-order", Where: fmt.Sprintf("%s, task %d%s", at, i+1, boundary),
							Expected: "newest first by status.timestamp (§3.1.4)",
							Actual:   fmt.Sprintf("task %s (%s) listed before task %s (%s)", last.ID, last.Status.Timestamp, task.ID, task.Status.Timestamp)})
					}
				}
				last, lastPage = task, p
			}
			if prev, dup := seen[task.ID]; dup {
				vs = append(vs, invariants.Violation{Invariant: "list-cursor", Where: at,
					Expected: "each task once across the pages of a walk", Actual: fmt.Sprintf("task %s, at rest, also on page %d", task.ID, prev+1)})
			}
			seen[task.ID] = p
		}
	}
	return vs, unstamped, foreign
}

// idSet is membership in a set of task ids.
func idSet(ids []string) func(string) bool {
	m := map[string]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return func(id string) bool { return m[id] }
}

// checkListed says which of the ids a complete walk did not list.
func checkListed(pages []listPage, ids []string, where string) []invariants.Violation {
	listed := map[string]bool{}
	for _, p := range pages {
		for _, task := range p.tasks {
			listed[task.ID] = true
		}
	}
	var missing []string
	for _, id := range ids {
		if !listed[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return []invariants.Violation{{Invariant: "list-complete", Where: where,
		Expected: fmt.Sprintf("every one of the %d tasks the spec created listed by walking to the last page", len(ids)),
		Actual:   "missing " + strings.Join(missing, ", ")}}
}

func walkFailed(err error, where string) []invariants.Violation {
	if err == nil {
		return nil
	}
	return []invariants.Violation{{Invariant: "list", Where: where, Expected: "every page of the walk", Actual: suites.ErrText(err)}}
}

func countTasks(pages []listPage) int {
	n := 0
	for _, p := range pages {
		n += len(p.tasks)
	}
	return n
}

// observedPages is how many pages of the whole agent LIFE-020 reads for its
// observation: enough to describe the agent, never a verdict.
const observedPages = 10

// LIFE-020 (§3.1.4): five tasks are created in a context of the spec's own
// (the contextId filter, A2A v1.0 §3.1.4): the first, whose context the others
// join, then the other four together (createTasksIn); once all are at rest,
// on every binding that context is walked two tasks a page (three pages, so
// that a cursor must carry on past its second page) to the page whose
// nextPageToken is "", and the order, the cursor and the walk's completeness
// are judged on those five alone. Other clients may be writing the agent's
// other tasks meanwhile, so a walk over the whole agent is only recorded.
var _ = suites.Spec("LIFE-020", func(ctx context.Context, t *suites.T) {
	c := t.Client()
	done := suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete}
	first := createTaskIn(ctx, t, c, "", done)
	ids := []string{first.ID}
	pause(ctx, listGap)
	for _, task := range createTasksIn(ctx, t, c, first.ContextID, done, done, done, done) {
		ids = append(ids, task.ID)
	}
	own := idSet(ids)
	var vs []invariants.Violation
	for _, cl := range t.Clients() {
		where := fmt.Sprintf("ListTasks contextId=%s pageSize=2 (%s)", first.ContextID, cl.Binding())
		pages, complete, err := walkList(ctx, cl, a2a.ListTasksRequest{ContextID: first.ContextID, PageSize: listSize(2)}, maxContextPages)
		vs = append(vs, walkFailed(err, where)...)
		v, _, foreign := checkPages(pages, 2, own, where)
		vs = append(vs, v...)
		if foreign > 0 {
			t.Observe("foreign-in-context-"+cl.Binding(), fmt.Sprintf("%d listed tasks the spec did not create (LIFE-022 judges the contextId filter)", foreign))
		}
		switch {
		case complete:
			vs = append(vs, checkListed(pages, ids, where)...)
		case err == nil && foreign > 0:
			t.Record(vs...)
			t.Indeterminate("the walk of context %s (%s) met %d tasks the spec did not create and had not ended after %d pages, so whether its last page carries nextPageToken \"\" and lists all %d of the spec's tasks is unknown",
				first.ContextID, cl.Binding(), foreign, maxContextPages, len(ids))
		case err == nil:
			vs = append(vs, invariants.Violation{Invariant: "list-next-page-token", Where: where,
				Expected: fmt.Sprintf(`the last page (nextPageToken "") within %d pages of two, for a context of %d tasks`, maxContextPages, len(ids)),
				Actual:   fmt.Sprintf("%d pages, %d tasks, and still a token", len(pages), countTasks(pages))})
		}
		observeWholeAgent(ctx, t, cl, ids)
	}
	t.Violated(vs...)
})

// observeWholeAgent records a walk over every task of the agent, a hundred a
// page: how many, whether the spec's tasks were among them, and what the
// page checks would have said. None of it is judged: other clients' tasks
// may change between two pages.
func observeWholeAgent(ctx context.Context, t *suites.T, cl *client.Client, ids []string) {
	pages, complete, err := walkList(ctx, cl, a2a.ListTasksRequest{PageSize: listSize(100)}, observedPages)
	walk := fmt.Sprintf("%d tasks on %d pages", countTasks(pages), len(pages))
	switch {
	case err != nil:
		walk += "; then " + suites.ErrText(err)
	case !complete:
		walk += "; not walked further"
	case len(checkListed(pages, ids, "")) > 0:
		walk += "; the spec's tasks not all listed"
	}
	if v, unstamped, _ := checkPages(pages, 100, nil, "whole agent"); len(v) > 0 || unstamped > 0 {
		walk += fmt.Sprintf("; %d page-check findings over tasks the spec does not own, %d without a usable status.timestamp (not judged)", len(v), unstamped)
	}
	t.Observe("list-all-"+cl.Binding(), walk)
}

// rawTasks sends ListTasks and returns each listed task's members as sent,
// so that an absent artifacts member can be told from [] and null, which
// decoding merges.
func rawTasks(ctx context.Context, c *client.Client, req a2a.ListTasksRequest) ([]map[string]json.RawMessage, error) {
	rr := client.RawRequest{Method: a2a.MethodListTasks, Params: req}
	if c.Binding() == a2a.BindingHTTPJSON {
		q := url.Values{}
		if req.ContextID != "" {
			q.Set("contextId", req.ContextID)
		}
		if req.PageSize != nil {
			q.Set("pageSize", strconv.Itoa(int(*req.PageSize)))
		}
		if req.IncludeArtifacts != nil {
			q.Set("includeArtifacts", strconv.FormatBool(*req.IncludeArtifacts))
		}
		rr = client.RawRequest{Method: a2a.MethodListTasks, Query: q}
	}
	resp, err := c.RawDo(ctx, rr)
	if err != nil {
		return nil, err
	}
	if err := c.Classify(a2a.MethodListTasks, resp); err != nil {
		return nil, err
	}
	body := resp.Body
	if c.Binding() == a2a.BindingJSONRPC {
		var env struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(body, &env); err != nil {
			return nil, fmt.Errorf("ListTasks answer is not a JSON-RPC response: %v", err)
		}
		body = env.Result
	}
	var out struct {
		Tasks []map[string]json.RawMessage `json:"tasks"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("ListTasks result is not a ListTasksResponse: %v", err)
	}
	return out.Tasks, nil
}

func rawID(task map[string]json.RawMessage) string {
	var id string
	_ = json.Unmarshal(task["id"], &id)
	return id
}

// LIFE-021 (§3.1.4): a completed task with artifacts is created; on every
// binding no listed task has an artifacts member (not [], not null) unless
// includeArtifacts is true, and with it true the task's artifacts are there.
var _ = suites.Spec("LIFE-021", func(ctx context.Context, t *suites.T) {
	c := t.Client()
	seeded := createTaskIn(ctx, t, c, "", suites.Script{Outcome: directive.OutcomeCompleted, Text: "listed artifact", Least: suites.PromptComplete})
	full, err := t.Get(ctx, c, seeded.ID)
	if err != nil {
		t.Violated(invariants.Violation{Invariant: "get", Where: "GetTask " + seeded.ID, Expected: "the task", Actual: suites.ErrText(err)})
	}
	var vs []invariants.Violation
	no := false
	yes := true
	// A task without artifacts is listed without them whatever the agent
	// does with includeArtifacts: it cannot tell the two apart.
	withArtifacts := len(full.Artifacts) > 0
	for _, cl := range t.Clients() {
		b := cl.Binding()
		for _, q := range []struct {
			what string
			req  a2a.ListTasksRequest
		}{
			{"contextId=" + seeded.ContextID + ", includeArtifacts unset", a2a.ListTasksRequest{ContextID: seeded.ContextID}},
			{"contextId=" + seeded.ContextID + ", includeArtifacts=false", a2a.ListTasksRequest{ContextID: seeded.ContextID, IncludeArtifacts: &no}},
			{"no filter, includeArtifacts unset", a2a.ListTasksRequest{}},
		} {
			where := "ListTasks " + q.what + " (" + b + ")"
			tasks, err := rawTasks(ctx, cl, q.req)
			if err != nil {
				vs = append(vs, invariants.Violation{Invariant: "list", Where: where, Expected: "a page of tasks", Actual: suites.ErrText(err)})
				continue
			}
			for _, task := range tasks {
				if a, ok := task["artifacts"]; ok {
					vs = append(vs, invariants.Violation{Invariant: "list-artifacts", Where: where + ", task " + rawID(task),
						Expected: "no artifacts member (§3.1.4: not [], not null)", Actual: "artifacts: " + suites.Cut(string(a), 80)})
				}
			}
		}
		where := "ListTasks contextId=" + seeded.ContextID + ", includeArtifacts=true (" + b + ")"
		tasks, err := rawTasks(ctx, cl, a2a.ListTasksRequest{ContextID: seeded.ContextID, IncludeArtifacts: &yes})
		if err != nil {
			vs = append(vs, invariants.Violation{Invariant: "list", Where: where, Expected: "a page of tasks", Actual: suites.ErrText(err)})
			continue
		}
		if !withArtifacts {
			continue
		}
		found := false
		for _, task := range tasks {
			if rawID(task) != seeded.ID {
				continue
			}
			found = true
			var arts []a2a.Artifact
			if err := json.Unmarshal(task["artifacts"], &arts); err != nil || len(arts) != len(full.Artifacts) {
				vs = append(vs, invariants.Violation{Invariant: "list-artifacts", Where: where + ", task " + seeded.ID,
					Expected: fmt.Sprintf("the task's %d artifacts, as GetTask shows them", len(full.Artifacts)),
					Actual:   "artifacts: " + suites.Cut(string(task["artifacts"]), 80)})
			}
		}
		if !found {
			vs = append(vs, invariants.Violation{Invariant: "list-filter", Where: where,
				Expected: "task " + seeded.ID + " of that context", Actual: fmt.Sprintf("%d tasks, not that one", len(tasks))})
		}
	}
	t.Record(vs...)
	if !withArtifacts {
		t.AskedForInput(full, "a task at rest without artifacts cannot show whether includeArtifacts=true brings them")
		t.CouldNotRun("task %s has no artifacts (GetTask shows none), so whether ListTasks leaves them out or includes them cannot be judged; the spec needs a completed task with an artifact (the directive extension, or a prompt-map complete prompt whose task produces one).", seeded.ID)
	}
})

// sameTasks judges what a filter listed against the spec's own tasks
// (§3.1.4): every wanted task listed, none of the spec's other tasks listed,
// and no listed task that visibly fails the filter (fits is the filter as the
// listed task shows it; a contextId never changes, so a task listed under
// another context is wrong whoever owns it). A task of another client that
// fits is ignored.
func sameTasks(got []a2a.Task, want []*a2a.Task, own func(string) bool, fits func(a2a.Task) bool, where, what string) []invariants.Violation {
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w.ID] = true
	}
	var extra, missing []string
	listed := map[string]bool{}
	for _, g := range got {
		listed[g.ID] = true
		if !wanted[g.ID] && (own(g.ID) || !fits(g)) {
			extra = append(extra, fmt.Sprintf("%s (context %s, %s)", g.ID, g.ContextID, g.Status.State))
		}
	}
	for _, w := range want {
		if !listed[w.ID] {
			missing = append(missing, w.ID)
		}
	}
	var vs []invariants.Violation
	if len(extra) > 0 {
		if len(extra) > 5 {
			extra = append(extra[:5], fmt.Sprintf("… %d more", len(extra)-5))
		}
		vs = append(vs, invariants.Violation{Invariant: "list-filter", Where: where,
			Expected: "only " + what + " (§3.1.4)", Actual: "also " + strings.Join(extra, ", ")})
	}
	if len(missing) > 0 {
		vs = append(vs, invariants.Violation{Invariant: "list-filter", Where: where,
			Expected: "all of " + what, Actual: "missing " + strings.Join(missing, ", ")})
	}
	return vs
}

func tasksWhere(all []*a2a.Task, keep func(*a2a.Task) bool) []*a2a.Task {
	var out []*a2a.Task
	for _, t := range all {
		if keep(t) {
			out = append(out, t)
		}
	}
	return out
}

func taskIDs(ts []*a2a.Task) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

// refusedAsInvalid reports whether err is a validation error: JSON-RPC
// InvalidParams, or HTTP 400 (the §6.5 example for pageSize 150).
func refusedAsInvalid(err error) bool {
	ce, ok := client.AsError(err)
	if !ok || (ce.Class != client.A2A && ce.Class != client.HTTP) {
		return false
	}
	return ce.Code == a2a.CodeInvalidParams || ce.HTTPStatus == http.StatusBadRequest ||
		(ce.Binding == a2a.BindingGRPC && ce.Status == "INVALID_ARGUMENT")
}

// LIFE-022 (§3.1.4, §11.5): tasks are created in two
// contexts of the spec's own (completed and, when it can be scripted,
// failed); on every binding the contextId and status filters, alone and
// together, list exactly the right tasks among the spec's own, pageSize 1
// pages one task at a time, and pageSize 0, 101 and 150 are refused as
// invalid or served within 1..100 (which one is recorded). The status filter
// alone is walked until the spec's tasks in that state are found, however
// many newer tasks other clients hold; another client's task that shows
// another state is recorded, not judged (it may have moved meanwhile).
var _ = suites.Spec("LIFE-022", func(ctx context.Context, t *suites.T) {
	c := t.Client()
	done := suites.Script{Outcome: directive.OutcomeCompleted, Least: suites.PromptComplete}
	failed := suites.Script{Outcome: directive.OutcomeFailed}
	canFail := canScript(t, failed)
	if !canFail {
		t.Observe("failed-task", "not made: the run cannot script a failed task; the filters are judged on the states the spec's tasks have")
	}
	// Context x gets a completed task, then a failed and a completed one;
	// context y a completed task, then a failed one. The two contexts are
	// made together, and in each the tasks after the first (which makes
	// the context) together (createTasksIn): the filters judge which tasks
	// are listed, and the pageSize 1 walk orders them by their listed
	// timestamps, so creation order is not judged, and the spec takes two
	// task lengths instead of five.
	var x, y []*a2a.Task
	t.Each(2, func(i int) {
		pause(ctx, time.Duration(i)*listStagger)
		first := createTaskIn(ctx, t, c, "", done)
		var rest []suites.Script
		if canFail {
			rest = append(rest, failed)
		}
		if i == 0 {
			rest = append(rest, done)
		}
		tasks := append([]*a2a.Task{first}, createTasksIn(ctx, t, c, first.ContextID, rest...)...)
		if i == 0 {
			x = tasks
		} else {
			y = tasks
		}
	})
	cx, cy := x[0].ContextID, y[0].ContextID
	if cy == cx {
		t.Indeterminate("the agent put two new conversations (messages without contextId) into one context, %s; the filter needs two contexts", cx)
	}
	all := append(append([]*a2a.Task{}, x...), y...)
	own := idSet(taskIDs(all))
	states := map[a2a.TaskState]bool{}
	for _, task := range all {
		states[task.Status.State] = true
	}
	var stateList []a2a.TaskState
	for s := range states {
		stateList = append(stateList, s)
	}
	sort.Slice(stateList, func(i, j int) bool { return stateList[i] < stateList[j] })
	t.Observe("states", fmt.Sprint(stateList))
	// The status filter alone is checked on a state none of the spec's tasks
	// has as well, so it must leave all of them out.
	other := a2a.TaskStateRejected
	if states[other] {
		other = a2a.TaskStateCanceled
	}

	var vs []invariants.Violation
	for _, cl := range t.Clients() {
		b := cl.Binding()
		list := func(req a2a.ListTasksRequest, where string) ([]a2a.Task, bool) {
			resp, err := cl.ListTasks(ctx, &req)
			if err != nil {
				vs = append(vs, invariants.Violation{Invariant: "list", Where: where, Expected: "a page of tasks", Actual: suites.ErrText(err)})
				return nil, false
			}
			return resp.Tasks, true
		}
		for _, cid := range []string{cx, cy} {
			where := fmt.Sprintf("ListTasks contextId=%s (%s)", cid, b)
			if got, ok := list(a2a.ListTasksRequest{ContextID: cid, PageSize: listSize(100)}, where); ok {
				want := tasksWhere(all, func(t *a2a.Task) bool { return t.ContextID == cid })
				fits := func(g a2a.Task) bool { return g.ContextID == cid }
				vs = append(vs, sameTasks(got, want, own, fits, where, "the tasks of context "+cid)...)
			}
		}
		for _, st := range stateList {
			where := fmt.Sprintf("ListTasks contextId=%s status=%s (%s)", cx, st, b)
			if got, ok := list(a2a.ListTasksRequest{ContextID: cx, Status: st, PageSize: listSize(100)}, where); ok {
				want := tasksWhere(x, func(t *a2a.Task) bool { return t.Status.State == st })
				fits := func(g a2a.Task) bool { return g.ContextID == cx && g.Status.State == st }
				vs = append(vs, sameTasks(got, want, own, fits, where, fmt.Sprintf("the %s tasks of context %s", st, cx))...)
			}
		}
		for _, st := range append(stateList, other) {
			vs = append(vs, statusWalk(ctx, t, cl, st, all, own)...)
		}

		where := fmt.Sprintf("ListTasks contextId=%s pageSize=1 (%s)", cx, b)
		pages, complete, err := walkList(ctx, cl, a2a.ListTasksRequest{ContextID: cx, PageSize: listSize(1)}, maxContextPages)
		vs = append(vs, walkFailed(err, where)...)
		v, _, _ := checkPages(pages, 1, own, where)
		vs = append(vs, v...)
		if complete {
			vs = append(vs, checkListed(pages, taskIDs(x), where)...)
		}

		for _, n := range []int32{0, 101, 150} {
			where := fmt.Sprintf("ListTasks pageSize=%d (%s)", n, b)
			resp, err := cl.ListTasks(ctx, &a2a.ListTasksRequest{PageSize: listSize(n)})
			key := fmt.Sprintf("pageSize-%d-%s", n, b)
			switch {
			case err != nil && refusedAsInvalid(err):
				t.Observe(key, "refused: "+suites.ErrText(err))
			case err != nil:
				vs = append(vs, invariants.Violation{Invariant: "list-page-size", Where: where,
					Expected: "a validation error (InvalidParams / HTTP 400 / gRPC INVALID_ARGUMENT), or a page within 1..100 (the spec leaves it open: both allowed)",
					Actual:   suites.ErrText(err)})
			case len(resp.Tasks) > maxListPage || resp.PageSize > maxListPage || resp.PageSize < 0:
				vs = append(vs, invariants.Violation{Invariant: "list-page-size", Where: where,
					Expected: "a validation error, or a page of at most 100 tasks (§3.1.4)",
					Actual:   fmt.Sprintf("%d tasks, pageSize %d", len(resp.Tasks), resp.PageSize)})
			default:
				t.Observe(key, fmt.Sprintf("served %d tasks, answered pageSize %d (clamped or defaulted)", len(resp.Tasks), resp.PageSize))
			}
		}
	}
	t.Violated(vs...)
})

// statusWalk judges the status filter alone (§3.1.4) on the spec's tasks: it
// walks ListTasks status=st a hundred a page until every one of the spec's
// tasks in st has been listed (or the last page, or maxAllPages), and none of
// the spec's tasks in another state may be listed on the pages read. Other
// clients' tasks that show another state are recorded.
func statusWalk(ctx context.Context, t *suites.T, cl *client.Client, st a2a.TaskState, all []*a2a.Task, own func(string) bool) []invariants.Violation {
	where := fmt.Sprintf("ListTasks status=%s (%s)", st, cl.Binding())
	want := tasksWhere(all, func(t *a2a.Task) bool { return t.Status.State == st })
	found := map[string]bool{}
	var vs []invariants.Violation
	req := a2a.ListTasksRequest{Status: st, PageSize: listSize(100)}
	used := map[string]bool{}
	foreignOff, pages, ended := 0, 0, false
	for pages < maxAllPages {
		resp, err := cl.ListTasks(ctx, &req)
		if err != nil {
			return append(vs, invariants.Violation{Invariant: "list", Where: fmt.Sprintf("%s, page %d", where, pages+1), Expected: "a page of tasks", Actual: suites.ErrText(err)})
		}
		pages++
		for _, g := range resp.Tasks {
			switch {
			case own(g.ID) && g.Status.State != st:
				vs = append(vs, invariants.Violation{Invariant: "list-filter", Where: fmt.Sprintf("%s, page %d", where, pages),
					Expected: "only tasks in " + string(st) + " (§3.1.4)", Actual: fmt.Sprintf("the spec's task %s, in %s", g.ID, g.Status.State)})
			case own(g.ID):
				found[g.ID] = true
			case g.Status.State != st:
				foreignOff++
			}
		}
		if len(found) == len(want) {
			break
		}
		tok := ""
		if resp.NextPageToken != nil {
			tok = *resp.NextPageToken
		}
		if tok == "" || used[tok] {
			ended = tok == ""
			break
		}
		used[tok] = true
		req.PageToken = tok
	}
	if foreignOff > 0 {
		t.Observe("status-"+string(st)+"-"+cl.Binding(), fmt.Sprintf("%d listed tasks of other clients showed another state (not judged: they may have moved)", foreignOff))
	}
	var missing []string
	for _, w := range want {
		if !found[w.ID] {
			missing = append(missing, w.ID)
		}
	}
	switch {
	case len(missing) == 0:
	case ended:
		vs = append(vs, invariants.Violation{Invariant: "list-filter", Where: where,
			Expected: fmt.Sprintf("the spec's %d tasks in %s, by the last page", len(want), st), Actual: fmt.Sprintf("missing %s after %d pages", strings.Join(missing, ", "), pages)})
	default:
		t.Unchecked(fmt.Sprintf("the status filter alone lists the spec's %s tasks (%s)", st, cl.Binding()),
			fmt.Sprintf("the walk stopped after %d pages (%d at most, or a repeated token) before %s were listed", pages, maxAllPages, strings.Join(missing, ", ")))
	}
	return vs
}

// maxListPage is the largest page §3.1.4 allows.
const maxListPage = 100

package webhook

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
	"github.com/a2a-conform/a2a-conform/suites"
)

// follow polls a task until it ends and returns the states seen after since
// (in order, each once) and the terminal task.
func follow(ctx context.Context, t *suites.T, c *client.Client, id string, since time.Time) ([]a2a.TaskState, *a2a.Task) {
	var seen []a2a.TaskState
	deadline := time.Now().Add(t.Patience())
	for {
		task, err := t.Get(ctx, c, id)
		if err == nil {
			if time.Now().After(since) && (len(seen) == 0 || seen[len(seen)-1] != task.Status.State) {
				seen = append(seen, task.Status.State)
			}
			if task.Status.State.Terminal() {
				return seen, task
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Indeterminate("timed out after %s waiting for task %s to end (seen: %v; raise --patience for a slower agent)", t.Patience().Round(time.Millisecond), id, seen)
		}
		pause(ctx, suites.Poll)
	}
}

// latencies are, for each acknowledged status push to h, its arrival minus
// the status timestamp it carries (the agent's clock against the harness's:
// on a remote agent this includes their skew).
func latencies(t *suites.T, h *hook) []time.Duration {
	var out []time.Duration
	for _, d := range h.Acknowledged(t) {
		su := d.Resp.StatusUpdate
		if su == nil || su.Status.Timestamp == "" {
			continue
		}
		ts, err := time.Parse(time.RFC3339Nano, su.Status.Timestamp)
		if err != nil {
			continue
		}
		out = append(out, d.At.Sub(ts))
	}
	return out
}

// PUSH-003 (§3.1.1, §4.3.3): a config given inline with the message.
var _ = suites.Spec("PUSH-003", func(ctx context.Context, t *suites.T) {
	needPush(t)
	c := t.Client()
	h := newHook(t, "Bearer")
	task := start(ctx, t, c, workingScript, h)
	defer endTask(ctx, c, task)
	// Listed while the task runs (after it ends the config may go: it must
	// persist only until task completion, A2A v1.0.1 §3.1.7).
	if list, err := listAll(ctx, c, task.ID); err == nil {
		found := false
		for _, cfg := range list {
			if cfg.URL == h.Config.URL {
				found = true
				h.Config.ID = cfg.ID
			}
		}
		now, gerr := t.Get(ctx, c, task.ID)
		switch {
		case found:
			t.Observe("inline-config", "listed with id "+h.Config.ID)
		case gerr == nil && now.Status.State.Terminal():
			t.Observe("inline-config", "not listed; the task had already ended")
		default:
			t.Record(invariants.Violation{Invariant: "push-config", Where: "ListTaskPushNotificationConfigs for task " + task.ID + " (" + c.Binding() + ")",
				Expected: "the config given inline (url " + h.Config.URL + ")", Actual: fmt.Sprintf("%d configs, none with that url", len(list))})
		}
	} else {
		t.Observe("inline-config", "list failed: "+suites.ErrText(err))
	}
	_, ended := follow(ctx, t, c, task.ID, h.Acked)
	seen := time.Now()
	w := awaitPush(ctx, t, h, task.ID, isTerminal, seen)
	checkBodies(t, h, task.ID, task.ContextID)
	t.Observe("pushes", describe(h.Deliveries(t)))
	observeLatency(t, w)
	if !w.Came {
		missing(ctx, t, c, h, task.ID, "the terminal state "+string(ended.Status.State), w, isTerminal, seen)
	}
})

// PUSH-004 (§4.3.3): configs created on working tasks; the terminal state
// is pushed; every push is a one-member StreamResponse for its task.
var _ = suites.Spec("PUSH-004", func(ctx context.Context, t *suites.T) {
	needPush(t)
	c := t.Client()
	const tasks = 2
	var mu sync.Mutex
	var lat []time.Duration
	var unpushed []string
	var wg sync.WaitGroup
	type outcome struct {
		h     *hook
		task  *a2a.Task
		ended *a2a.Task
		// endedFirst: the first read after the config was acknowledged
		// found the task already terminal, so it may have ended before
		// the config existed and no transition was left to push.
		endedFirst bool
	}
	outs := make([]outcome, tasks)
	for i := range tasks {
		h := newHook(t, "Bearer")
		task := start(ctx, t, c, workingScript, nil)
		defer endTask(ctx, c, task)
		create(ctx, t, c, h, task.ID)
		outs[i] = outcome{h: h, task: task}
	}
	// Each task is followed in the spec's goroutine, one after the other:
	// Indeterminate must not be raised from another goroutine. The waits
	// for their pushes overlap.
	waits := make([]suites.PushWait, len(outs))
	seenAt := make([]time.Time, len(outs))
	for i := range outs {
		seen, ended := follow(ctx, t, c, outs[i].task.ID, outs[i].h.Acked)
		outs[i].ended = ended
		outs[i].endedFirst = len(seen) > 0 && seen[0].Terminal()
		seenAt[i] = time.Now()
		wg.Add(1)
		go func(i int, o outcome, seen []a2a.TaskState) {
			defer wg.Done()
			w := awaitPush(ctx, t, o.h, o.task.ID, isTerminal, seenAt[i])
			mu.Lock()
			defer mu.Unlock()
			waits[i] = w
			lat = append(lat, latencies(t, o.h)...)
			pushed := o.h.States(t, o.task.ID)
			for _, s := range seen {
				if !s.Terminal() && !slices.Contains(pushed, s) {
					unpushed = append(unpushed, fmt.Sprintf("%s of %s", s, o.task.ID))
				}
			}
		}(i, outs[i], seen)
	}
	wg.Wait()
	for _, o := range outs {
		checkBodies(t, o.h, o.task.ID, o.task.ContextID)
		t.Observe("pushes-"+o.task.ID, describe(o.h.Deliveries(t)))
	}
	t.Observe("latency", percentiles(lat)+", arrival minus the status timestamp")
	observeLatency(t, waits...)
	if len(unpushed) > 0 {
		t.Observe("states-not-pushed", strings.Join(unpushed, "; ")+" (seen by polling after the config was acknowledged; the spec leaves which events are pushed to the agent)")
	}
	// A task seen working after its config was acknowledged owes its
	// terminal push; one first read already terminal may have ended before
	// the config existed (CreateTaskPushNotificationConfig on an ended task
	// is not refused by every agent), so it proves nothing either way.
	var outran []string
	for i, o := range outs {
		switch {
		case waits[i].Came:
		case o.endedFirst:
			if _, came := o.h.PushedAt(t, o.task.ID, isTerminal); !came {
				outran = append(outran, fmt.Sprintf("task %s was already %s at the first read after its config was acknowledged", o.task.ID, o.ended.Status.State))
			}
		default:
			missing(ctx, t, c, o.h, o.task.ID, "the terminal state "+string(o.ended.Status.State), waits[i], isTerminal, seenAt[i])
		}
	}
	if len(outran) > 0 {
		t.Violated() // what missing recorded is reported first
		t.TooFast("%s, and no terminal push came, so the task may have ended before the config existed; the task must work for longer (%s)",
			strings.Join(outran, "; "), suites.KeyOf(t.Env.Behaviour, workingScript))
	}
})

// PUSH-005 (§4.3.3, scenario 1): credentials from the task's own config.
// A second task of the spec's own, with a config of its own, is registered
// first, so that each config's pushes can be judged to carry their own
// config's token and never the other's (checkPushTokens).
var _ = suites.Spec("PUSH-005", func(ctx context.Context, t *suites.T) {
	needPush(t)
	c := t.Client()
	scheme := unadvertisedScheme(t.Card())
	t.Observe("config-scheme", scheme+" (the card advertises "+advertised(t.Card())+")")
	sh := newHook(t, scheme)
	sibling := start(ctx, t, c, workingScript, sh)
	defer endTask(ctx, c, sibling)
	h := newHook(t, scheme)
	task := start(ctx, t, c, workingScript, h)
	defer endTask(ctx, c, task)
	_, ended := follow(ctx, t, c, task.ID, h.Acked)
	seen := time.Now()
	w := awaitPush(ctx, t, h, task.ID, isTerminal, seen)
	ds := h.Deliveries(t)
	checkBodies(t, h, task.ID, task.ContextID)
	checkBodies(t, sh, sibling.ID, sibling.ContextID)
	observeLatency(t, w)
	names := map[string]string{h.Config.Token: "the config of task " + task.ID, sh.Config.Token: "the config of task " + sibling.ID}
	judged := 0
	for _, one := range []struct {
		h    *hook
		task *a2a.Task
	}{{h, task}, {sh, sibling}} {
		others := map[string]string{}
		for tok, name := range names {
			if tok != one.h.Config.Token {
				others[tok] = name + " (the spec's other config)"
			}
		}
		got := one.h.Deliveries(t)
		judged += len(got)
		carried, vs := checkPushTokens(got, tokenCheck{where: "pushes to the config of task " + one.task.ID, own: one.h.Config.Token, others: others})
		t.Record(vs...)
		if one.h == h {
			t.Observe("token-header", fmt.Sprintf("own token carried in %v of %d pushes (the header's name is UNSURE, A2A v1.0 §4.3.3: recorded; its value is judged)", map[string]int(carried), len(ds)))
		}
	}
	t.Observe("token-judged", fmt.Sprintf("%d pushes to the spec's two configs, each judged to carry no token but its own config's", judged))
	// Every delivery with other credentials was recorded by checkBodies. A
	// terminal state not pushed at all is judged like any missing push:
	// late is not lost.
	if !w.Came && !anyUntrusted(ds) {
		missing(ctx, t, c, h, task.ID, "the terminal state "+string(ended.Status.State), w, isTerminal, seen)
	}
})

// anyUntrusted reports whether a delivery was refused as not the config's
// (PushBodies records each as a violation).
func anyUntrusted(ds []webhook.Delivery) bool {
	for _, d := range ds {
		if !d.Trusted() {
			return true
		}
	}
	return false
}

// unadvertisedScheme picks an HTTP auth scheme the card does not advertise,
// so that a push signed the card's way cannot pass for the config's.
func unadvertisedScheme(card *a2a.AgentCard) string {
	have := strings.ToLower(advertised(card))
	for _, s := range []string{"Basic", "Bearer", "Digest"} {
		if !strings.Contains(have, strings.ToLower(s)) {
			return s
		}
	}
	return "Basic"
}

func advertised(card *a2a.AgentCard) string {
	var out []string
	for _, s := range card.SecuritySchemes {
		switch {
		case s.HTTPAuth != nil:
			out = append(out, s.HTTPAuth.Scheme)
		case s.OAuth2 != nil || s.OpenIDConnect != nil:
			out = append(out, "Bearer (OAuth2/OIDC)")
		case s.APIKey != nil:
			out = append(out, "API key "+s.APIKey.Name)
		}
	}
	if len(out) == 0 {
		return "no HTTP scheme"
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// PUSH-006 (§3.1.7, §4.3.3, scenario 2): read your writes.
var _ = suites.Spec("PUSH-006", func(ctx context.Context, t *suites.T) {
	needPush(t)
	c := t.Client()
	h := newHook(t, "Bearer")
	task := waitingTask(ctx, t, c, nil)
	defer endTask(ctx, c, task)
	create(ctx, t, c, h, task.ID)
	// At once: the transition is triggered the moment the config is
	// acknowledged.
	answer(ctx, t, c, task)
	triggered := time.Since(h.Acked)
	t.Observe("gap", triggered.Round(time.Microsecond).String()+" from the config's acknowledgement to the transition's trigger")
	_, ended := follow(ctx, t, c, task.ID, h.Acked)
	seen := time.Now()
	w := awaitPush(ctx, t, h, task.ID, isTerminal, seen)
	checkBodies(t, h, task.ID, task.ContextID)
	t.Observe("pushes", describe(h.Deliveries(t)))
	observeLatency(t, w)
	if !w.Came {
		missing(ctx, t, c, h, task.ID, "the terminal state "+string(ended.Status.State)+" (triggered "+triggered.Round(time.Millisecond).String()+" after the config was acknowledged)", w, isTerminal, seen)
	}
})

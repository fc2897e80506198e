package rollout

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Where ROLL-009 registers a config, relative to its slot's replacement.
const (
	// phaseBefore: through the old instance (pinned), once the new one is
	// ready and before the old one is told to drain.
	phaseBefore = "old-before-drain"
	// phaseDraining: through the old instance's own URL, after it was told
	// to drain, as a client holding a connection to it would.
	phaseDraining = "old-draining"
	// phaseNew: through the new instance (pinned), while the old one drains.
	phaseNew = "new-while-old-drains"
)

var drainPhases = []string{phaseBefore, phaseDraining, phaseNew}

// retryPause is the wait before registering again after an honest refusal
// (503, UNAVAILABLE, a transport failure). This spec counts the refusals
// itself (its calls opt out of the client's busy retry, which would wait
// the Retry-After the agent asks for: 1 s on the reference agent), and a
// quarter of a second keeps the retries inside a drain that lasts about a
// second.
const retryPause = 250 * time.Millisecond

// maxRefusalTexts bounds the distinct refusal texts the report lists.
const maxRefusalTexts = 5

// drainReg is one ROLL-009 config: its task (the spec's own, started on the
// old instance), where it was registered, and how that went.
type drainReg struct {
	phase, via string
	slot       int
	task       *a2a.Task
	token, id  string
	// hook is the config with credentials of its own (suites.PushHook).
	hook *suites.PushHook
	// acked is when the agent acknowledged it, counted from the roll's start.
	acked    time.Duration
	accepted bool
	// refusals counts the refused attempts; refusal is the last one's text.
	refusals int
	refusal  string
	// gone: the draining instance stopped answering before it accepted.
	gone bool
	// badURL: the agent refused the receiver's URL (suites.RefusesWebhookURL).
	badURL bool
	// atRest: the task was terminal or interrupted at the first look after
	// the acknowledgement, so no transition was owed to the config.
	atRest  bool
	rest    a2a.TaskState
	lookErr string
}

// failedSend is a task ROLL-009 could not start through the old instance
// of slot k: what the send got, judged once the roll is over.
type failedSend struct {
	c    *client.Client
	k    int
	resp *a2a.SendMessageResponse
	err  error
}

// drainOutcome is how a judged ROLL-009 config ended.
type drainOutcome struct {
	reg   *drainReg
	end   a2a.TaskState
	ended bool
	// still is what the task showed last when it did not end; orphaned
	// says it did not change at all while the spec waited (moved).
	still    string
	orphaned bool
	// lost: the agent answered TaskNotFoundError for the task after the
	// roll: it was lost across the roll, not slow.
	lost  bool
	endAt time.Time
}

// ROLL-009 (§3.1.7, §4.3.3, scenario 2): while every instance is replaced
// one by one, the spec starts tasks of its own on each old instance and
// registers a config for each: through the old instance once the new one is
// ready (before the drain), through the old instance's own URL once it was
// told to drain, and through the new instance while the old one drains. A
// refusal is honest and retried within patience; a refusal of the
// receiver's URL itself is the harness's problem (suites.RefusesWebhookURL).
// Every accepted config (credentials of its own) must get the terminal
// state its task reached, with those credentials and about its own task
// (judgePushes: late is not lost); the counts per phase, deliveries, losses
// and duplicates are reported.
var _ = suites.Spec("ROLL-009", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 2)
	roll, ok := t.Env.Topology.(suites.SteppedRoller)
	if !ok {
		t.CouldNotRun("driver %q cannot stop a rolling replacement between its steps (new instance ready, old instance draining); the embedded and process drivers can.", driverName(t))
	}
	if !t.Card().PushNotifications() {
		t.NotApplicable("the card does not advertise capabilities.pushNotifications (DISC-014 checks that every push operation is then refused).")
	}
	if t.Env.Webhook == nil {
		t.CouldNotRun("the run has no webhook receiver.")
	}
	script := slowScript(step)
	// Built once here, so that a run without scripted behaviour ends
	// could-not-run before anything changes in the deployment.
	_ = t.Scripted(script)

	var (
		regs    []*drainReg
		perSlot = map[int][]*drainReg{}
		// The first task that could not be started, judged after the roll.
		failedStart *failedSend
		// A hook must not end the spec inside the driver's roll (it would
		// leave an instance half replaced): what it raises is re-raised
		// once the roll has finished.
		raised any
		steps  []string
	)
	began := time.Now()
	// Retries of refused registrations hold the roll; together they get
	// PatienceFactor times patience, so that an agent refusing throughout
	// ends with its refusals reported rather than the spec's timeout.
	budget := began.Add(suites.PatienceFactor * t.Patience())

	// deadline is patience from now, within the budget.
	deadline := func() time.Time {
		if d := time.Now().Add(t.Patience()); d.Before(budget) {
			return d
		}
		return budget
	}
	pause := func(ctx context.Context) {
		select {
		case <-ctx.Done():
		case <-time.After(retryPause):
		}
	}

	register := func(ctx context.Context, reg *drainReg, c, look *client.Client, draining bool) {
		reg.hook = t.NewPushHook(pushSchemes[len(regs)%len(pushSchemes)])
		reg.token = reg.hook.Token
		until := deadline()
		for {
			// This spec judges the refusals itself ("refused, not
			// dropped"): each one is counted here, not retried by the client.
			got, err := c.CreateTaskPushNotificationConfig(client.NoBusyRetry(ctx), reg.hook.For(reg.task.ID))
			if err == nil {
				reg.accepted, reg.acked = true, time.Since(began)
				reg.hook.Accepted(reg.task.ID, got)
				reg.id = reg.hook.Config.ID
				break
			}
			reg.refusals++
			reg.refusal = suites.ErrText(err)
			ce, _ := client.AsError(err)
			switch {
			case suites.RefusesWebhookURL(err):
				reg.badURL = true
				return
			case !busy(ce):
				return // refused for good: counted, nothing to deliver
			case draining && ce != nil && ce.Class == client.Transport:
				reg.gone = true // the draining instance is gone
				return
			case time.Now().After(until) || ctx.Err() != nil:
				return
			}
			pause(ctx)
		}
		// The config is owed the task's terminal state only if that came
		// after the acknowledgement: a task still running now ends later.
		task, err := t.Get(ctx, look, reg.task.ID)
		switch {
		case err != nil:
			reg.lookErr = suites.ErrText(err)
		case task.Status.State.Terminal() || task.Status.State.Interrupted():
			reg.atRest, reg.rest = true, task.Status.State
		}
	}

	at := func(ctx context.Context, stage string, k int, oldURL, newURL string) {
		defer func() {
			if r := recover(); r != nil && raised == nil {
				raised = r
			}
		}()
		if raised != nil || failedStart != nil {
			return
		}
		switch stage {
		case suites.RollBefore:
			steps = append(steps, fmt.Sprintf("instance %d at %s", k, since(began)))
		case suites.RollReady:
			old := via(t, inst, k)
			for _, phase := range drainPhases {
				// A send refused for the moment is retried, as a
				// registration is.
				var resp *a2a.SendMessageResponse
				var err error
				for until := deadline(); ; pause(ctx) {
					msg := t.Scripted(script)
					resp, err = t.Send(client.NoBusyRetry(ctx), old, &a2a.SendMessageRequest{Message: &msg,
						Configuration: &a2a.SendMessageConfiguration{ReturnImmediately: true}})
					ce, _ := client.AsError(err)
					if err == nil || !busy(ce) || time.Now().After(until) || ctx.Err() != nil {
						break
					}
				}
				if err != nil || resp == nil || resp.Task == nil {
					failedStart = &failedSend{old, k, resp, err}
					return
				}
				reg := &drainReg{phase: phase, slot: k, task: resp.Task}
				regs = append(regs, reg)
				perSlot[k] = append(perSlot[k], reg)
			}
			reg := perSlot[k][0]
			reg.via = fmt.Sprintf("the old instance %d, pinned through the balancer, its successor ready", k)
			register(ctx, reg, old, old, false)
		case suites.RollDraining:
			for _, reg := range perSlot[k] {
				switch reg.phase {
				case phaseDraining:
					reg.via = fmt.Sprintf("the old instance %d's own URL %s, after it was told to drain", k, oldURL)
					register(ctx, reg, direct(t, oldURL), via(t, inst, k), true)
				case phaseNew:
					reg.via = fmt.Sprintf("the new instance %d, pinned through the balancer, while the old one drained", k)
					register(ctx, reg, via(t, inst, k), via(t, inst, k), false)
				}
			}
		}
	}
	gen, err := roll.RollStepped(ctx, at)
	if raised != nil {
		panic(raised)
	}
	if err != nil {
		t.Indeterminate("the rolling replacement failed: %v", err)
	}
	t.Observe("rollout", fmt.Sprintf("generation %d; replaced %v; took %s", gen, steps, since(began)))
	t.Observe("phases", phaseCounts(regs))
	if failedStart != nil {
		if ce, _ := client.AsError(failedStart.err); busy(ce) {
			t.Indeterminate("the old instance %d refused to start the spec's task for as long as the spec could wait (%s), so nothing was registered through it", failedStart.k, suites.ErrText(failedStart.err))
		}
		t.NoTask(failedStart.c, script, failedStart.resp, failedStart.err)
	}

	var judged []*drainReg
	registered, accepted, badURL := 0, 0, 0
	for _, reg := range regs {
		if reg.token != "" {
			registered++
		}
		if reg.badURL {
			badURL++
		}
		if !reg.accepted {
			continue
		}
		accepted++
		if !reg.atRest && reg.lookErr == "" {
			judged = append(judged, reg)
		}
	}
	uncheckedPhases(t, regs, judged)
	if accepted == 0 {
		if badURL > 0 {
			t.CouldNotRun("%s", t.WebhookURLRefused(t.Env.Webhook.Base()+"/hook/…", "CreateTaskPushNotificationConfig", errors.New(refusalTexts(regs))))
		}
		t.Indeterminate("the agent refused every one of the %d registrations (%s), honestly, so no accepted config was there to judge", registered, refusalTexts(regs))
	}
	if len(judged) == 0 {
		first := firstAccepted(regs)
		if first.lookErr != "" {
			t.Indeterminate("no accepted config could be judged: looking at task %s after its config was acknowledged failed (%s)", first.task.ID, first.lookErr)
		}
		t.ShowedRunning(script, &a2a.Task{ID: first.task.ID, Status: a2a.TaskStatus{State: first.rest}},
			"every task was at rest when its config was acknowledged, so no transition was owed to any config")
	}

	// Each judged config: still listed while its task runs, then, once the
	// task ended, the delivery of that state (judgePushes: late is not
	// lost).
	c := via(t, inst, -1)
	var hooks []*suites.PushHook
	for _, reg := range judged {
		hooks = append(hooks, reg.hook)
	}
	t.Observe("configs-listed-after-roll", fmt.Sprintf("%d of %d configs checked (the others' tasks had ended)", listedAfterRoll(ctx, t, c, hooks, gen), len(hooks)))
	out := make([]drainOutcome, len(judged))
	var wg sync.WaitGroup
	for i, reg := range judged {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := drainOutcome{reg: reg}
			o.end, o.still, o.orphaned, o.lost = awaitEndOrLoss(ctx, t, c, reg.task.ID)
			o.ended, o.endAt = o.end.Terminal(), time.Now()
			out[i] = o
		}()
	}
	wg.Wait()

	unended, orphaned, lost, lostPushed := 0, 0, 0, 0
	var owed []*owedPush
	for i, o := range out {
		if o.lost {
			// Lost across the roll (ROLL-003 judges the loss): the config
			// is judged on the pushes that came before the task was lost.
			// A terminal state pushed then is the end it was owed.
			lost++
			for _, d := range o.reg.hook.Acknowledged(t) {
				if s, ok := d.Resp.State(); ok && d.TaskID() == o.reg.task.ID && s.Terminal() {
					out[i].end, out[i].ended, out[i].endAt = s, true, d.At
				}
			}
			if !out[i].ended {
				continue
			}
			lostPushed++
			o = out[i]
		}
		if !o.ended {
			// One diagnosis each (fate): orphaned tasks are reported as
			// such below, never as slow.
			if o.orphaned {
				orphaned++
			} else {
				unended++
			}
			continue
		}
		reg := o.reg
		owed = append(owed, &owedPush{hook: reg.hook, taskID: reg.task.ID, contextID: reg.task.ContextID, end: o.end, endAt: o.endAt,
			where: fmt.Sprintf("push config %s of task %s (phase %s), registered through %s, acknowledged %s after the roll to generation %d began",
				configID(reg.id), reg.task.ID, reg.phase, reg.via, reg.acked.Round(time.Millisecond), gen)})
	}
	// Deliveries to a config that was not judged are still checked: its
	// credentials and its task are the config's own, judged or not.
	for _, reg := range regs {
		if reg.accepted && !slices.Contains(judged, reg) {
			t.Record(t.PushBodies(reg.hook, reg.task.ID, reg.task.ContextID, "push config "+configID(reg.id)+" of task "+reg.task.ID+" (phase "+reg.phase+", not judged)")...)
		}
	}
	var slot int
	for k, name := range inst.InstanceNames() {
		if name != "" {
			slot = k
			break
		}
	}
	pv := judgePushes(ctx, t, owed, witnessVia(ctx, t, via(t, inst, slot), script, fmt.Sprintf("started through instance %d after the roll", slot)),
		began, gen, "push-delivered-mid-rollout", "§3.1.7: a config MUST persist until the task completes; §4.3.3: delivery at least once per configured webhook")
	deliveries, duplicates := 0, 0
	for _, reg := range regs {
		if reg.accepted {
			ds := reg.hook.Deliveries(t)
			deliveries += len(ds)
			duplicates += dups(ds)
		}
	}
	t.Observe("push-latency", latencyText(pv.latencies))
	t.Observe("counts", fmt.Sprintf("%d configs registered, %d accepted, %d judged: %d got their task's terminal state, %d lost, %d late beyond patience, %d with bad deliveries, %d whose task did not end within %s; %d deliveries, %d duplicate(s); %d accepted but not judged (task at rest before the acknowledgement, or not readable)",
		registered, accepted, len(judged), pv.delivered, pv.lost, pv.late, pv.bad, unended, t.Patience().Round(time.Millisecond), deliveries, duplicates, accepted-len(judged)))
	// Silence is the agent's when the harness configured the path itself
	// (the embedded agent) or the run showed the agent reaches the receiver.
	// Configs late beyond the patience as well as lost ones: with the
	// receiver never shown reachable, neither tells anything of the roll.
	if why := t.ReachUnshown(nil); pv.lost+pv.late > 0 && why != "" && !t.Reach().Vouched() {
		t.CouldNotRun("%d accepted config(s) got no push, and %s", pv.lost+pv.late, why)
	}
	t.Record(pv.losses...)
	if lost > 0 {
		t.Finding("%s of %d lost in the roll (e.g. %s): the agent answers TaskNotFoundError for %s; %d of them had pushed their terminal state before (ROLL-003 judges the loss)",
			plural(lost, "task"), len(judged), firstLost(out), map[bool]string{true: "it", false: "them"}[lost == 1], lostPushed)
	}
	if lost > lostPushed {
		t.Indeterminate("%s of %d %s lost in the roll before any terminal state of %s was pushed (e.g. %s), so their configs could not be judged: a lost task will not end to be pushed (ROLL-003 judges the loss)",
			plural(lost-lostPushed, "task"), len(judged), map[bool]string{true: "was", false: "were"}[lost-lostPushed == 1],
			map[bool]string{true: "it", false: "theirs"}[lost-lostPushed == 1], firstLost(out))
	}
	if orphaned > 0 {
		// One situation, one diagnosis: a task that stopped changing
		// after the roll is orphaned by it, as ROLL-003 says, which judges
		// the task; its config is owed a terminal push that cannot come.
		t.Finding("%s of %d stopped changing after the roll (e.g. %s): orphaned by the roll, whose client and push configs wait for an end that will not come (ROLL-003 judges the task)",
			plural(orphaned, "task"), len(judged), firstOrphan(out))
		t.Indeterminate("%s of %d %s orphaned by the roll (e.g. %s), so their configs could not be judged: their tasks will not end to be pushed (ROLL-003 judges the orphaning)",
			plural(orphaned, "task"), len(judged), map[bool]string{true: "was", false: "were"}[orphaned == 1], firstOrphan(out))
	}
	if unended > 0 {
		// A wait that ran out of patience leaves those configs unjudged:
		// indeterminate, as every spec's wait for a state is (losses found
		// are reported first).
		t.Indeterminate("timed out after %s waiting for %s of %d to reach a terminal state (e.g. %s), so their configs could not be judged",
			t.Patience().Round(time.Millisecond), plural(unended, "task"), len(judged), firstStill(out))
	}
	if pv.late > 0 {
		t.Indeterminate("%s", pv.lateReason(t))
	}
})

// awaitEnd polls the task until it is terminal or patience runs out; it
// returns the last state seen and, when it did not end, the diagnosis of
// what became of it (fate.diagnosis).
func awaitEnd(ctx context.Context, t *suites.T, c *client.Client, id string) (a2a.TaskState, string) {
	f := awaitFate(ctx, t, c, id, nil, time.Now().Add(t.Patience()))
	if f.ended {
		return f.last.Status.State, ""
	}
	return "", f.diagnosis(t.Patience())
}

// awaitEndOrLoss is awaitEnd, and says whether the task was orphaned by the
// roll or lost in it (fate). A task the agent answers TaskNotFoundError for
// at once is asked for again a second later (a store that shows a write
// late is not a lost task), and not awaited for the whole patience.
func awaitEndOrLoss(ctx context.Context, t *suites.T, c *client.Client, id string) (end a2a.TaskState, still string, orphaned, lost bool) {
	f := awaitFate(ctx, t, c, id, nil, time.Now())
	if f.lost() {
		f = awaitFate(ctx, t, c, id, nil, time.Now().Add(time.Second))
		if f.lost() && f.last == nil {
			return "", f.diagnosis(t.Patience()), false, true
		}
	}
	if !f.ended {
		f = awaitFate(ctx, t, c, id, f.last, time.Now().Add(t.Patience()))
	}
	if f.ended {
		return f.last.Status.State, "", false, false
	}
	return "", f.diagnosis(t.Patience()), f.orphaned(), f.lost()
}

// firstLost is what the first task lost in the roll showed.
func firstLost(out []drainOutcome) string {
	for _, o := range out {
		if o.lost {
			return o.still
		}
	}
	return ""
}

// unchanged reports whether a task read again shows nothing new: the same
// state and status timestamp, history and artifacts.
func unchanged(seen, last *a2a.Task) bool {
	return last.Status.State == seen.Status.State && last.Status.Timestamp == seen.Status.Timestamp && len(last.History) == len(seen.History) &&
		invariants.ArtifactsOf(last.Artifacts).Beyond(invariants.ArtifactsOf(seen.Artifacts)) == ""
}

// firstOrphan is what the first orphaned task showed.
func firstOrphan(out []drainOutcome) string {
	for _, o := range out {
		if o.orphaned {
			return o.still
		}
	}
	return ""
}

// busy reports a refusal that says "not now": 503 (or 502, 504 from a
// proxy, 429), gRPC or HTTP+JSON UNAVAILABLE, or no answer at all.
func busy(ce *client.Error) bool { return ce != nil && suites.Busy(ce) }

// phaseCounts says, per phase, how many configs were registered, accepted
// (and after how many refusals) and refused.
func phaseCounts(regs []*drainReg) string {
	var parts []string
	for _, phase := range drainPhases {
		n, acc, retried, refused, gone := 0, 0, 0, 0, 0
		for _, r := range regs {
			if r.phase != phase || r.token == "" {
				continue
			}
			n++
			switch {
			case r.accepted:
				acc++
				if r.refusals > 0 {
					retried++
				}
			case r.gone:
				gone++
			default:
				refused++
			}
		}
		p := fmt.Sprintf("%s: %d registered, %d accepted (%d after a refusal), %d refused", phase, n, acc, retried, refused)
		if gone > 0 {
			p += fmt.Sprintf(", %d unanswered (the draining instance was gone)", gone)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

// uncheckedPhases marks as unchecked each phase the spec's title names (the
// old instance just before its drain, the new one while the old drains) of
// which no config could be judged, with why: every registration refused,
// the task already at rest, or the task unreadable after the
// acknowledgement. The draining instance's own URL is not among them: an
// instance that is gone accepted nothing, so nothing is owed there.
func uncheckedPhases(t *suites.T, regs, judged []*drainReg) {
	for _, phase := range []string{phaseBefore, phaseNew} {
		if slices.ContainsFunc(judged, func(r *drainReg) bool { return r.phase == phase }) {
			continue
		}
		var why []string
		for _, r := range regs {
			if r.phase != phase {
				continue
			}
			switch {
			case !r.accepted:
				why = append(why, "task "+r.task.ID+": not accepted ("+suites.Cut(r.refusal, 160)+")")
			case r.lookErr != "":
				why = append(why, "task "+r.task.ID+": unreadable after the acknowledgement ("+r.lookErr+")")
			case r.atRest:
				why = append(why, "task "+r.task.ID+": already "+string(r.rest)+" when acknowledged")
			}
		}
		t.Unchecked("configs registered "+phase+" get their task's terminal state", strings.Join(why, "; "))
	}
}

// refusalTexts lists the distinct last refusals, bounded.
func refusalTexts(regs []*drainReg) string {
	seen := map[string]bool{}
	var out []string
	for _, r := range regs {
		if r.refusal != "" && !seen[r.refusal] {
			seen[r.refusal] = true
			out = append(out, r.refusal)
		}
	}
	sort.Strings(out)
	if len(out) > maxRefusalTexts {
		out = append(out[:maxRefusalTexts], fmt.Sprintf("%d more", len(out)-maxRefusalTexts))
	}
	if len(out) == 0 {
		return "no answer"
	}
	return strings.Join(out, "; ")
}

func firstAccepted(regs []*drainReg) *drainReg {
	for _, r := range regs {
		if r.accepted {
			return r
		}
	}
	return regs[0]
}

// firstStill is what the first task that did not end showed last.
func firstStill(out []drainOutcome) string {
	for _, o := range out {
		if !o.ended && !o.orphaned && !o.lost {
			return o.still
		}
	}
	return ""
}

// configID names a config in a report, also one the agent gave no id.
func configID(id string) string {
	if id == "" {
		return "(no id returned)"
	}
	return id
}

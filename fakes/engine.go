package fakes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// script is the work left for a task. It is stored with the task, so that
// when the instance running it dies or drains, another instance carries on
// from the next step (a resumed step waits its whole delay again).
type script struct {
	Directive directive.Directive `json:"directive"`
	// Text is what the artifact carries: the directive's text, else the
	// message's text.
	Text       string `json:"text"`
	Next       int    `json:"next"`
	ArtifactID string `json:"artifactId"`
}

// stamp formats a status timestamp as spec §5.6.1 asks: UTC, "Z", milliseconds.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// behaviourFor decides what a message asks for: its directive part (when the
// extension is on), else a prompt-map phrase (when the map is on), else echo.
func (a *Agent) behaviourFor(msg *a2a.Message) (directive.Directive, string, *opError) {
	text := directive.InputText(msg.Parts)
	d := directive.Directive{Version: directive.Version}
	found := false
	if a.directiveOn {
		var err error
		d, found, err = directive.Find(msg.Parts)
		if err != nil {
			return d, "", errInvalidParams("message.parts", "%v", err)
		}
	}
	if !found && len(a.prompts) > 0 {
		if pd, ok := matchPrompt(a.prompts, text); ok {
			d, found = pd, true
		}
	}
	if !found {
		d = directive.Directive{Version: directive.Version}
		if a.opts.PlainInputRequired {
			d.Outcome = directive.OutcomeInputRequired
		}
	}
	if min := a.opts.StepDelay; min > d.Delay() {
		d.DelayMs = min.Milliseconds()
	}
	if d.Text != "" {
		text = d.Text
	}
	return d, text, nil
}

func agentMessage(taskID, contextID, text string) *a2a.Message {
	return &a2a.Message{MessageID: newID(), TaskID: taskID, ContextID: contextID, Role: a2a.RoleAgent,
		Parts: []a2a.Part{a2a.TextPart(text)}}
}

// statusMessage is the message a status carries: interrupted states MUST
// explain what they need (spec §7.6.1); failures say why.
func statusMessage(rec *store.Task, sc *script, state a2a.TaskState) *a2a.Message {
	text := sc.Directive.Text
	if text == "" {
		switch state {
		case a2a.TaskStateFailed:
			text = "The task failed, as its directive asked."
		case a2a.TaskStateRejected:
			text = "The agent rejected the task, as its directive asked."
		case a2a.TaskStateInputRequired:
			text = "More input is required: send another message with this taskId."
		case a2a.TaskStateAuthRequired:
			text = "Authorization is required: send another message with this taskId once authorized."
		default:
			return nil
		}
	} else if state == a2a.TaskStateWorking || state == a2a.TaskStateCompleted {
		return nil
	}
	return agentMessage(rec.Task.ID, rec.Task.ContextID, text)
}

// emit saves a changed task (Version already bumped), appends its event to
// the shared log and enqueues a push per registered config, all in the
// caller's transaction: a transition is either fully visible or not at all.
// state is the new status for a status event, "" for an artifact event.
func (a *Agent) emit(tx *store.Tx, rec *store.Task, ev a2a.StreamResponse, state a2a.TaskState) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	if err := tx.SaveTask(rec); err != nil {
		return err
	}
	if _, err := tx.AppendEvent(store.Event{TaskID: rec.Task.ID, Version: rec.Version, Origin: a.owner, State: state, Body: body}); err != nil {
		return err
	}
	return a.enqueuePushes(tx, rec.Task.ID, state, body)
}

// emitUnpushed is emit without the pushes (cancel-unpushed-across-replicas).
func (a *Agent) emitUnpushed(tx *store.Tx, rec *store.Task, ev a2a.StreamResponse, state a2a.TaskState) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	if err := tx.SaveTask(rec); err != nil {
		return err
	}
	_, err = tx.AppendEvent(store.Event{TaskID: rec.Task.ID, Version: rec.Version, Origin: a.owner, State: state, Body: body})
	return err
}

// runsElsewhere reports whether another instance holds a live lease on the
// task: it is running the task's script. The replicated-deployment faults
// misbehave only then, so that on a single instance they are invisible.
func (a *Agent) runsElsewhere(rec *store.Task, now time.Time) bool {
	return rec.Owner != "" && rec.Owner != a.owner && rec.LeaseUntil.After(now)
}

func statusEvent(rec *store.Task) a2a.StreamResponse {
	return a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{
		TaskID: rec.Task.ID, ContextID: rec.Task.ContextID, Status: rec.Task.Status}}
}

// newTaskRecord builds a task in SUBMITTED for msg, leased to this instance.
func (a *Agent) newTaskRecord(id string, msg a2a.Message, sc script) *store.Task {
	now := time.Now()
	if (msg.ContextID == "" && !a.faults.has(faultNoContextID)) || a.faults.has(faultContextIDSubstituted) {
		msg.ContextID = newID()
	}
	msg.TaskID = id
	scriptJSON, _ := json.Marshal(sc)
	return &store.Task{
		Task: a2a.Task{ID: id, ContextID: msg.ContextID,
			Status:  a2a.TaskStatus{State: a2a.TaskStateSubmitted, Timestamp: stamp(now)},
			History: []a2a.Message{msg}},
		StatusTime: now, Version: 1, Script: scriptJSON,
		Owner: a.owner, LeaseUntil: now.Add(a.opts.LeaseTTL), CreatedAt: now,
	}
}

// createTask stores a new task and starts its worker. replace is only for
// faults that re-create a task under an id the client chose.
func (a *Agent) createTask(ctx context.Context, id string, msg a2a.Message, d directive.Directive, text string,
	inline *a2a.TaskPushNotificationConfig, replace bool) (*store.Task, *opError) {
	sc := script{Directive: d, Text: text, ArtifactID: newID()}
	rec := a.newTaskRecord(id, msg, sc)
	rec.Principal = principalOf(ctx)
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		var err error
		if replace {
			err = tx.ReplaceTask(rec)
		} else {
			err = tx.InsertTask(rec)
		}
		if err != nil {
			return err
		}
		if inline != nil {
			return a.putConfig(ctx, tx, withTask(*inline, id))
		}
		return nil
	})
	if err != nil {
		return nil, a.storeError(err)
	}
	a.keepCopy(rec)
	a.startWorker(rec.Task.ID, sc)
	return rec, nil
}

func withTask(c a2a.TaskPushNotificationConfig, taskID string) a2a.TaskPushNotificationConfig {
	c.TaskID = taskID
	if c.ID == "" {
		c.ID = newID()
	}
	return c
}

// continueTask handles a message that names an existing task. started
// reports whether the message resumed an interrupted task (a worker runs).
func (a *Agent) continueTask(ctx context.Context, msg a2a.Message, d directive.Directive, text string,
	inline *a2a.TaskPushNotificationConfig) (*store.Task, *opError) {
	var (
		rec   *store.Task
		sc    *script
		opErr *opError
	)
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		var err error
		rec, err = tx.Task(msg.TaskID)
		if errors.Is(err, store.ErrNotFound) {
			opErr = a.taskNotFound(msg.TaskID)
			return opErr
		}
		if err != nil {
			return err
		}
		if !a.mayAccess(ctx, rec) {
			opErr = a.hiddenTask(rec, msg.TaskID)
			return opErr
		}
		if msg.ContextID != "" && msg.ContextID != rec.Task.ContextID && !a.faults.has(faultContextMismatchAccepted) {
			opErr = errInvalidParams("message.contextId", "contextId %q does not match task %s (context %q)",
				msg.ContextID, rec.Task.ID, rec.Task.ContextID)
			return opErr
		}
		state := rec.Task.Status.State
		own := a.copyOf(rec) // nil unless a stale-copy fault keeps an older copy
		if own != nil && state.Terminal() && !own.Task.Status.State.Terminal() && a.faults.has(faultStaleCopyReopensEnded) {
			// This instance goes by its own copy: the task still waits (or,
			// when its copy was written mid-turn, still runs).
			rec.Task.Status, state = own.Task.Status, own.Task.Status.State
		}
		reopen := false
		if state.Terminal() {
			switch {
			case a.faults.has(faultTerminalStateMutates):
				reopen = true
			case a.faults.has(faultTerminalMessageInvalidParams):
				opErr = errInvalidParams("message.taskId", "task %s is %s", rec.Task.ID, state)
				return opErr
			default:
				opErr = errUnsupported(fmt.Sprintf("Task %s is in terminal state %s: it accepts no more messages; "+
					"start a new task (referenceTaskIds may point back to this one)", rec.Task.ID, state))
				return opErr
			}
		}
		if state == a2a.TaskStateAuthRequired && a.opts.RefuseAuthRequiredMessages {
			opErr = errUnsupported(fmt.Sprintf("Task %s waits for authorization out of band: it accepts no messages", rec.Task.ID))
			return opErr
		}
		if own != nil && state.Interrupted() && a.faults.has(faultResumeFromStaleCopy) {
			// Resumed from the copy this instance left: what another
			// instance's turn added is overwritten.
			rec.Task.History, rec.Task.Artifacts = own.Task.History, own.Task.Artifacts
		}
		if msg.ContextID == "" && a.faults.has(faultFollowupNewContext) {
			rec.Task.ContextID = newID()
		}
		msg.ContextID = rec.Task.ContextID
		rec.Task.History = append(rec.Task.History, msg)
		rec.Version++
		if inline != nil {
			if err := a.putConfig(ctx, tx, withTask(*inline, rec.Task.ID)); err != nil {
				return err
			}
		}
		if !state.Interrupted() && !reopen {
			// A message to a running task joins its history; the script goes on.
			return tx.SaveTask(rec)
		}
		// Resume: WORKING at once (the first step of the new script), the rest
		// of the script after it.
		now := time.Now()
		sc = &script{Directive: d, Text: text, Next: 1, ArtifactID: newID()}
		rec.Task.Status = a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: stamp(now)}
		rec.StatusTime = now
		rec.Script, _ = json.Marshal(sc)
		rec.Owner, rec.LeaseUntil = a.owner, now.Add(a.opts.LeaseTTL)
		return a.emit(tx, rec, statusEvent(rec), a2a.TaskStateWorking)
	})
	if opErr != nil {
		return nil, opErr
	}
	if err != nil {
		return nil, a.storeError(err)
	}
	a.keepCopy(rec)
	if sc != nil {
		a.startWorker(rec.Task.ID, *sc)
	}
	return rec, nil
}

// cancelTask moves a non-terminal task to CANCELED. The check and the write
// are one transaction, so the first terminal write wins: a worker that
// finishes at the same moment finds the task terminal and stops.
func (a *Agent) cancelTask(ctx context.Context, id string) (*store.Task, *opError) {
	var (
		rec   *store.Task
		opErr *opError
		// hide: other-identity-cancel-applied cancels another identity's
		// task and answers as for an unknown id.
		hide bool
	)
	err := a.st.Update(ctx, func(tx *store.Tx) error {
		var err error
		rec, err = tx.Task(id)
		if errors.Is(err, store.ErrNotFound) {
			opErr = a.taskNotFound(id)
			return opErr
		}
		if err != nil {
			return err
		}
		if !a.mayAccess(ctx, rec) {
			if !a.visible(rec) || !a.faults.has(faultOtherIdentityCancelApplied) {
				opErr = a.hiddenTask(rec, id)
				return opErr
			}
			hide = true
		}
		if state := rec.Task.Status.State; state.Terminal() {
			if a.faults.has(faultCancelTerminalAccepted) {
				opErr = errAckOnly // answer with the task as it is, write nothing
				return opErr
			}
			// Cancel of an already-canceled task is answered like any other
			// terminal task (the error table's reading of spec §3.1.5, not
			// §3.3.1's idempotent one; both are allowed), or as for a purged
			// task (§3.3.1 allows that too).
			if state == a2a.TaskStateCanceled && a.opts.PurgedOnSecondCancel {
				opErr = a.taskNotFound(id)
				return opErr
			}
			opErr = errNotCancelable(id, state)
			return opErr
		}
		now := time.Now()
		if a.faults.has(faultCancelAckedNotPropagated) && rec.Owner != "" && rec.Owner != a.owner && rec.LeaseUntil.After(now) {
			// Acknowledge without telling the instance that runs the task.
			rec.Task.Status = a2a.TaskStatus{State: a2a.TaskStateCanceled, Timestamp: stamp(now)}
			opErr = errAckOnly
			return opErr
		}
		rec.Task.Status = a2a.TaskStatus{State: a2a.TaskStateCanceled, Timestamp: stamp(now)}
		rec.StatusTime = now
		if a.faults.has(faultCancelExecutorRunsOn) && rec.Owner != "" && rec.Owner != a.owner && rec.LeaseUntil.After(now) {
			// Written, but told to no one: no event, no push; the script and
			// the lease stay with the instance that runs the task.
			rec.Version++
			return tx.SaveTask(rec)
		}
		rec.Script = nil
		rec.Version++
		if a.faults.has(faultCancelSilentAcrossReplicas) && a.runsElsewhere(rec, now) {
			// Written and the executor stopped (no script left), but no
			// event: no stream hears of it, no push goes out.
			rec.Owner, rec.LeaseUntil = "", time.Time{}
			return tx.SaveTask(rec)
		}
		if a.faults.has(faultCancelUnpushedAcrossReplicas) && a.runsElsewhere(rec, now) {
			// Written, and the event reaches the executor and every
			// stream; the pushes are the running instance's, which never
			// sends this one.
			return a.emitUnpushed(tx, rec, statusEvent(rec), a2a.TaskStateCanceled)
		}
		return a.emit(tx, rec, statusEvent(rec), a2a.TaskStateCanceled)
	})
	if hide {
		return nil, a.taskNotFound(id)
	}
	if opErr == errAckOnly {
		return rec, nil
	}
	if opErr != nil {
		return nil, opErr
	}
	if err != nil {
		return nil, a.storeError(err)
	}
	a.keepCopy(rec)
	return rec, nil
}

// errAckOnly rolls back the cancel transaction of cancel-acked-not-propagated.
var errAckOnly = &opError{message: "acknowledged without effect"}

func (a *Agent) storeError(err error) *opError {
	var oe *opError
	if errors.As(err, &oe) {
		return oe
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return errUnavailable("request canceled")
	}
	a.log.Error("store", "err", err)
	return errInternal("the agent's store failed")
}

// visible hides tasks created before this instance started, under
// lose-tasks-on-restart and its kin (as if its state were kept in memory).
func (a *Agent) visible(rec *store.Task) bool {
	if !a.losesTasks() {
		return true
	}
	return !rec.CreatedAt.Before(a.startedAt.Truncate(time.Millisecond))
}

func (a *Agent) startWorker(taskID string, sc script) {
	a.workers.add()
	go a.run(taskID, sc)
}

type waitResult int

const (
	waitElapsed waitResult = iota
	waitShutdown
	waitGone // the task turned terminal or another instance took it over
)

// run executes a task's script step by step. It stops as soon as it sees the
// task terminal (a cancel through any instance), when it lost its lease, and
// at shutdown (handing its lease back so another instance carries on).
func (a *Agent) run(taskID string, sc script) {
	defer a.workers.done()
	sub := a.hub.subscribe(taskID)
	defer sub.close()
	// A terminal event written before the subscription existed (a cancel
	// through another instance, right after creation) is never delivered to
	// it: look at the stored task once, now that later events will arrive.
	if !a.faults.has(faultCancelThenComplete) {
		ctx, cancel := context.WithTimeout(context.Background(), store.BusyTimeout)
		rec, err := a.st.GetTask(ctx, taskID)
		cancel()
		if err == nil && rec.Task.Status.State.Terminal() {
			a.releaseTask(taskID)
			return
		}
	}
	steps := sc.Directive.Steps()
	for sc.Next < len(steps) {
		st := steps[sc.Next]
		switch a.wait(taskID, st.Delay, sub) {
		case waitShutdown:
			a.releaseTask(taskID)
			return
		case waitGone:
			a.releaseTask(taskID)
			return
		}
		cont, err := a.step(taskID, &sc, st)
		if err != nil {
			if a.workCtx.Err() == nil {
				a.log.Warn("task step failed; handing the task back", "task", taskID, "err", err)
			}
			a.releaseTask(taskID)
			return
		}
		if !cont {
			return
		}
	}
}

func (a *Agent) releaseTask(taskID string) {
	ctx, cancel := context.WithTimeout(context.Background(), store.BusyTimeout)
	defer cancel()
	if err := a.st.ReleaseLease(ctx, taskID, a.owner); err != nil {
		a.log.Warn("releasing a task lease", "task", taskID, "err", err)
	}
}

// wait sleeps before a step, renewing the lease and watching the task's events
// for a terminal state written by anyone.
func (a *Agent) wait(taskID string, d time.Duration, sub *subscription) waitResult {
	timer := time.NewTimer(d)
	defer timer.Stop()
	renew := time.NewTicker(a.opts.LeaseTTL / 3)
	defer renew.Stop()
	ignoreCancel := a.faults.has(faultCancelThenComplete)
	for {
		select {
		case <-timer.C:
			return waitElapsed
		case <-a.workCtx.Done():
			return waitShutdown
		case <-sub.ready:
			evs, closed := sub.take()
			for _, e := range evs {
				if e.State.Terminal() && !ignoreCancel {
					return waitGone
				}
			}
			if closed {
				return waitShutdown
			}
		case <-renew.C:
			ok, err := a.st.RenewLease(a.workCtx, taskID, a.owner, time.Now().Add(a.opts.LeaseTTL))
			if err == nil && !ok {
				return waitGone
			}
		}
	}
}

// step applies one transition in one transaction, after checking that this
// instance still owns the task and that it is not terminal.
func (a *Agent) step(taskID string, sc *script, st directive.Step) (cont bool, err error) {
	ignoreCancel := a.faults.has(faultCancelThenComplete)
	steps := sc.Directive.Steps()
	ctx, cancel := context.WithTimeout(context.Background(), store.BusyTimeout)
	defer cancel()
	var local *store.Event // cancel-executor-runs-on: told to this instance only
	var saved *store.Task  // what the step wrote (the stale-copy faults)
	defer func() {
		if local != nil && err == nil {
			a.hub.publish(*local)
		}
		if err == nil {
			a.keepCopy(saved)
		}
	}()
	err = a.st.Update(ctx, func(tx *store.Tx) error {
		next := *sc
		rec, err := tx.Task(taskID)
		if err != nil {
			return err
		}
		cont = false
		if rec.Owner != a.owner {
			return nil
		}
		if runsOn := a.faults.has(faultCancelExecutorRunsOn) && rec.Task.Status.State == a2a.TaskStateCanceled && rec.Script != nil; runsOn {
			local, err = a.stepCanceled(tx, rec, sc, st)
			cont = err == nil && sc.Next < len(steps) && !st.State.Terminal() && !st.State.Interrupted()
			return err
		}
		if rec.Task.Status.State.Terminal() && !ignoreCancel {
			rec.Owner, rec.LeaseUntil, rec.Script = "", time.Time{}, nil
			return tx.SaveTask(rec)
		}
		now := time.Now()
		var ev a2a.StreamResponse
		if st.State != "" {
			status := a2a.TaskStatus{State: st.State, Timestamp: stamp(now)}
			if m := statusMessage(rec, sc, st.State); m != nil && !(st.State == a2a.TaskStateAuthRequired && a.faults.has(faultAuthRequiredNoMessage)) {
				status.Message = m
				rec.Task.History = append(rec.Task.History, *m)
			}
			rec.Task.Status, rec.StatusTime = status, now
			ev = statusEvent(rec)
		} else {
			ev = addChunk(&rec.Task, sc, st)
		}
		next.Next++
		done := next.Next >= len(steps) || st.State.Terminal() || st.State.Interrupted()
		if done {
			rec.Script, rec.Owner, rec.LeaseUntil = nil, "", time.Time{}
		} else {
			rec.Script, _ = json.Marshal(next)
			rec.LeaseUntil = now.Add(a.opts.LeaseTTL)
		}
		rec.Version++
		if err := a.emit(tx, rec, ev, st.State); err != nil {
			return err
		}
		*sc = next
		cont = !done
		saved = rec
		return nil
	})
	return cont, err
}

// adoptOrphans carries on tasks whose instance died (lease ran out) or
// drained (lease handed back).
func (a *Agent) adoptOrphans(ctx context.Context) error {
	if a.draining.Load() || a.faults.has(faultRollOrphansTasks) {
		return nil
	}
	now := time.Now()
	ok, err := a.st.HasOrphans(ctx, now)
	if err != nil || !ok {
		return err
	}
	recs, err := a.st.ClaimOrphans(ctx, a.owner, now, a.opts.LeaseTTL, 16)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		var sc script
		if err := json.Unmarshal(rec.Script, &sc); err != nil {
			// Written by another build? Drop the script so that the task is
			// not re-adopted on every poll; it stays in its current state.
			a.log.Error("unreadable task script; the task will not progress", "task", rec.Task.ID, "err", err)
			id := rec.Task.ID
			if err := a.st.Update(ctx, func(tx *store.Tx) error {
				cur, err := tx.Task(id)
				if err != nil {
					return err
				}
				cur.Script, cur.Owner, cur.LeaseUntil = nil, "", time.Time{}
				return tx.SaveTask(cur)
			}); err != nil {
				a.log.Warn("clearing an unreadable script", "task", id, "err", err)
			}
			continue
		}
		a.log.Info("adopted task", "task", rec.Task.ID, "step", sc.Next)
		a.startWorker(rec.Task.ID, sc)
	}
	return nil
}

// addChunk stores the artifact chunk of step st in task (a first chunk is a
// new artifact, a later one is appended to it) and returns its event.
func addChunk(task *a2a.Task, sc *script, st directive.Step) a2a.StreamResponse {
	part := a2a.TextPart(directive.ChunkText(sc.Text, st.Chunk, st.Of))
	chunk := a2a.Artifact{ArtifactID: sc.ArtifactID, Name: "result", Parts: []a2a.Part{part}}
	appended := false
	if st.Chunk > 1 {
		for i := range task.Artifacts {
			if task.Artifacts[i].ArtifactID == sc.ArtifactID {
				task.Artifacts[i].Parts = append(task.Artifacts[i].Parts, part)
				appended = true
			}
		}
	}
	if !appended {
		task.Artifacts = append(task.Artifacts, chunk)
	}
	return a2a.StreamResponse{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: task.ID, ContextID: task.ContextID,
		Artifact: chunk, Append: st.Chunk > 1, LastChunk: st.Chunk == st.Of}}
}

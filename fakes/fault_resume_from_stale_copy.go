package fakes

import (
	"encoding/json"
	"sync"

	"github.com/a2a-conform/a2a-conform/fakes/store"
)

// faultResumeFromStaleCopy: a replica resumes a task from a stale copy and
// overwrites newer state, as a2a-python #1188 reports of
// DefaultRequestHandlerV2 on replicas sharing a TaskStore: the instance that
// worked a turn of a task keeps the task as it left it, and when a later
// follow-up to the interrupted task reaches it again, it resumes from that
// copy and saves it over the stored task. What another instance added in
// between (its turn's history and artifacts) is gone. On a single instance
// the copy is always the newest, and the fault is invisible.
var faultResumeFromStaleCopy = register(FaultInfo{
	Name:        "resume-from-stale-copy",
	Description: "An instance resuming an interrupted task with a follow-up starts from its own copy of the task, as it last left it, and saves it over the stored one: the history and the artifacts another instance's turn added in between are gone (a2a-python #1188). On a single instance the fault is invisible.",
	Specs:       []string{"ROLL-010"},
})

// copies are the tasks as this instance last wrote them, kept only under the
// stale-copy faults (resume-from-stale-copy, stale-copy-reopens-ended).
type copies struct {
	mu sync.Mutex
	m  map[string]*store.Task
}

// keepsCopies says whether the instance keeps its own copies of tasks.
func (a *Agent) keepsCopies() bool {
	return a.faults.has(faultResumeFromStaleCopy) || a.faults.has(faultStaleCopyReopensEnded)
}

// keepCopy remembers rec as this instance last wrote it (a deep copy).
func (a *Agent) keepCopy(rec *store.Task) {
	if rec == nil || !a.keepsCopies() {
		return
	}
	c := cloneTask(rec)
	a.copies.mu.Lock()
	defer a.copies.mu.Unlock()
	if a.copies.m == nil {
		a.copies.m = map[string]*store.Task{}
	}
	a.copies.m[rec.Task.ID] = c
}

// copyOf is the instance's own copy of a task, nil when it has none or it
// is no older than the stored one.
func (a *Agent) copyOf(stored *store.Task) *store.Task {
	if !a.keepsCopies() {
		return nil
	}
	a.copies.mu.Lock()
	defer a.copies.mu.Unlock()
	c := a.copies.m[stored.Task.ID]
	if c == nil || c.Version >= stored.Version {
		return nil
	}
	return cloneTask(c)
}

func cloneTask(rec *store.Task) *store.Task {
	c := *rec
	b, _ := json.Marshal(rec.Task)
	_ = json.Unmarshal(b, &c.Task)
	c.Script = append([]byte(nil), rec.Script...)
	return &c
}

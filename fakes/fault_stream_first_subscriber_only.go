package fakes

import "sync"

// faultStreamFirstSubscriberOnly: only the first open stream of a task gets
// its updates; streams opened while it is open get their snapshot and are
// then closed silently when the task ends, as with an agent that hands a
// task's one event channel to whichever stream asked first (spec §3.5.2 wants
// every stream to see every event).
var faultStreamFirstSubscriberOnly = register(FaultInfo{
	Name:        "stream-first-subscriber-only",
	Scenario:    scenarioRollout,
	Description: "Only the first open stream of a task receives its updates; a SubscribeToTask opened beside it gets the snapshot, then nothing, and is closed at the end without the terminal event.",
	Specs:       []string{"LIFE-017"},
})

// streamClaims counts the open streams per hub and task, for the fault and
// for Options.OneStreamPerTask.
var streamClaims = struct {
	sync.Mutex
	open map[*hub]map[string]int
}{open: map[*hub]map[string]int{}}

// claimStream registers an open stream of a task; first says no other stream
// of it was open. release must be called when the stream ends.
func (a *Agent) claimStream(taskID string) (first bool, release func()) {
	streamClaims.Lock()
	defer streamClaims.Unlock()
	m := streamClaims.open[a.hub]
	if m == nil {
		m = map[string]int{}
		streamClaims.open[a.hub] = m
	}
	first = m[taskID] == 0
	m[taskID]++
	return first, func() {
		streamClaims.Lock()
		defer streamClaims.Unlock()
		if m[taskID]--; m[taskID] <= 0 {
			delete(m, taskID)
		}
		if len(m) == 0 {
			delete(streamClaims.open, a.hub)
		}
	}
}

// claim takes the fault's claim when a stream is created, before its
// response starts: a client that has seen one stream's headers may act at
// once (subscribe, cancel), and the claim must already be counted then.
func (a *Agent) claim(es *eventStream) *eventStream {
	if es.sub != nil && (a.faults.has(faultStreamFirstSubscriberOnly) || a.opts.OneStreamPerTask) {
		first, release := a.claimStream(es.sub.taskID)
		es.muted, es.release = !first && a.faults.has(faultStreamFirstSubscriberOnly), release
	}
	return es
}

// streamOpen reports whether a stream of the task is open on this instance.
func (a *Agent) streamOpen(taskID string) bool {
	streamClaims.Lock()
	defer streamClaims.Unlock()
	return streamClaims.open[a.hub][taskID] > 0
}

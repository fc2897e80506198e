package fakes

import (
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
)

// eventBatch bounds one read of the event log.
const eventBatch = 256

// eventRetention is how long events stay in the log. Streams need them only
// for the tailer's poll interval; the margin covers a stalled process.
const eventRetention = 10 * time.Minute

// hub fans the shared event log out to this instance's subscribers (streams,
// blocking sends, workers watching for a cancel), per task, in log order.
type hub struct {
	mu     sync.Mutex
	subs   map[string]map[*subscription]struct{}
	closed bool
}

func newHub() *hub { return &hub{subs: map[string]map[*subscription]struct{}{}} }

// subscription queues one task's events for one reader. The queue is
// unbounded, so a slow reader never makes the hub drop or reorder events; a
// task produces a bounded number of them (directive.MaxArtifactChunks).
type subscription struct {
	h      *hub
	taskID string
	mu     sync.Mutex
	queue  []store.Event
	closed bool
	ready  chan struct{}
}

func (h *hub) subscribe(taskID string) *subscription {
	s := &subscription{h: h, taskID: taskID, ready: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		s.closed = true
		close(s.ready)
		return s
	}
	if h.subs[taskID] == nil {
		h.subs[taskID] = map[*subscription]struct{}{}
	}
	h.subs[taskID][s] = struct{}{}
	return s
}

func (h *hub) publish(e store.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[e.TaskID] {
		s.push(e)
	}
}

// closeAll ends every subscription (shutdown): readers see closed and stop.
func (h *hub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for id, set := range h.subs {
		for s := range set {
			s.markClosed()
		}
		delete(h.subs, id)
	}
}

func (s *subscription) push(e store.Event) {
	s.mu.Lock()
	if !s.closed {
		s.queue = append(s.queue, e)
	}
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

func (s *subscription) markClosed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.ready)
	}
}

// take returns the queued events; closed is true once the hub shut down.
func (s *subscription) take() (events []store.Event, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	events, s.queue = s.queue, nil
	return events, s.closed
}

func (s *subscription) close() {
	s.h.mu.Lock()
	if set := s.h.subs[s.taskID]; set != nil {
		delete(set, s)
		if len(set) == 0 {
			delete(s.h.subs, s.taskID)
		}
	}
	s.h.mu.Unlock()
	s.markClosed()
}

// tail follows the event log from seq last: woken at once by writes through
// this instance's store handle, and every PollInterval for other processes'
// writes. Under stream-events-stay-local it drops other instances' events, as
// an instance with only an in-process bus would.
func (a *Agent) tail(last int64, wake <-chan struct{}, unsub func()) {
	defer a.loops.Done()
	defer unsub()
	tick := time.NewTicker(a.opts.PollInterval)
	defer tick.Stop()
	lastPrune := time.Now()
	local := a.faults.has(faultStreamEventsStayLocal)
	for {
		select {
		case <-a.tailCtx.Done():
			return
		case <-wake:
		case <-tick.C:
		}
		for {
			evs, err := a.st.EventsAfter(a.tailCtx, last, eventBatch)
			if err != nil {
				if a.tailCtx.Err() == nil {
					a.log.Warn("reading the event log", "err", err)
				}
				break
			}
			for _, e := range evs {
				last = e.Seq
				if local && e.Origin != a.owner {
					continue
				}
				a.hub.publish(e)
			}
			if len(evs) < eventBatch {
				break
			}
		}
		if time.Since(lastPrune) > time.Minute {
			lastPrune = time.Now()
			if err := a.st.PruneEvents(a.tailCtx, time.Now().Add(-eventRetention)); err != nil && a.tailCtx.Err() == nil {
				a.log.Warn("pruning the event log", "err", err)
			}
		}
	}
}

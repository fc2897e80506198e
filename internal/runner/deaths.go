package runner

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/topology"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// windows remembers when each spec's body ran, so that an agent process
// that died can be matched to the specs it affected.
type windows struct {
	mu    sync.Mutex
	began map[string]time.Time
	ended map[string]time.Time
}

func newWindows() *windows {
	return &windows{began: map[string]time.Time{}, ended: map[string]time.Time{}}
}

func (w *windows) wrap(began, ended func(suites.Info)) (func(suites.Info), func(suites.Info)) {
	return func(i suites.Info) {
			w.mu.Lock()
			w.began[i.ID] = time.Now()
			w.mu.Unlock()
			began(i)
		}, func(i suites.Info) {
			w.mu.Lock()
			w.ended[i.ID] = time.Now()
			w.mu.Unlock()
			ended(i)
		}
}

// deathNote is the run note for an agent process that exited on its own.
func deathNote(e topology.Exit, start time.Time) string {
	note := fmt.Sprintf("agent instance %d exited during the run, %s after it began (%s)",
		e.Instance, e.At.Sub(start).Round(10*time.Millisecond), e.Status)
	if !e.Replaced.IsZero() {
		note += fmt.Sprintf("; the harness started another in its slot %s later", e.Replaced.Sub(e.At).Round(10*time.Millisecond))
	}
	if len(e.Output) > 0 {
		tail := e.Output
		if len(tail) > 5 {
			tail = tail[len(tail)-5:]
		}
		note += "; the last lines of agent.log: " + strings.Join(tail, " ⏎ ")
	}
	return note
}

// blameDeaths keeps a dead agent from being judged on the harness's own
// errors: a spec whose body ran while an instance was dead (it exited
// during the body, or before it and was not replaced) cannot have judged
// the agent, so a fail or warn becomes indeterminate and a could-not-run
// names the cause. A pass stands: what it saw, the agent did answer.
func blameDeaths(results []reports.Result, exits []topology.Exit, w *windows, start time.Time) []reports.Result {
	if len(exits) == 0 {
		return results
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, r := range results {
		b, ok := w.began[r.ID]
		if !ok {
			continue
		}
		e, ok := w.ended[r.ID]
		if !ok {
			e = time.Now()
		}
		var hit []topology.Exit
		for _, x := range exits {
			deadFrom, deadTo := x.At, x.Replaced
			if deadTo.IsZero() {
				deadTo = time.Now()
			}
			if deadFrom.Before(e) && deadTo.After(b) {
				hit = append(hit, x)
			}
		}
		if len(hit) == 0 {
			continue
		}
		var why []string
		for _, x := range hit {
			why = append(why, fmt.Sprintf("agent instance %d exited %s after the run began (%s)", x.Instance, x.At.Sub(start).Round(10*time.Millisecond), x.Status))
		}
		cause := strings.Join(why, "; ") + ", while this spec ran: what failed may be the harness's requests reaching a dead agent, not the agent's answers (run notes quote agent.log)"
		switch r.Verdict {
		case reports.Fail, reports.Warn:
			results[i].Reason = "indeterminate, not " + string(r.Verdict) + ": " + cause + ". The verdict it would have had: " + r.Reason
			results[i].Verdict = reports.Indeterminate
		case reports.CouldNotRun, reports.Indeterminate:
			results[i].Reason = r.Reason + " (" + cause + ")"
		}
	}
	return results
}

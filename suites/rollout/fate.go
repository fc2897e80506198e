package rollout

import (
	"context"
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/suites"
)

// What became of a task the spec awaited after a change of the deployment,
// with one diagnosis for every rollout spec that reports it:
//
//   - lost in the roll: a read after the roll answered TaskNotFoundError, and
//     the task did not end: the client that got that answer holds an id the
//     deployment disowns (scenario 1);
//   - orphaned by the roll: found, but unchanged (state, its timestamp,
//     history, artifacts) for the whole wait: neither carried on nor
//     reported absent;
//   - slow: found and still moving when the wait ran out; only this one asks
//     for more patience.
//
// Neither a lost nor an orphaned task is ever told to "raise --patience":
// waiting longer changes neither.

// fate is what the reads of one task after a roll showed.
type fate struct {
	id string
	// seen is the task as read when the wait began (nil when that read
	// failed); last is the last read that found it (nil for none).
	seen, last *a2a.Task
	ended      bool
	// reads counts the reads; notFound those that answered
	// TaskNotFoundError, the first of them notFoundErr.
	reads, notFound int
	notFoundErr     string
	// lastErr is the last other failure ("" for none).
	lastErr string
	waited  time.Duration
}

// awaitFate reads task id through c until it is terminal or until, is
// passed (at least one read is made), starting from seen (the task as read
// right after the roll; nil to read it first).
func awaitFate(ctx context.Context, t *suites.T, c *client.Client, id string, seen *a2a.Task, until time.Time) fate {
	f := fate{id: id, seen: seen}
	began := time.Now()
	defer func() { f.waited = time.Since(began) }()
	for {
		got, err := t.Get(ctx, c, id)
		f.reads++
		switch {
		case err == nil:
			f.last = got
			if f.seen == nil {
				f.seen = got
			}
			if got.Status.State.Terminal() {
				f.ended = true
				f.waited = time.Since(began)
				return f
			}
		case isKind(err, a2a.ErrTaskNotFound):
			f.notFound++
			if f.notFoundErr == "" {
				f.notFoundErr = suites.ErrText(err)
			}
		default:
			f.lastErr = suites.ErrText(err)
		}
		if !time.Now().Before(until) || ctx.Err() != nil {
			f.waited = time.Since(began)
			return f
		}
		select {
		case <-ctx.Done():
		case <-time.After(suites.AwaitPoll(time.Since(began))):
		}
	}
}

// lost: the agent answered TaskNotFoundError for the task after the roll,
// and it did not end.
func (f fate) lost() bool { return !f.ended && f.notFound > 0 }

// orphaned: found on every read, never ended, and unchanged throughout.
func (f fate) orphaned() bool {
	return !f.ended && f.notFound == 0 && f.seen != nil && f.last != nil && unchanged(f.seen, f.last)
}

// slow: found, not ended, and still moving: the only fate more patience
// could change.
func (f fate) slow() bool { return !f.ended && !f.lost() && !f.orphaned() && f.last != nil }

// diagnosis says, in the words every rollout spec uses, what became of the
// task ("" when it ended); patience is the run's, named only for a slow one.
func (f fate) diagnosis(patience time.Duration) string {
	switch {
	case f.ended:
		return ""
	case f.lost():
		how := fmt.Sprintf("%d of %d reads after the roll answered %s", f.notFound, f.reads, f.notFoundErr)
		if f.last != nil {
			how += fmt.Sprintf("; the others showed it %s, never terminal", f.last.Status.State)
		}
		return fmt.Sprintf("task %s lost in the roll: %s", f.id, how)
	case f.orphaned():
		return fmt.Sprintf("task %s orphaned by the roll: still %s and unchanged (state, its timestamp, history, artifacts) for %s of reads after the roll",
			f.id, f.last.Status.State, f.waited.Round(time.Millisecond))
	case f.slow():
		return fmt.Sprintf("task %s still %s and moving after %s (patience %s: raise --patience for a slower agent)",
			f.id, f.last.Status.State, f.waited.Round(time.Millisecond), patience.Round(time.Millisecond))
	}
	why := f.lastErr
	if why == "" {
		why = "no answer"
	}
	return fmt.Sprintf("task %s could not be read after the roll (%d reads, the last: %s)", f.id, f.reads, why)
}

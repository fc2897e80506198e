package suites

import (
	"testing"
	"time"
)

// Await asks a fast agent every Poll and a slow one about ten times over a
// task's life, never less often than maxAwaitPoll.
func TestAwaitPollGrowsWithTheWait(t *testing.T) {
	for _, c := range []struct{ waited, want time.Duration }{
		{0, Poll},
		{150 * time.Millisecond, Poll},
		{time.Second, 100 * time.Millisecond},
		{2 * time.Second, 200 * time.Millisecond},
		{10 * time.Second, maxAwaitPoll},
		{time.Hour, maxAwaitPoll},
	} {
		if got := AwaitPoll(c.waited); got != c.want {
			t.Errorf("AwaitPoll(%s) = %s, want %s", c.waited, got, c.want)
		}
	}
}

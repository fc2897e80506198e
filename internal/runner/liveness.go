package runner

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
)

// DeadAfter is how many requests in a row may go unanswered (no response
// headers within the request timeout) before the harness treats the target
// as having stopped answering. Without it, an agent that hangs costs every
// remaining spec its full timeout: 47 specs × 30–60 s.
const DeadAfter = 3

// liveness wraps the transport and notices a target that stopped answering.
// Once it has, every further request fails at once with the reason, and
// specs that have not started end indeterminate (suites.Env.Health).
type liveness struct {
	next http.RoundTripper
	// broken, when set, declares the target broken given the number of
	// requests sent so far (wary.broken).
	broken func(requests int) error

	mu          sync.Mutex
	consecutive int
	requests    int
	dead        error
}

func (l *liveness) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := l.Health(); err != nil {
		return nil, err
	}
	resp, err := l.next.RoundTrip(req)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests++
	switch {
	case err == nil:
		l.consecutive = 0
	case unanswered(err):
		l.consecutive++
		if l.consecutive >= DeadAfter && l.dead == nil {
			l.dead = fmt.Errorf("the target stopped answering: %d requests in a row got no response (last: %s %s: %v)",
				l.consecutive, req.Method, req.URL.Redacted(), err)
		}
	}
	return resp, err
}

// Health is nil while the target answers and is not broken.
func (l *liveness) Health() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dead == nil && l.broken != nil {
		l.dead = l.broken(l.requests)
	}
	return l.dead
}

// unanswered is a request that timed out waiting for the agent, as opposed
// to one the harness itself canceled or one the agent refused.
func unanswered(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

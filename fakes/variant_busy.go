package fakes

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// A busy instance, correct in every answer it gives: it refuses some
// requests "not now" and serves the rest. Options.RateLimit answers every
// binding request above N a second with 429 Too Many Requests (gRPC
// RESOURCE_EXHAUSTED) and a Retry-After of the seconds until it has room
// again; Options.ShedOneIn answers one binding request in N with 503 (gRPC
// UNAVAILABLE) and Retry-After, as a loaded instance shedding load does.
// The card is served regardless. A client that honours the refusals (A2A
// v1.0.1 §3.3.2: "Servers MAY include retry guidance (e.g., Retry-After
// header in HTTP)") gets every answer it asked for, later.

// busyRefusal is the refusal a busy instance answers this request with, nil
// when it serves it; retryAfter is the Retry-After to send with it.
func (a *Agent) busyRefusal() (oe *opError, retryAfter string) {
	if n := a.opts.ShedOneIn; n > 0 && a.shed.Add(1)%int64(n) == 0 {
		return errUnavailable("shedding load; retry"), retryAfterSeconds
	}
	if a.opts.RateLimit > 0 {
		if wait, ok := a.limiter.take(time.Now()); !ok {
			secs := int64((wait + time.Second - 1) / time.Second)
			return errTooManyRequests("rate limit of " + strconv.Itoa(a.opts.RateLimit) + " requests a second exceeded; retry"), strconv.FormatInt(max(secs, 1), 10)
		}
	}
	return nil, ""
}

// errTooManyRequests answers a request over the instance's rate limit.
func errTooManyRequests(message string) *opError {
	return &opError{code: -32000, httpStatus: http.StatusTooManyRequests, grpcStatus: "RESOURCE_EXHAUSTED", message: message}
}

// refuseBusy answers an HTTP binding request the instance refuses as busy;
// it reports false when the request is to be served.
func (a *Agent) refuseBusy(w http.ResponseWriter, r *http.Request) bool {
	oe, retryAfter := a.busyRefusal()
	if oe == nil {
		return false
	}
	w.Header().Set("Retry-After", retryAfter)
	a.writeError(w, r, oe)
	return true
}

// bucket is a token bucket of rate tokens a second holding at most rate
// (one second's worth): the limiter a gateway puts in front of an instance.
type bucket struct {
	mu     sync.Mutex
	rate   float64
	tokens float64
	last   time.Time
}

// take spends a token if there is one; otherwise it says how long until
// there is.
func (b *bucket) take(now time.Time) (time.Duration, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.last.IsZero() {
		b.tokens, b.last = b.rate, now
	}
	b.tokens = min(b.rate, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	return time.Duration((1 - b.tokens) / b.rate * float64(time.Second)), false
}

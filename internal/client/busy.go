package client

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/metadata"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// Busy agents. An agent under load answers "not now": HTTP 429 (Too Many
// Requests) or 503 (Service Unavailable), on gRPC their equivalents
// RESOURCE_EXHAUSTED and UNAVAILABLE (internal/a2a's GRPCStatusByHTTP),
// with or without Retry-After (A2A v1.0.1 §3.3.2: "Servers MAY include retry
// guidance (e.g., Retry-After header in HTTP)"). That answer is no evidence
// about the operation asked for, so a client built WithBusyRetry waits as
// asked and sends the same request again, on every operation (unary calls,
// stream opens, raw requests), for at most the call's patience. Each refused
// attempt stays in the transcript (the recorder sees every attempt) and is
// told to the RefusalObserver; a call still refused when its patience runs
// out returns a Refused-class *Error naming the refusals, which a spec
// reports as indeterminate, never as a violation.
//
// A spec that judges the refusal itself (readiness, drain: "503 means
// refused, not dropped") opts out per call with NoBusyRetry, or per client
// with WithoutBusyRetry, and sees the first answer as before.

// Refused is the class of a call the agent kept refusing as busy until the
// call's patience ran out. Err unwraps to the last refusal's own *Error.
const Refused Class = "refused"

const (
	// busyFirstPause is the wait before the second attempt when the agent
	// sent no Retry-After; it doubles per refusal up to busyMaxPause.
	busyFirstPause = 250 * time.Millisecond
	busyMaxPause   = 2 * time.Second
	// busyLeastPause keeps "Retry-After: 0" from becoming a tight loop.
	busyLeastPause = 50 * time.Millisecond
	// maxRetryAfterText caps the Retry-After value an Error keeps.
	maxRetryAfterText = 64
	// MaxRetryAfter caps what ParseRetryAfter returns: anything longer is
	// beyond every patience the harness has, and only ever means "give up".
	MaxRetryAfter = 24 * time.Hour
)

// Refusal is one "not now" answer: which operation, to which authority, how
// (HTTP status, gRPC status name) and the Retry-After the agent asked for
// (RetryAfter, as sent and capped; Asked its meaning, zero without one).
// GaveUp is set on the last refusal of a call that ran out of patience;
// Attempt counts the call's refusals so far (1 for the first).
type Refusal struct {
	Op         string
	Binding    string
	Authority  string
	HTTPStatus int
	Status     string
	RetryAfter string
	Asked      time.Duration
	Attempt    int
	GaveUp     bool
	// Waited is how long the call had waited on refusals when it gave up.
	Waited time.Duration
}

// What names the refusal for a report: "HTTP 429, Retry-After \"1\"".
func (r Refusal) What() string {
	var parts []string
	if r.HTTPStatus != 0 {
		parts = append(parts, fmt.Sprintf("HTTP %d", r.HTTPStatus))
	}
	if r.Binding == a2a.BindingGRPC && r.Status != "" {
		parts = append(parts, "gRPC "+r.Status)
	}
	if r.RetryAfter != "" {
		parts = append(parts, "Retry-After "+strconv.Quote(r.RetryAfter))
	} else {
		parts = append(parts, "no Retry-After")
	}
	return strings.Join(parts, ", ")
}

// RefusalObserver is told every refusal a client with busy retry sees, with
// the call's context (whose spec it was).
type RefusalObserver func(ctx context.Context, r Refusal)

// WithBusyRetry makes the client retry "not now" answers for at most
// patience() per call (read at each call, so that it can grow with what the
// run learns of the agent's pace), and never past the call's context
// deadline. nil, or a patience ≤ 0, retries nothing.
func WithBusyRetry(patience func() time.Duration) Option {
	return func(c *Client) { c.busyPatience = patience }
}

// WithoutBusyRetry turns busy retry off for this client (see NoBusyRetry
// for one call).
func WithoutBusyRetry() Option {
	return func(c *Client) { c.busyPatience = nil }
}

// WithRefusalObserver tells f every busy refusal (retried or given up).
func WithRefusalObserver(f RefusalObserver) Option {
	return func(c *Client) { c.refusalObs = f }
}

type noBusyRetryKey struct{}

// NoBusyRetry marks a context whose calls return the agent's first "not
// now" answer as it is, for a spec that judges that answer itself.
func NoBusyRetry(ctx context.Context) context.Context {
	return context.WithValue(ctx, noBusyRetryKey{}, true)
}

// BusyRetryOff reports whether ctx was marked with NoBusyRetry.
func BusyRetryOff(ctx context.Context) bool {
	v, _ := ctx.Value(noBusyRetryKey{}).(bool)
	return v
}

// IsBusy reports whether err is a "not now" answer of the agent: HTTP 429
// or 503 before any stream (whatever the body, A2A error or not), or on
// gRPC RESOURCE_EXHAUSTED or UNAVAILABLE sent by the server. A refusal
// written by the harness's own balancer because an instance did not answer
// is a Transport error and not busy; so is a connection failure.
func IsBusy(err error) bool {
	ce, ok := AsError(err)
	return ok && busyError(ce)
}

func busyError(ce *Error) bool {
	if ce == nil || ce.InStream || (ce.Class != A2A && ce.Class != HTTP) {
		return false
	}
	if ce.Binding == a2a.BindingGRPC {
		// grpc-go writes RESOURCE_EXHAUSTED itself for a message over its
		// size limit ("grpc: received message larger than max"): not the
		// agent saying "not now".
		return (ce.Status == "RESOURCE_EXHAUSTED" || ce.Status == "UNAVAILABLE") && !strings.HasPrefix(ce.Message, "grpc: ")
	}
	return busyStatus(ce.HTTPStatus)
}

func busyStatus(s int) bool {
	return s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable
}

// ParseRetryAfter reads a Retry-After value (RFC 9110 §10.2.3): a number of
// seconds, or an HTTP-date (then the time from now to it, zero when past).
// ok is false for anything else. The result is capped at MaxRetryAfter, so
// a hostile "Retry-After: 99999999999" is a long wait to refuse, not an
// overflow.
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		for i := 0; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' {
				return 0, false
			}
		}
		if len(v) > 6 { // more than 11 days in seconds: beyond the cap
			return MaxRetryAfter, true
		}
		n, _ := strconv.Atoi(v)
		return min(time.Duration(n)*time.Second, MaxRetryAfter), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return min(d, MaxRetryAfter), true
	}
	return 0, true
}

// grpcRetryAfter reads retry guidance from gRPC metadata: a "retry-after"
// entry in the Retry-After format, or gRPC's own retry pushback
// ("grpc-retry-pushback-ms", milliseconds).
func grpcRetryAfter(mds ...metadata.MD) string {
	for _, md := range mds {
		if v := md.Get("retry-after"); len(v) > 0 {
			return v[0]
		}
	}
	for _, md := range mds {
		if v := md.Get("grpc-retry-pushback-ms"); len(v) > 0 {
			ms, err := strconv.ParseInt(strings.TrimSpace(v[0]), 10, 64)
			if err != nil || ms < 0 {
				return ""
			}
			// As whole seconds, rounded up, in the Retry-After format.
			return strconv.FormatInt((min(ms, int64(MaxRetryAfter/time.Millisecond))+999)/1000, 10)
		}
	}
	return ""
}

// busyPause is how long to wait before the next attempt after the n-th
// refusal (1 for the first), and the Retry-After's meaning if it had one.
func busyPause(retryAfter string, n int, now time.Time) (wait, asked time.Duration) {
	if d, ok := ParseRetryAfter(retryAfter, now); ok {
		return max(d, busyLeastPause), d
	}
	wait = busyFirstPause
	for i := 1; i < n && wait < busyMaxPause; i++ {
		wait *= 2
	}
	return min(wait, busyMaxPause), 0
}

// busyOn says whether this call retries busy answers, and for how long.
func (c *Client) busyOn(ctx context.Context) (time.Duration, bool) {
	if c.busyPatience == nil || BusyRetryOff(ctx) {
		return 0, false
	}
	p := c.busyPatience()
	return p, p > 0
}

// retryBusy runs do until it returns anything but a busy refusal, waiting
// between attempts as the agent asked (bounded by the call's patience and
// context), and returns its last error; a call still refused when the next
// attempt would come too late gets a Refused-class error instead. do
// returns the *Error of the attempt and the Retry-After the answer carried.
func (c *Client) retryBusy(ctx context.Context, op string, do func() (string, error)) error {
	patience, on := c.busyOn(ctx)
	if !on {
		_, err := do()
		return err
	}
	start := time.Now()
	deadline := start.Add(patience)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	for n := 1; ; n++ {
		retryAfter, err := do()
		ce, ok := AsError(err)
		if !ok || !busyError(ce) {
			return err
		}
		now := time.Now()
		wait, asked := busyPause(retryAfter, n, now)
		r := Refusal{Op: op, Binding: c.Binding(), Authority: c.Authority(), HTTPStatus: ce.HTTPStatus, Status: ce.Status,
			RetryAfter: capString(retryAfter, maxRetryAfterText), Asked: asked, Attempt: n}
		if now.Add(wait).After(deadline) || ctx.Err() != nil {
			r.GaveUp, r.Waited = true, now.Sub(start)
			c.observeRefusal(ctx, r)
			return refusedError(ce, r, patience, wait)
		}
		c.observeRefusal(ctx, r)
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			r.GaveUp, r.Waited = true, time.Since(start)
			c.observeRefusal(ctx, r)
			return refusedError(ce, r, patience, wait)
		case <-timer.C:
		}
	}
}

func (c *Client) observeRefusal(ctx context.Context, r Refusal) {
	if c.refusalObs != nil {
		c.refusalObs(ctx, r)
	}
}

// refusedError is the error of a call given up on: the last refusal's
// fields, Class Refused, and a message naming the refusals.
func refusedError(last *Error, r Refusal, patience, next time.Duration) *Error {
	e := *last
	e.Class = Refused
	e.Refusals = r.Attempt
	e.RetryAfter = r.RetryAfter
	why := fmt.Sprintf("the next try (in %s) would come after the call's patience of %s", next.Round(time.Millisecond), patience.Round(time.Millisecond))
	e.Message = fmt.Sprintf("the agent answered \"not now\" %d time(s) in %s (last: %s) and the harness gave up: %s; a refusal is no answer to judge",
		r.Attempt, r.Waited.Round(time.Millisecond), r.What(), why)
	e.Err = last
	return &e
}

// ErrRefused reports whether err is a call given up on after busy refusals.
func ErrRefused(err error) bool {
	ce, ok := AsError(err)
	return ok && ce.Class == Refused
}

package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"time"
)

// Limits bound what the harness reads of one answer, at the transport, so
// that every reader (typed calls, raw calls, card and key-set fetches, the
// recorder) gets the same bounds. A zero field is no bound.
type Limits struct {
	// MaxBody caps a body, or one event of a stream (bytes between blank
	// lines): DefaultMaxBody.
	MaxBody int64
	// HeaderWait bounds the wait for response headers. The transport's own
	// ResponseHeaderTimeout is the usual bound; this one is for a shorter,
	// changing bound (a target already seen misbehaving).
	HeaderWait time.Duration
	// BodyTime bounds reading a whole body that is not an event stream, from
	// its headers on: a body dripped a byte a second never trips an idle
	// bound, only a total one.
	BodyTime time.Duration
	// EventIdle bounds the wait for each event of a stream (from the headers
	// or the previous event's blank line); comments count, so keep-alives
	// keep a slow but sound stream open.
	EventIdle time.Duration
	// Why, when set, is appended to every bound's error text (why the
	// bounds are what they are).
	Why string
}

func (l Limits) msg(s string) string {
	if l.Why == "" {
		return s
	}
	return s + " (" + l.Why + ")"
}

// Misbehaviour is a transport-level failure the guard saw: the answer was
// cut, reset, oversized or stalled. A slow but complete answer is none of
// these.
type Misbehaviour struct {
	Kind   string // "reset", "truncated", "oversized", "stalled", "headers"
	Detail string // the error text, e.g. "body exceeded 8 MiB"
	URL    string
	// Ctx is the request's context, so that the observer can tell whose
	// request it was (a spec that restarts instances expects cut answers).
	Ctx context.Context
}

// BoundError is the error a guarded read returns when a bound was hit. It
// is a timeout (net.Error) for stalls, so a liveness check counts those as
// unanswered.
type BoundError struct {
	Kind string // "oversized" or "stalled"
	Msg  string
}

func (e *BoundError) Error() string   { return e.Msg }
func (e *BoundError) Timeout() bool   { return e.Kind == "stalled" }
func (e *BoundError) Temporary() bool { return false }

// Guard wraps next so that every answer is bounded by limits() (asked once
// per request, so the bounds may tighten during a run) and every
// transport-level failure is reported to onBad (may be nil).
func Guard(next http.RoundTripper, limits func() Limits, onBad func(Misbehaviour)) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &guard{next: next, limits: limits, onBad: onBad}
}

type guard struct {
	next   http.RoundTripper
	limits func() Limits
	onBad  func(Misbehaviour)
}

func (g *guard) report(kind, detail string, req *http.Request) {
	if g.onBad != nil {
		g.onBad(Misbehaviour{Kind: kind, Detail: detail, URL: req.URL.Redacted(), Ctx: req.Context()})
	}
}

// HumanBytes renders a cap the way a reason states it: "8 MiB", "256 KiB".
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}

func (g *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	lim := g.limits()
	ctx, cancel := context.WithCancelCause(req.Context())
	req = req.WithContext(ctx)
	var hdrTimer *time.Timer
	if lim.HeaderWait > 0 {
		hdrTimer = time.AfterFunc(lim.HeaderWait, func() {
			cancel(&BoundError{Kind: "stalled", Msg: lim.msg("no response headers within " + seconds(lim.HeaderWait))})
		})
	}
	resp, err := g.next.RoundTrip(req)
	if hdrTimer != nil {
		hdrTimer.Stop()
	}
	if err != nil {
		var be *BoundError
		if errors.As(context.Cause(ctx), &be) {
			err = be
		} else if strings.Contains(err.Error(), "response headers exceeded") {
			g.report("headers", err.Error(), req)
		} else if isReset(err) {
			g.report("reset", err.Error(), req)
		}
		cancel(nil)
		return nil, err
	}
	// A stream is what the request asked for, not what the answer claims:
	// an event stream sent for a unary call is a body that never ends.
	stream := isSSEType(resp.Header.Get("Content-Type")) && strings.Contains(req.Header.Get("Accept"), ContentTypeSSE)
	b := &guardedBody{rc: resp.Body, g: g, req: req, lim: lim, cancel: cancel, ctx: ctx, sse: stream}
	switch {
	case b.sse && lim.EventIdle > 0:
		b.timer = time.AfterFunc(lim.EventIdle, func() {
			cancel(&BoundError{Kind: "stalled", Msg: lim.msg("no event for " + seconds(lim.EventIdle))})
		})
	case !b.sse && lim.BodyTime > 0:
		b.timer = time.AfterFunc(lim.BodyTime, func() {
			cancel(&BoundError{Kind: "stalled", Msg: lim.msg("body not complete after " + seconds(lim.BodyTime))})
		})
	}
	resp.Body = b
	return resp, nil
}

// isReset is a connection the agent reset or broke (not one we canceled).
func isReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		strings.Contains(err.Error(), "connection reset")
}

// guardedBody enforces the size and time bounds while the caller reads.
type guardedBody struct {
	rc     io.ReadCloser
	g      *guard
	req    *http.Request
	lim    Limits
	ctx    context.Context
	cancel context.CancelCauseFunc
	timer  *time.Timer
	sse    bool
	n      int64 // bytes of the body, or of the current event
	line   int   // bytes of the current line (sse)
	skipLF bool  // the last line ended with CR (sse)
	read   int64
	err    error
}

func (b *guardedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.rc.Read(p)
	b.read += int64(n)
	if b.sse {
		n = b.scanEvents(p[:n])
	} else if b.lim.MaxBody > 0 && b.n+int64(n) > b.lim.MaxBody {
		n = int(b.lim.MaxBody - b.n)
		b.n = b.lim.MaxBody
		b.fail("oversized", "body exceeded "+HumanBytes(b.lim.MaxBody))
	} else {
		b.n += int64(n)
	}
	if b.err != nil {
		return n, b.err
	}
	if err != nil && err != io.EOF {
		var be *BoundError
		switch {
		case errors.As(context.Cause(b.ctx), &be):
			b.err = &BoundError{Kind: be.Kind, Msg: fmt.Sprintf("%s (%d bytes read)", be.Msg, b.read)}
			b.g.report("stalled", b.err.Error(), b.req)
		case errors.Is(err, io.ErrUnexpectedEOF):
			b.err = fmt.Errorf("body truncated: the connection closed after %d bytes, before the body's end: %w", b.read, err)
			b.g.report("truncated", b.err.Error(), b.req)
		case isReset(err):
			b.err = fmt.Errorf("connection reset after %d bytes of the body: %w", b.read, err)
			b.g.report("reset", b.err.Error(), b.req)
		default:
			b.err = err
		}
		b.stop()
		return n, b.err
	}
	if err == io.EOF {
		b.stop()
	}
	return n, err
}

// scanEvents counts event bytes and restarts the idle bound at each blank
// line; it returns how many bytes of p may be passed on.
func (b *guardedBody) scanEvents(p []byte) int {
	for i, c := range p {
		if b.skipLF {
			b.skipLF = false
			if c == '\n' {
				continue
			}
		}
		if c == '\r' || c == '\n' {
			b.skipLF = c == '\r'
			if b.line == 0 {
				b.n = 0
				if b.timer != nil {
					b.timer.Reset(b.lim.EventIdle)
				}
			}
			b.line = 0
			continue
		}
		b.line++
		b.n++
		if b.lim.MaxBody > 0 && b.n > b.lim.MaxBody {
			b.fail("oversized", "event exceeded "+HumanBytes(b.lim.MaxBody))
			return i
		}
	}
	return len(p)
}

func (b *guardedBody) fail(kind, msg string) {
	b.err = &BoundError{Kind: kind, Msg: msg}
	b.g.report(kind, msg, b.req)
	b.stop()
	// Stop the transfer: the rest of an oversized body is not wanted.
	b.cancel(b.err)
}

func (b *guardedBody) stop() {
	if b.timer != nil {
		b.timer.Stop()
	}
}

func (b *guardedBody) Close() error {
	b.stop()
	err := b.rc.Close()
	b.cancel(nil)
	return err
}

// Package sse decodes text/event-stream bodies as the WHATWG HTML standard
// specifies ("Server-sent events", section "Interpreting an event stream"),
// with hard bounds on memory, because every byte of a stream comes from the
// agent under test.
//
// What the decoder does, rule by rule:
//   - Lines end with CRLF, LF or a lone CR; a CR split from its LF across two
//     reads still counts as one line ending, and a trailing CR never blocks
//     dispatch waiting for a possible LF.
//   - One UTF-8 byte order mark at the very start of the stream is dropped.
//   - "field: value" and "field:value" are the same (one leading space of the
//     value is removed); a line without a colon is a field with an empty value.
//   - data lines are joined with "\n"; a blank line dispatches the event; an
//     event whose data buffer is empty is not dispatched (the WHATWG rule), but
//     "data:" alone dispatches an event with empty Data.
//   - Lines starting with ":" are comments (keep-alives) and are skipped.
//   - id sets the last event ID, which persists across events, unless the value
//     contains NUL; retry is taken when it is all ASCII digits; other fields are
//     ignored.
//   - Bytes are passed through as received: no UTF-8 validation or replacement
//     (JSON decoding downstream replaces invalid sequences).
//
// End of stream: the WHATWG rules discard an event that is not followed by a
// blank line. The decoder follows them (such an event is never returned), but
// it does not hide the loss: instead of io.EOF the caller gets an
// *IncompleteEventError carrying the discarded bytes, so a conformance check can
// say "your last event lacked its terminating blank line; a browser
// EventSource would drop it". A stream that ends after a blank line, or with
// only comments or event/id/retry fields pending, ends with io.EOF.
//
// Bounds: an event (the field lines between two blank lines, comments
// excluded) may not exceed MaxEventSize bytes and a line (comments included)
// may not exceed MaxLineLength bytes; past either, decoding stops with a
// *LimitError naming the limit. The decoder holds at most about twice
// MaxEventSize, plus one read buffer.
package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

const (
	// DefaultMaxEventSize bounds one event: 8 MiB, the client's default body cap.
	DefaultMaxEventSize = 8 << 20
	// DefaultMaxLineLength equals the event bound: one data line may carry a
	// whole event (servers write each JSON document on one line).
	DefaultMaxLineLength = DefaultMaxEventSize
	// maxPending caps the bytes an IncompleteEventError keeps as evidence.
	maxPending = 4 << 10
	// readSize is the Reader's read buffer.
	readSize = 32 << 10
	// shrinkAbove releases buffers grown by one large event instead of keeping
	// them for the rest of a long stream.
	shrinkAbove = 64 << 10
)

// Event is one dispatched event.
type Event struct {
	// Type is the value of the event's last "event" field, "" when it had none
	// (EventSource would then use "message").
	Type string
	// Data is the event's data lines joined with "\n".
	Data string
	// ID is the last event ID in force when the event was dispatched: it is
	// set by an "id" field of this or any earlier event.
	ID string
}

// LimitError reports that the stream exceeded one of the decoder's bounds.
type LimitError struct {
	// Limit is "event size" or "line length".
	Limit string
	Max   int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("sse: %s exceeds the %d-byte limit", e.Limit, e.Max)
}

// IncompleteEventError reports that the stream ended inside an event: data
// lines (or a partial line) without the blank line that dispatches them.
type IncompleteEventError struct {
	// Pending is the discarded event's data and partial line, capped at 4 KiB.
	Pending []byte
}

func (e *IncompleteEventError) Error() string {
	return fmt.Sprintf("sse: stream ended inside an event (no blank line after it), %d byte(s) discarded as the WHATWG rules require", len(e.Pending))
}

// Unwrap makes errors.Is(err, io.ErrUnexpectedEOF) true.
func (e *IncompleteEventError) Unwrap() error { return io.ErrUnexpectedEOF }

// Option configures a Decoder or Reader.
type Option func(*config)

type config struct {
	maxEvent int
	maxLine  int
}

// WithMaxEventSize sets the largest event accepted, in bytes (n > 0).
func WithMaxEventSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxEvent = n
		}
	}
}

// WithMaxLineLength sets the longest line accepted, in bytes (n > 0).
func WithMaxLineLength(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxLine = n
		}
	}
}

func newConfig(opts []Option) config {
	c := config{maxEvent: DefaultMaxEventSize, maxLine: DefaultMaxLineLength}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Decoder is the push form of the parser: feed it bytes as they arrive and it
// calls emit for each complete event. The recorder uses it to watch a body
// the client is reading; Reader wraps it for pull-style use.
type Decoder struct {
	cfg       config
	line      []byte // the current unterminated line
	skipLF    bool   // the last line ended with CR: a following LF belongs to it
	started   bool   // the first line (where a BOM may sit) has been seen
	data      []byte // data buffer, each line followed by '\n'
	typ       string
	lastID    string
	size      int // bytes of field lines in the current event
	retry     time.Duration
	haveRetry bool
	err       error
}

// NewDecoder returns a decoder with the given bounds.
func NewDecoder(opts ...Option) *Decoder {
	return &Decoder{cfg: newConfig(opts)}
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Feed decodes p, calling emit for every event it completes. After an error
// the decoder is stuck: every later call returns the same error. emit must not
// retain anything but the Event it is given.
func (d *Decoder) Feed(p []byte, emit func(Event)) error {
	if d.err != nil {
		return d.err
	}
	for len(p) > 0 {
		if d.skipLF {
			d.skipLF = false
			if p[0] == '\n' {
				p = p[1:]
				continue
			}
		}
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			if len(d.line)+len(p) > d.cfg.maxLine {
				d.err = &LimitError{Limit: "line length", Max: d.cfg.maxLine}
				return d.err
			}
			d.line = append(d.line, p...)
			return nil
		}
		if len(d.line)+i > d.cfg.maxLine {
			d.err = &LimitError{Limit: "line length", Max: d.cfg.maxLine}
			return d.err
		}
		line := p[:i]
		if len(d.line) > 0 {
			d.line = append(d.line, line...)
			line = d.line
		}
		d.skipLF = p[i] == '\r'
		p = p[i+1:]
		if err := d.processLine(line, emit); err != nil {
			d.err = err
			return err
		}
		d.line = d.line[:0]
		if cap(d.line) > shrinkAbove {
			d.line = nil
		}
	}
	return nil
}

func (d *Decoder) processLine(line []byte, emit func(Event)) error {
	if !d.started {
		d.started = true
		line = bytes.TrimPrefix(line, bom)
	}
	if len(line) == 0 {
		d.dispatch(emit)
		return nil
	}
	if line[0] == ':' {
		return nil
	}
	d.size += len(line)
	if d.size > d.cfg.maxEvent {
		return &LimitError{Limit: "event size", Max: d.cfg.maxEvent}
	}
	field, value := line, []byte(nil)
	if c := bytes.IndexByte(line, ':'); c >= 0 {
		field, value = line[:c], line[c+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "event":
		d.typ = string(value)
	case "data":
		d.data = append(d.data, value...)
		d.data = append(d.data, '\n')
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			d.lastID = string(value)
		}
	case "retry":
		if ms, ok := parseDigits(value); ok {
			d.retry, d.haveRetry = time.Duration(ms)*time.Millisecond, true
		}
	}
	return nil
}

// parseDigits accepts only ASCII digits, as the WHATWG retry rule does; values
// too large for a Duration are ignored rather than wrapped.
func parseDigits(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || n > int64(time.Duration(1<<63-1)/time.Millisecond) {
		return 0, false
	}
	return n, true
}

func (d *Decoder) dispatch(emit func(Event)) {
	d.size = 0
	if len(d.data) == 0 {
		d.typ = ""
		return
	}
	ev := Event{Type: d.typ, Data: string(d.data[:len(d.data)-1]), ID: d.lastID}
	d.data = d.data[:0]
	if cap(d.data) > shrinkAbove {
		d.data = nil
	}
	d.typ = ""
	emit(ev)
}

// End tells the decoder the stream has ended. It returns nil when nothing was
// lost, an *IncompleteEventError when data (or a partial non-comment line) was
// pending, or the error that stopped decoding earlier.
func (d *Decoder) End() error {
	if d.err != nil {
		return d.err
	}
	line := d.line
	if !d.started {
		line = bytes.TrimPrefix(line, bom)
	}
	partial := len(line) > 0 && line[0] != ':'
	if len(d.data) == 0 && !partial {
		return nil
	}
	pending := make([]byte, 0, min(len(d.data)+len(line), maxPending))
	pending = append(pending, d.data[:min(len(d.data), maxPending)]...)
	if partial {
		pending = append(pending, line[:min(len(line), maxPending-len(pending))]...)
	}
	d.err = &IncompleteEventError{Pending: pending}
	return d.err
}

// Retry returns the reconnection time the stream last set with a valid retry
// field. The harness never reconnects (A2A has no resume); it is evidence.
func (d *Decoder) Retry() (time.Duration, bool) { return d.retry, d.haveRetry }

// Reader pulls events from an io.Reader.
type Reader struct {
	src    io.Reader
	dec    *Decoder
	buf    []byte
	queue  []Event
	head   int
	err    error
	emitFn func(Event)
}

// NewReader returns a Reader over r with the given bounds.
func NewReader(r io.Reader, opts ...Option) *Reader {
	rd := &Reader{src: r, dec: NewDecoder(opts...)}
	rd.emitFn = func(ev Event) { rd.queue = append(rd.queue, ev) }
	return rd
}

// maxEmptyReads guards against a source that keeps returning (0, nil).
const maxEmptyReads = 100

// Next returns the next event. It returns io.EOF after a clean end of stream,
// an *IncompleteEventError if the stream ended inside an event, a *LimitError
// past a bound, or the source's read error. Events decoded before an error are
// returned first; the error then repeats on every call.
func (r *Reader) Next() (Event, error) {
	empty := 0
	for {
		if r.head < len(r.queue) {
			ev := r.queue[r.head]
			r.queue[r.head] = Event{}
			r.head++
			if r.head == len(r.queue) {
				r.queue, r.head = r.queue[:0], 0
			}
			return ev, nil
		}
		if r.err != nil {
			return Event{}, r.err
		}
		if r.buf == nil {
			r.buf = make([]byte, readSize)
		}
		n, err := r.src.Read(r.buf)
		if n > 0 {
			empty = 0
			if ferr := r.dec.Feed(r.buf[:n], r.emitFn); ferr != nil {
				r.err = ferr
				continue
			}
		}
		switch {
		case errors.Is(err, io.EOF):
			if end := r.dec.End(); end != nil {
				r.err = end
			} else {
				r.err = io.EOF
			}
		case err != nil:
			r.err = err
		case n == 0:
			empty++
			if empty >= maxEmptyReads {
				r.err = io.ErrNoProgress
			}
		}
	}
}

// Retry returns the reconnection time last set by the stream, if any.
func (r *Reader) Retry() (time.Duration, bool) { return r.dec.Retry() }

// Package recorder keeps every HTTP exchange the harness takes part in, as
// evidence for reports (DESIGN.md "Evidence"): requests it sends (through an
// http.RoundTripper wrapper), SSE events on streaming responses, and webhook
// deliveries it receives (RecordInbound).
//
// Secrets never leave it: credential headers lose their values, secret query
// parameters and URL passwords are replaced, and every configured credential
// value is replaced wherever it appears (headers, URL, bodies, event data) in
// its raw, JSON-escaped and URL-escaped forms. Redaction happens when
// exchanges are exported, so a secret added after an exchange (AddSecret) is
// still removed from it.
//
// Bounds: each body and each event's data is kept up to the body cap (default
// 64 KiB, plus a small overlap so a secret straddling the cap is still
// redacted), each exchange keeps at most the event cap (default 1000) events,
// and the recorder keeps the most recent MaxExchanges (default 10000)
// exchanges. Whatever was cut is flagged with Truncated and a marker.
//
// Timing uses Go's monotonic clock: AtMs is time.Since(start) when the
// request began, DurMs runs until the response body hit EOF, failed or was
// closed (for a stream, the stream's whole life). SSE events are observed as
// the client reads the body (the recorder wraps the body and decodes it with
// internal/sse on the side), so an event's AtMs is when the client read it,
// which for a client that reads promptly is when it arrived.
package recorder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/sse"
	"github.com/a2a-conform/a2a-conform/reports"
)

const (
	// DefaultBodyCap is the bytes of each body (and each event) kept.
	DefaultBodyCap = 64 << 10
	// DefaultEventCap is the events kept per exchange.
	DefaultEventCap = 1000
	// DefaultMaxExchanges is how many exchanges the recorder keeps.
	DefaultMaxExchanges = 10000
	// DefaultInstanceHeader names the instance that answered; the reference
	// agent and the harness's load balancer set it.
	DefaultInstanceHeader = "A2A-Conform-Instance"
	// minOverlap is captured beyond the cap so that a secret cut by the cap
	// is still found whole before the cut.
	minOverlap = 1 << 10
)

// Option configures a Recorder.
type Option func(*Recorder)

// WithSecrets adds credential values to redact wherever they appear.
func WithSecrets(values ...string) Option {
	return func(r *Recorder) { r.secrets = append(r.secrets, values...) }
}

// WithLabeledSecret adds credential values, like WithSecrets, and names
// them: a credential header (Authorization …) that carries one exactly is
// shown as "[REDACTED label]", so that a transcript says whose credentials a
// request carried (e.g. "second identity") without showing them.
func WithLabeledSecret(label string, values ...string) Option {
	return func(r *Recorder) {
		r.secrets = append(r.secrets, values...)
		if r.labels == nil {
			r.labels = map[string]string{}
		}
		for _, v := range values {
			if v != "" {
				r.labels[v] = label
			}
		}
	}
}

// WithSecretHeaders adds header names whose values are always redacted, on
// top of Authorization, Proxy-Authorization, Cookie, Set-Cookie and the
// notification-token and API-key headers.
func WithSecretHeaders(names ...string) Option {
	return func(r *Recorder) { r.secretHeaders = append(r.secretHeaders, names...) }
}

// WithSecretQuery adds query parameter names whose values are redacted (e.g.
// the name of a card's apiKeySecurityScheme with location "query").
func WithSecretQuery(names ...string) Option {
	return func(r *Recorder) { r.secretQuery = append(r.secretQuery, names...) }
}

// WithBodyCap sets the bytes kept per body and per event (n > 0).
func WithBodyCap(n int) Option {
	return func(r *Recorder) {
		if n > 0 {
			r.bodyCap = n
		}
	}
}

// WithEventCap sets the events kept per exchange (n > 0).
func WithEventCap(n int) Option {
	return func(r *Recorder) {
		if n > 0 {
			r.eventCap = n
		}
	}
}

// WithMaxExchanges sets how many exchanges are kept; older ones are dropped
// (n > 0).
func WithMaxExchanges(n int) Option {
	return func(r *Recorder) {
		if n > 0 {
			r.maxExchanges = n
		}
	}
}

// WithInstanceHeader sets the response header naming the answering instance.
func WithInstanceHeader(name string) Option {
	return func(r *Recorder) { r.instanceHeader = name }
}

// WithMaxEventSize bounds the SSE decoder that watches streams (default
// sse.DefaultMaxEventSize); past it the stream's later events are not
// recorded and the exchange says so.
func WithMaxEventSize(n int) Option {
	return func(r *Recorder) {
		if n > 0 {
			r.maxEvent = n
		}
	}
}

// WithStart sets the time AtMs counts from, e.g. the run's start. It must
// come from time.Now() so that it carries a monotonic reading.
func WithStart(t time.Time) Option {
	return func(r *Recorder) { r.start = t }
}

// Recorder records exchanges. It is safe for concurrent use.
type Recorder struct {
	start          time.Time
	bodyCap        int
	eventCap       int
	maxExchanges   int
	maxEvent       int
	instanceHeader string
	secrets        []string
	labels         map[string]string
	secretHeaders  []string
	secretQuery    []string

	mu        sync.Mutex
	red       *redactor
	exchanges []*exchange
	seq       int
	dropped   int
}

// New returns a recorder whose clock starts now unless WithStart says
// otherwise.
func New(opts ...Option) *Recorder {
	r := &Recorder{
		start: time.Now(), bodyCap: DefaultBodyCap, eventCap: DefaultEventCap,
		maxExchanges: DefaultMaxExchanges, maxEvent: sse.DefaultMaxEventSize,
		instanceHeader: DefaultInstanceHeader,
	}
	for _, o := range opts {
		o(r)
	}
	r.secretHeaders = append(append([]string(nil), defaultSecretHeaders...), r.secretHeaders...)
	r.secretQuery = append(append([]string(nil), defaultSecretQuery...), r.secretQuery...)
	r.red = newRedactor(r.secrets, r.secretHeaders, r.secretQuery, r.labels)
	return r
}

// AddSecret registers credential values learned during the run (a webhook
// token, a minted bearer token). They are redacted from every exchange
// exported from now on, including earlier ones.
func (r *Recorder) AddSecret(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets = append(r.secrets, values...)
	r.red = newRedactor(r.secrets, r.secretHeaders, r.secretQuery, r.labels)
}

// Start returns the time AtMs counts from.
func (r *Recorder) Start() time.Time { return r.start }

// Dropped returns how many old exchanges were discarded to stay within
// MaxExchanges.
func (r *Recorder) Dropped() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// capture keeps the first limit bytes written to it and counts the rest.
type capture struct {
	b     []byte
	total int64
}

func (c *capture) write(p []byte, limit int) {
	c.total += int64(len(p))
	if room := limit - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
}

type event struct {
	at   time.Duration
	data []byte
	cut  bool
}

// exchange is one recorded exchange, raw (unredacted) until exported.
type exchange struct {
	seq        int
	owner      string
	at         time.Duration
	end        time.Duration
	finished   bool
	dir        string
	method     string
	url        *url.URL
	status     int
	instance   string
	reqHeader  http.Header
	respHeader http.Header
	reqBody    capture
	respBody   capture
	sse        bool
	events     []event
	evDropped  int
	err        string
}

func (r *Recorder) overlap() int {
	return max(minOverlap, r.red.longest)
}

// add registers a new exchange under the lock and returns it.
func (r *Recorder) add(ex *exchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	ex.seq = r.seq
	r.exchanges = append(r.exchanges, ex)
	if over := len(r.exchanges) - r.maxExchanges; over > 0 {
		clear(r.exchanges[:over])
		r.exchanges = r.exchanges[over:]
		r.dropped += over
	}
}

// Wrap returns a RoundTripper that records every exchange made through next
// (http.DefaultTransport when nil).
func (r *Recorder) Wrap(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &transport{r: r, next: next}
}

// HTTPClient returns an http.Client recording through Wrap(next).
func (r *Recorder) HTTPClient(next http.RoundTripper) *http.Client {
	return &http.Client{Transport: r.Wrap(next)}
}

type transport struct {
	r    *Recorder
	next http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := t.r
	ex := &exchange{at: time.Since(r.start), dir: "out", method: req.Method,
		url: cloneURL(req.URL), reqHeader: req.Header.Clone(), owner: OwnerOf(req.Context())}
	r.mu.Lock()
	limit := r.bodyCap + r.overlap()
	r.mu.Unlock()
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody != nil {
			// Read a copy: the request's own body is left to the transport.
			if rc, err := req.GetBody(); err == nil {
				b, _ := io.ReadAll(io.LimitReader(rc, int64(limit)+1))
				rc.Close()
				ex.reqBody.write(b, limit)
				if len(b) > limit {
					ex.reqBody.total = -1 // length unknown beyond the copy
				}
			}
		} else {
			// No way to copy it: observe it as the transport reads it.
			req = req.Clone(req.Context())
			req.Body = &reqTap{rc: req.Body, r: r, ex: ex, limit: limit}
		}
	}
	r.add(ex)
	noteSeq(req.Context(), ex.seq)
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		r.mu.Lock()
		ex.err = err.Error()
		ex.end, ex.finished = time.Since(r.start), true
		r.mu.Unlock()
		return resp, err
	}
	r.mu.Lock()
	ex.status = resp.StatusCode
	ex.respHeader = resp.Header.Clone()
	if r.instanceHeader != "" {
		ex.instance = resp.Header.Get(r.instanceHeader)
	}
	ex.sse = isSSE(resp.Header.Get("Content-Type"))
	r.mu.Unlock()
	if resp.Body == nil || resp.Body == http.NoBody {
		r.finish(ex, nil)
		return resp, nil
	}
	tap := &respTap{rc: resp.Body, r: r, ex: ex, limit: limit}
	if ex.sse {
		tap.dec = sse.NewDecoder(sse.WithMaxEventSize(r.maxEvent), sse.WithMaxLineLength(r.maxEvent))
	}
	resp.Body = tap
	return resp, nil
}

func cloneURL(u *url.URL) *url.URL {
	if u == nil {
		return nil
	}
	cp := *u
	if u.User != nil {
		ui := *u.User
		cp.User = &ui
	}
	return &cp
}

func isSSE(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "text/event-stream"
}

// finish closes the exchange's timing once; err is a body read failure.
func (r *Recorder) finish(ex *exchange, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ex.finished {
		return
	}
	ex.end, ex.finished = time.Since(r.start), true
	if err != nil && !errors.Is(err, io.EOF) && ex.err == "" {
		ex.err = "reading the response body: " + err.Error()
	}
}

type reqTap struct {
	rc    io.ReadCloser
	r     *Recorder
	ex    *exchange
	limit int
}

func (t *reqTap) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	if n > 0 {
		t.r.mu.Lock()
		t.ex.reqBody.write(p[:n], t.limit)
		t.r.mu.Unlock()
	}
	return n, err
}

func (t *reqTap) Close() error { return t.rc.Close() }

// respTap records the body as the client reads it and, for a stream, decodes
// events on the side without affecting what the client sees.
type respTap struct {
	rc     io.ReadCloser
	r      *Recorder
	ex     *exchange
	limit  int
	dec    *sse.Decoder
	decErr bool
}

func (t *respTap) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	if n > 0 {
		t.observe(p[:n])
	}
	if errors.Is(err, io.EOF) && t.dec != nil && !t.decErr {
		var inc *sse.IncompleteEventError
		if end := t.dec.End(); errors.As(end, &inc) {
			t.r.mu.Lock()
			t.ex.events = append(t.ex.events, event{at: time.Since(t.r.start), data: inc.Pending})
			t.ex.err = "stream ended inside an event (no blank line after its data); the last event shown was not dispatched"
			t.r.mu.Unlock()
		}
	}
	if err != nil {
		t.r.finish(t.ex, err)
	}
	return n, err
}

func (t *respTap) observe(p []byte) {
	r := t.r
	if t.dec == nil {
		r.mu.Lock()
		t.ex.respBody.write(p, t.limit)
		r.mu.Unlock()
		return
	}
	if t.decErr {
		return
	}
	var evs []event
	err := t.dec.Feed(p, func(ev sse.Event) {
		at := time.Since(r.start)
		d := ev.Data
		cut := len(d) > t.limit
		if cut {
			d = d[:t.limit]
		}
		evs = append(evs, event{at: at, data: []byte(d), cut: cut})
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range evs {
		if len(t.ex.events) >= r.eventCap {
			t.ex.evDropped++
			continue
		}
		t.ex.events = append(t.ex.events, ev)
	}
	if err != nil {
		t.decErr = true
		t.ex.err = fmt.Sprintf("stream not recorded past this point: %v", err)
	}
}

func (t *respTap) Close() error {
	err := t.rc.Close()
	t.r.finish(t.ex, nil)
	return err
}

// RecordInbound records a request the harness received (a webhook delivery)
// and the status it answered, through the same redaction and caps. body is
// the request body as read by the receiver. It returns the exchange's Seq.
func (r *Recorder) RecordInbound(req *http.Request, body []byte, status int) int {
	u := cloneURL(req.URL)
	if u != nil && u.Host == "" {
		u.Host = req.Host
		u.Scheme = "http"
		if req.TLS != nil {
			u.Scheme = "https"
		}
	}
	at := time.Since(r.start)
	ex := &exchange{at: at, end: at, finished: true, dir: "in", method: req.Method, url: u,
		status: status, reqHeader: req.Header.Clone(), owner: OwnerOf(req.Context())}
	r.mu.Lock()
	limit := r.bodyCap + r.overlap()
	if r.instanceHeader != "" {
		ex.instance = req.Header.Get(r.instanceHeader)
	}
	r.mu.Unlock()
	ex.reqBody.write(body, limit)
	r.add(ex)
	return ex.seq
}

// Mark identifies a point in the recording; Since(mark) returns what came
// after it.
type Mark int

// Mark returns the current point, so a spec can take just the exchanges it
// caused.
func (r *Recorder) Mark() Mark {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Mark(r.seq)
}

// Since exports, redacted, the exchanges begun after m, in order.
func (r *Recorder) Since(m Mark) []reports.Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []reports.Exchange
	for _, ex := range r.exchanges {
		if ex.seq > int(m) {
			out = append(out, r.export(ex))
		}
	}
	return out
}

type ownerKey struct{}

// WithOwner tags ctx with the spec on whose behalf requests made with it are
// sent, so that concurrent specs each get their own transcript (Owned).
func WithOwner(ctx context.Context, owner string) context.Context {
	return context.WithValue(ctx, ownerKey{}, owner)
}

type seqSinkKey struct{}

// WithSeqSink asks the recorder to store in sink the run-wide sequence
// number of the exchange a request made with ctx becomes (the last one,
// when the call makes several), so that what a spec saw in the answer can
// cite the exchange by the number the transcript shows.
func WithSeqSink(ctx context.Context, sink *atomic.Int64) context.Context {
	return context.WithValue(ctx, seqSinkKey{}, sink)
}

func noteSeq(ctx context.Context, seq int) {
	if sink, ok := ctx.Value(seqSinkKey{}).(*atomic.Int64); ok && sink != nil {
		sink.Store(int64(seq))
	}
}

// OwnerOf returns the owner WithOwner put in ctx, or "".
func OwnerOf(ctx context.Context) string {
	s, _ := ctx.Value(ownerKey{}).(string)
	return s
}

// Owned exports, redacted and in order, the exchanges made for one owner.
func (r *Recorder) Owned(owner string) []reports.Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []reports.Exchange
	for _, ex := range r.exchanges {
		if ex.owner == owner && owner != "" {
			out = append(out, r.export(ex))
		}
	}
	return out
}

// All exports every exchange kept.
func (r *Recorder) All() []reports.Exchange { return r.Since(0) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// body renders a capture redacted and cut at the cap, with a marker saying
// how much there was when it was cut.
func (r *Recorder) body(c capture, truncated *bool) string {
	if len(c.b) == 0 {
		return ""
	}
	s := r.red.text(string(c.b))
	if len(c.b) > r.bodyCap || c.total > int64(len(c.b)) || c.total < 0 {
		*truncated = true
		if len(s) > r.bodyCap {
			s = s[:r.bodyCap]
		}
		if c.total > 0 {
			s += fmt.Sprintf("\n[… truncated at %d bytes of %d]", r.bodyCap, c.total)
		} else {
			s += fmt.Sprintf("\n[… truncated at %d bytes]", r.bodyCap)
		}
	}
	return s
}

// errorText redacts an error message, which may quote the request URL
// (secret query values included) as well as configured secrets.
func (r *Recorder) errorText(ex *exchange) string {
	msg := ex.err
	if msg != "" && ex.url != nil {
		raw := ex.url.String()
		msg = strings.ReplaceAll(msg, raw, r.red.url(ex.url))
		if unq, err := url.PathUnescape(raw); err == nil && unq != raw {
			msg = strings.ReplaceAll(msg, unq, r.red.url(ex.url))
		}
	}
	return r.red.text(msg)
}

// export must be called with r.mu held.
func (r *Recorder) export(ex *exchange) reports.Exchange {
	rd := r.red
	e := reports.Exchange{
		Seq: ex.seq, AtMs: ms(ex.at), Direction: ex.dir, Method: ex.method, URL: rd.url(ex.url),
		Status: ex.status, Instance: rd.text(ex.instance),
		ReqHeader: rd.header(ex.reqHeader), RespHeader: rd.header(ex.respHeader),
		Error: r.errorText(ex),
	}
	// The duration runs between the two instants as written (each cut to
	// the microsecond), so that at + dur is the end as written and no event
	// read before the end shows after it.
	end := time.Since(r.start)
	if ex.finished {
		end = ex.end
	}
	e.DurMs = float64(end.Microseconds()-ex.at.Microseconds()) / 1000
	e.ReqBody = r.body(ex.reqBody, &e.Truncated)
	e.RespBody = r.body(ex.respBody, &e.Truncated)
	for _, ev := range ex.events {
		d := rd.text(string(ev.data))
		if len(d) > r.bodyCap || ev.cut {
			d = d[:min(len(d), r.bodyCap)] + "\n[… event truncated]"
			e.Truncated = true
		}
		e.Events = append(e.Events, reports.Event{AtMs: ms(ev.at), Data: d})
	}
	if ex.evDropped > 0 {
		e.Truncated = true
		note := fmt.Sprintf("%d more event(s) not recorded (cap %d)", ex.evDropped, r.eventCap)
		if e.Error == "" {
			e.Error = note
		} else {
			e.Error += "; " + note
		}
	}
	return e
}

// BeginServed records a request a server of the harness is answering
// (client mode's scripted agent, internal/clientrun) when it arrives, so
// that its Seq follows the order in which things happened: the request as
// received, from began. The owner comes from req's context (WithOwner). The
// returned ServedExchange takes each SSE event of a streamed answer as it is
// written (its time is when it went out) and, at Finish, the status, headers
// and body it was answered with. Everything passes the same redaction and
// caps as the harness's own requests.
func (r *Recorder) BeginServed(req *http.Request, reqBody []byte, began time.Time) *ServedExchange {
	u := cloneURL(req.URL)
	if u != nil && u.Host == "" {
		u.Host = req.Host
		u.Scheme = "http"
		if req.TLS != nil {
			u.Scheme = "https"
		}
	}
	ex := &exchange{at: began.Sub(r.start), dir: "in", method: req.Method, url: u,
		reqHeader: req.Header.Clone(), owner: OwnerOf(req.Context())}
	r.mu.Lock()
	limit := r.bodyCap + r.overlap()
	r.mu.Unlock()
	ex.reqBody.write(reqBody, limit)
	r.add(ex)
	return &ServedExchange{r: r, ex: ex, limit: limit}
}

// ServedExchange is one answer being served, from BeginServed.
type ServedExchange struct {
	r     *Recorder
	ex    *exchange
	limit int
}

// Seq is the exchange's place in the run's transcript.
func (s *ServedExchange) Seq() int { return s.ex.seq }

// Event records one SSE event's data as it is sent.
func (s *ServedExchange) Event(data []byte) {
	r, ex := s.r, s.ex
	r.mu.Lock()
	defer r.mu.Unlock()
	if ex.finished {
		return
	}
	ex.sse = true
	if len(ex.events) >= r.eventCap {
		ex.evDropped++
		return
	}
	ex.events = append(ex.events, event{at: time.Since(r.start),
		data: append([]byte(nil), data[:min(len(data), s.limit)]...), cut: len(data) > s.limit})
}

// Finish records how the request was answered: its status and headers, and
// its body when it was not a stream. It is recorded once.
func (s *ServedExchange) Finish(status int, respHeader http.Header, respBody []byte) {
	r, ex := s.r, s.ex
	r.mu.Lock()
	defer r.mu.Unlock()
	if ex.finished {
		return
	}
	ex.end, ex.finished = time.Since(r.start), true
	ex.status = status
	ex.respHeader = respHeader.Clone()
	if r.instanceHeader != "" {
		ex.instance = respHeader.Get(r.instanceHeader)
	}
	if !ex.sse {
		ex.respBody.write(respBody, s.limit)
	}
}

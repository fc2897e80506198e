// Package webhook is the harness's push-notification receiver: a loopback
// (or configured) HTTP listener that accepts the agent's webhook POSTs, records
// each one through the recorder (redacted like every other exchange), judges
// what it can judge alone (the config it names, its credentials, its size, its
// shape) and hands every delivery to whichever spec registered the URL's token.
//
// A token is one push config of the harness: the spec that made it claims it
// (Claim), says which Authorization the agent must send for it (Authorize)
// and may script the receiver's answers to it (Script), to see what the agent
// does when its webhook fails.
package webhook

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
	"github.com/a2a-conform/a2a-conform/schemas"
)

// MaxBody caps one delivery: a StreamResponse is small; anything larger is
// answered 413, recorded as a violation and never trusted.
const MaxBody = 1 << 20

// MaxHang bounds how long a scripted "no answer" holds a delivery open when
// the agent does not give up first (the spec recommends 10–30 s timeouts).
const MaxHang = 60 * time.Second

// Why a delivery is not trusted: its content says nothing about the config.
const (
	// Unknown: the URL names no config the harness registered.
	Unknown = "unknown config"
	// Unauthenticated: the Authorization header is not the config's.
	Unauthenticated = "unauthenticated"
	// OverCap: the body is larger than MaxBody.
	OverCap = "over the cap"
)

// Delivery is one webhook POST as received.
type Delivery struct {
	// Token names the config the delivery was for (the URL's last segment).
	Token string
	// Owner is the spec that claimed the token ("" for an unknown config).
	Owner string
	// At is when it arrived; Attempt counts the POSTs to this token so far
	// (1 for the first).
	At      time.Time
	Attempt int
	Header  http.Header
	Body    []byte
	// Resp is the decoded body; DecodeErr says why it is not a StreamResponse.
	Resp      a2a.StreamResponse
	DecodeErr error
	// Invalid holds the body's departures from the StreamResponse schema and
	// from "exactly one member" (§4.3.3); the receiver still acknowledges it:
	// the spec judges.
	Invalid []invariants.Violation
	// Untrusted says why the delivery proves nothing about its config
	// (Unknown, Unauthenticated, OverCap); empty when trusted.
	Untrusted string
	// Status is what the receiver answered; Scripted says that answer was a
	// scripted failure, not an acknowledgement.
	Status   int
	Scripted bool
}

// Trusted reports whether the delivery is authenticated, for a known config
// and within the cap: only such a delivery counts as the config's.
func (d Delivery) Trusted() bool { return d.Untrusted == "" }

// Acknowledged reports whether the receiver answered 2xx: the agent was told
// the event arrived.
func (d Delivery) Acknowledged() bool { return d.Status >= 200 && d.Status < 300 }

// TaskID is the task the body is about ("" when it does not decode).
func (d Delivery) TaskID() string {
	if d.DecodeErr != nil {
		return ""
	}
	return d.Resp.TaskID()
}

// Script makes the receiver fail the first attempts to one config, to see
// whether the agent retries: each of the first First POSTs is answered
// Status (e.g. 503 or 401), after Delay; with Hang it is not answered at all
// until the agent gives up (at most MaxHang). Later POSTs are acknowledged.
type Script struct {
	First  int
	Status int
	Delay  time.Duration
	Hang   bool
}

// Receiver accepts deliveries at {URL}/hook/{token}.
type Receiver struct {
	srv  *http.Server
	ln   net.Listener
	base string
	rec  *recorder.Recorder

	mu     sync.Mutex
	byTok  map[string][]Delivery
	notify map[string]func(Delivery)
	// owners maps a token to the spec that made it, so that deliveries join
	// that spec's transcript (recorder.WithOwner); a token nobody claimed is
	// an unknown config.
	owners  map[string]string
	auth    map[string]string
	scripts map[string]Script
	// trusted counts acknowledged, trusted deliveries of the whole run: one
	// shows that the agent can reach the receiver.
	trusted atomic.Int64
	closing chan struct{}
}

// Claim records that deliveries to token belong to owner (a spec ID). A
// delivery to a token nobody claimed is for an unknown config.
func (r *Receiver) Claim(token, owner string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.owners[token] = owner
}

// Authorize sets the Authorization header value the agent must send with
// every delivery to token ("<scheme> <credentials>" from the config the
// harness registered, §4.3.3); a delivery without exactly that value is
// answered 401, recorded as unauthenticated and not trusted. A token without
// one accepts any Authorization.
func (r *Receiver) Authorize(token, header string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.auth[token] = header
}

// Script sets how the receiver answers deliveries to token.
func (r *Receiver) Script(token string, s Script) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scripts[token] = s
}

// Start listens on listen (default 127.0.0.1:0), and nowhere else. publicURL
// is the base URL the agent must use when it differs from the listen address
// (a tunnel, an ingress); empty means http://<listen address>.
func Start(listen, publicURL string, rec *recorder.Recorder) (*Receiver, error) {
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("webhook receiver: %w", err)
	}
	r := &Receiver{ln: ln, rec: rec, byTok: map[string][]Delivery{}, notify: map[string]func(Delivery){},
		owners: map[string]string{}, auth: map[string]string{}, scripts: map[string]Script{}, closing: make(chan struct{})}
	r.base = strings.TrimRight(publicURL, "/")
	if r.base == "" {
		r.base = "http://" + ln.Addr().String()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", r.handle) // everything is recorded; only POST /hook/{token} is accepted
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	go r.srv.Serve(ln)
	return r, nil
}

// Base is the receiver's base URL as given to agents.
func (r *Receiver) Base() string { return r.base }

// Addr is the address the receiver listens on.
func (r *Receiver) Addr() string { return r.ln.Addr().String() }

// NewToken returns a fresh random token, so each spec's deliveries are its own.
func NewToken() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// SecretPrefix begins every push credential the harness invents. It is a
// variable so that a test can make it a canary and follow the credential
// through every output of a run (internal/runner's secrets test).
var SecretPrefix = "a2a-conform-push-"

// NewSecret returns a fresh push credential for one spec's push config. The
// caller registers it as a transcript secret before it goes on the wire.
func NewSecret() string { return SecretPrefix + NewToken() }

// URL is the webhook URL for a token.
func (r *Receiver) URL(token string) string { return r.base + "/hook/" + token }

// OnDelivery registers f to be told of every delivery to token as it arrives
// (deliveries that came earlier are replayed first). Untrusted ones are
// passed too: check Trusted.
func (r *Receiver) OnDelivery(token string, f func(Delivery)) {
	r.mu.Lock()
	r.notify[token] = f
	past := append([]Delivery(nil), r.byTok[token]...)
	r.mu.Unlock()
	for _, d := range past {
		f(d)
	}
}

// Deliveries returns every POST that arrived for token so far, trusted or
// not, failed by a script or acknowledged.
func (r *Receiver) Deliveries(token string) []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Delivery(nil), r.byTok[token]...)
}

// Reached is how many trusted deliveries the receiver acknowledged in the
// whole run, for any config: more than none shows the agent can reach it.
func (r *Receiver) Reached() int64 { return r.trusted.Load() }

func (r *Receiver) handle(w http.ResponseWriter, req *http.Request) {
	token, ok := strings.CutPrefix(req.URL.Path, "/hook/")
	if !ok || req.Method != http.MethodPost || token == "" || strings.Contains(token, "/") {
		r.record(req, nil, http.StatusNotFound)
		http.NotFound(w, req)
		return
	}
	d := Delivery{Token: token, At: time.Now(), Header: req.Header.Clone()}
	body, err := io.ReadAll(io.LimitReader(req.Body, MaxBody+1))
	if err != nil {
		r.record(req, body, http.StatusBadRequest)
		http.Error(w, "could not read the body", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	owner, known := r.owners[token]
	want, authSet := r.auth[token]
	script := r.scripts[token]
	d.Owner = owner
	d.Attempt = len(r.byTok[token]) + 1
	r.mu.Unlock()
	switch {
	case len(body) > MaxBody:
		d.Untrusted, d.Status, body = OverCap, http.StatusRequestEntityTooLarge, body[:MaxBody]
	case !known:
		d.Untrusted, d.Status = Unknown, http.StatusNotFound
	case authSet && !AuthMatches(req.Header.Get("Authorization"), want):
		d.Untrusted, d.Status = Unauthenticated, http.StatusUnauthorized
	default:
		d.Status = http.StatusOK
	}
	d.Body = body
	if d.Untrusted != OverCap {
		d.DecodeErr = json.Unmarshal(body, &d.Resp)
		d.Invalid = Check(body)
	}
	if d.Untrusted == "" && d.Attempt <= script.First {
		d.Scripted = true
		d.Status = script.Status
		if d.Status == 0 {
			d.Status = http.StatusServiceUnavailable
		}
		r.hold(req.Context(), script)
	}
	r.record(req, body, d.Status)
	r.mu.Lock()
	r.byTok[token] = append(r.byTok[token], d)
	f := r.notify[token]
	r.mu.Unlock()
	if d.Trusted() && d.Acknowledged() {
		r.trusted.Add(1)
	}
	if f != nil {
		f(d)
	}
	if d.Scripted && script.Hang {
		// The agent gave up (or MaxHang passed): drop the connection unanswered.
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
	}
	if d.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	w.WriteHeader(d.Status)
}

// AuthMatches reports whether an Authorization value carries the wanted
// "<scheme> <credentials>": the scheme compared without regard to case (an
// IANA HTTP authentication scheme, RFC 9110 §11.1), the credentials exactly.
func AuthMatches(got, want string) bool {
	gs, gc, _ := strings.Cut(strings.TrimSpace(got), " ")
	ws, wc, _ := strings.Cut(want, " ")
	return strings.EqualFold(gs, ws) && subtle.ConstantTimeCompare([]byte(strings.TrimLeft(gc, " ")), []byte(wc)) == 1
}

// hold delays a scripted answer: Delay, or until the agent hangs up.
func (r *Receiver) hold(ctx context.Context, s Script) {
	var wait <-chan time.Time
	switch {
	case s.Hang:
		wait = time.After(MaxHang)
	case s.Delay > 0:
		wait = time.After(s.Delay)
	default:
		return
	}
	select {
	case <-wait:
	case <-ctx.Done():
	case <-r.closing:
	}
}

// Check judges a webhook body (§4.3.3): a StreamResponse (schema) with
// exactly one of task, message, statusUpdate and artifactUpdate.
func Check(body []byte) []invariants.Violation {
	vs, err := schemas.Validate(schemas.StreamResponse, body)
	if err != nil {
		vs = append(vs, invariants.Violation{Invariant: "push-body", Expected: "a StreamResponse", Actual: err.Error()})
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &members) == nil {
		var set []string
		for _, k := range []string{"task", "message", "statusUpdate", "artifactUpdate"} {
			if v, ok := members[k]; ok && string(v) != "null" {
				set = append(set, k)
			}
		}
		if len(set) != 1 {
			vs = append(vs, invariants.Violation{Invariant: "push-body",
				Expected: "exactly one of task, message, statusUpdate, artifactUpdate",
				Actual:   fmt.Sprintf("%d (%s)", len(set), strings.Join(set, ", "))})
		}
	}
	return vs
}

func (r *Receiver) record(req *http.Request, body []byte, status int) {
	if r.rec == nil {
		return
	}
	token, _ := strings.CutPrefix(req.URL.Path, "/hook/")
	r.mu.Lock()
	owner := r.owners[token]
	r.mu.Unlock()
	if owner != "" {
		req = req.WithContext(recorder.WithOwner(req.Context(), owner))
	}
	r.rec.RecordInbound(req, body, status)
}

// Close stops the listener.
func (r *Receiver) Close() error {
	close(r.closing)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return r.srv.Shutdown(ctx)
}

// Canary is a loopback listener nobody registered a config for: an agent
// given its URL SHOULD refuse it (§13.2), and whatever arrives is recorded.
// It listens on 127.0.0.1 only, never anywhere else.
type Canary struct {
	srv *http.Server
	ln  net.Listener
	mu  sync.Mutex
	at  []time.Time
	rec *recorder.Recorder
	// Owner is the spec whose transcript the canary's requests join.
	owner string
}

// CanaryHost is the loopback address the canary listens on: not the
// receiver's 127.0.0.1, so that an agent whose allow-list admits the
// receiver's host alone refuses the canary, and the two halves of PUSH-010
// (the receiver is delivered to, the canary is not) are judged in one run.
// Where the host has no 127.0.0.2 (a system that routes only 127.0.0.1),
// the canary falls back to a fresh port of 127.0.0.1.
const CanaryHost = "127.0.0.2"

// StartCanary starts a canary on a fresh loopback port, of CanaryHost when
// it can.
func StartCanary(rec *recorder.Recorder, owner string) (*Canary, error) {
	ln, err := net.Listen("tcp", CanaryHost+":0")
	if err != nil {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return nil, fmt.Errorf("webhook canary: %w", err)
	}
	c := &Canary{ln: ln, rec: rec, owner: owner}
	c.srv = &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(req.Body, 64<<10))
		c.mu.Lock()
		c.at = append(c.at, time.Now())
		c.mu.Unlock()
		if c.rec != nil {
			c.rec.RecordInbound(req.WithContext(recorder.WithOwner(req.Context(), c.owner)), body, http.StatusOK)
		}
		w.WriteHeader(http.StatusOK)
	})}
	go c.srv.Serve(ln)
	return c, nil
}

// URL is the canary's webhook URL.
func (c *Canary) URL() string { return "http://" + c.ln.Addr().String() + "/hook/canary" }

// Hits are the arrival times of every request the canary got.
func (c *Canary) Hits() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Time(nil), c.at...)
}

// Close stops the canary.
func (c *Canary) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return c.srv.Shutdown(ctx)
}

// Package webhook is the harness's push-notification receiver: a loopback
// (or configured) HTTP listener that accepts the agent's webhook POSTs, records
// each one through the recorder (redacted like every other exchange) and hands
// the decoded StreamResponse to whichever spec registered the URL's token.
package webhook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
)

// MaxBody caps one delivery: a StreamResponse is small; anything larger is
// answered 413 and recorded as such.
const MaxBody = 1 << 20

// Delivery is one webhook POST as received.
type Delivery struct {
	Token  string
	Header http.Header
	Body   []byte
	// Resp is the decoded body; DecodeErr says why it is not a StreamResponse.
	Resp      a2a.StreamResponse
	DecodeErr error
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
	// that spec's transcript (recorder.WithOwner).
	owners map[string]string
}

// Claim records that deliveries to token belong to owner (a spec ID).
func (r *Receiver) Claim(token, owner string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.owners[token] = owner
}

// Start listens on listen (default 127.0.0.1:0). publicURL is the base URL
// the agent must use when it differs from the listen address (a tunnel, a
// host name the agent can resolve); empty means http://<listen address>.
func Start(listen, publicURL string, rec *recorder.Recorder) (*Receiver, error) {
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("webhook receiver: %w", err)
	}
	r := &Receiver{ln: ln, rec: rec, byTok: map[string][]Delivery{}, notify: map[string]func(Delivery){}, owners: map[string]string{}}
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
// (deliveries that came earlier are replayed first).
func (r *Receiver) OnDelivery(token string, f func(Delivery)) {
	r.mu.Lock()
	r.notify[token] = f
	past := append([]Delivery(nil), r.byTok[token]...)
	r.mu.Unlock()
	for _, d := range past {
		f(d)
	}
}

// Deliveries returns what arrived for token so far.
func (r *Receiver) Deliveries(token string) []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Delivery(nil), r.byTok[token]...)
}

func (r *Receiver) handle(w http.ResponseWriter, req *http.Request) {
	token, ok := strings.CutPrefix(req.URL.Path, "/hook/")
	if !ok || req.Method != http.MethodPost || token == "" || strings.Contains(token, "/") {
		r.record(req, nil, http.StatusNotFound)
		http.NotFound(w, req)
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, MaxBody+1))
	if err != nil {
		r.record(req, body, http.StatusBadRequest)
		http.Error(w, "could not read the body", http.StatusBadRequest)
		return
	}
	if len(body) > MaxBody {
		r.record(req, body[:MaxBody], http.StatusRequestEntityTooLarge)
		http.Error(w, "delivery larger than 1 MiB", http.StatusRequestEntityTooLarge)
		return
	}
	d := Delivery{Token: token, Header: req.Header.Clone(), Body: body}
	d.DecodeErr = json.Unmarshal(body, &d.Resp)
	r.record(req, body, http.StatusOK)
	r.mu.Lock()
	r.byTok[token] = append(r.byTok[token], d)
	f := r.notify[token]
	r.mu.Unlock()
	if f != nil {
		f(d)
	}
	w.WriteHeader(http.StatusOK)
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
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return r.srv.Shutdown(ctx)
}

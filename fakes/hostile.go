package fakes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// The hostile agent misbehaves on every call, at the transport and encoding
// level, so that the harness can be tested against what real deployments
// occasionally do to a client: bodies that never end or are cut, streams
// that drip or never close, garbage that is almost JSON. It serves a card
// (clean, except in "all" mode after the first fetch) so that specs get past
// discovery and meet the misbehaviour. Behind it runs a clean reference
// agent, whose real answers most behaviours distort.
//
// Bounds on its own side: one answer goes on at most HostileMaxResponse, and
// stops at the first failed write or when the client leaves.

// HostileMaxResponse bounds one hostile answer (a drip, an endless stream):
// the server never outlives a forgotten client by more than this.
const HostileMaxResponse = 2 * time.Minute

// HostileAll is the mode that rotates every behaviour, one per request.
const HostileAll = "all"

const (
	hugeBodyBytes   = 200 << 20 // the "huge-body" answer, generated on the fly
	deepNesting     = 100_000   // levels of [ in "deep-nesting"
	hugeDigits      = 100_000   // digits of the number in "huge-numbers"
	bigHeaderBytes  = 1 << 20   // response header bytes in "big-headers"
	endlessInterval = 100 * time.Millisecond
)

type hostileFn func(h *Hostile, w http.ResponseWriter, r *http.Request)

// hostileBehaviours, in rotation order. Each is one small function below.
var hostileBehaviours = []struct {
	name, desc string
	fn         hostileFn
}{
	{"invalid-json", "a 200 answer with the right content type whose body is not JSON", invalidJSON},
	{"truncated", "the real answer cut in half: Content-Length promises more, then the connection closes", truncated},
	{"huge-body", "a 200 MiB answer (one 200 MiB event on a stream), generated on the fly", hugeBody},
	{"endless-stream", "an event stream for every call: a WORKING event every 100 ms, never closed", endlessStream},
	{"drip", "the real answer, one byte a second", drip},
	{"wrong-content-type", "the real answer labelled text/html", wrongContentType},
	{"redirect", "307 to the same path on another (loopback) origin, which answers correctly", redirect},
	{"invalid-utf8", "the real answer with invalid UTF-8 bytes at the start of every string value", invalidUTF8},
	{"deep-nesting", "a result that is an array nested 100,000 deep", deepNested},
	{"huge-numbers", "the real answer with a 100,000-digit number member", hugeNumbers},
	{"duplicate-keys", "the real answer with its first member repeated with a decoy value", duplicateKeys},
	{"reset", "the real answer's headers and half its body, then a TCP reset", reset},
	{"big-headers", "the real answer behind 1 MiB of response headers", bigHeaders},
}

// HostileBehaviours lists the behaviour names, plus "all".
func HostileBehaviours() []string {
	out := make([]string, 0, len(hostileBehaviours)+1)
	for _, b := range hostileBehaviours {
		out = append(out, b.name)
	}
	sort.Strings(out)
	return append(out, HostileAll)
}

// HostileDescription describes one behaviour ("" when unknown).
func HostileDescription(name string) string {
	if name == HostileAll {
		return "every behaviour in turn, one per request (card included, after the first fetch)"
	}
	for _, b := range hostileBehaviours {
		if b.name == name {
			return b.desc
		}
	}
	return ""
}

// Hostile is the hostile agent, an http.Handler.
type Hostile struct {
	agent    *Agent
	mode     string
	fn       hostileFn
	other    string // origin of the redirect target: another loopback listener
	requests atomic.Uint64
	cards    atomic.Uint64
}

// NewHostile builds a hostile agent in mode (a behaviour name or "all");
// redirectTo is the origin "redirect" sends clients to.
func NewHostile(mode, redirectTo string) (*Hostile, error) {
	h := &Hostile{mode: mode, other: strings.TrimRight(redirectTo, "/")}
	if mode != HostileAll {
		for _, b := range hostileBehaviours {
			if b.name == mode {
				h.fn = b.fn
			}
		}
		if h.fn == nil {
			return nil, fmt.Errorf("hostile behaviour %q: want one of %s", mode, strings.Join(HostileBehaviours(), ", "))
		}
	}
	a, err := New(Options{Name: "hostile-" + mode})
	if err != nil {
		return nil, err
	}
	h.agent = a
	return h, nil
}

// Agent is the clean agent behind the hostile one (the redirect target serves it).
func (h *Hostile) Agent() *Agent { return h.agent }

// Start and Shutdown start and drain the clean agent behind.
func (h *Hostile) Start(ctx context.Context) error    { return h.agent.Start(ctx) }
func (h *Hostile) Shutdown(ctx context.Context) error { return h.agent.Shutdown(ctx) }

func (h *Hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), HostileMaxResponse)
	defer cancel()
	r = r.WithContext(ctx)
	if strings.HasSuffix(r.URL.Path, "/.well-known/agent-card.json") || r.URL.Path == "/.well-known/jwks.json" {
		// The card is clean, so that specs get past discovery; in "all" mode
		// only the first fetch is, and later ones meet the rotation too.
		if h.mode != HostileAll || h.cards.Add(1) == 1 {
			h.agent.ServeHTTP(w, r)
			return
		}
	}
	fn := h.fn
	if fn == nil {
		n := h.requests.Add(1) - 1
		fn = hostileBehaviours[n%uint64(len(hostileBehaviours))].fn
	}
	fn(h, w, r)
}

// streamWanted says whether the client asked for an event stream.
func streamWanted(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream") ||
		strings.Contains(r.URL.Path, "stream") || strings.Contains(r.URL.Path, "subscribe")
}

// real is the clean agent's answer to r, buffered (its answers are small, and
// a stream ends at the task's end or when the client leaves).
func (h *Hostile) real(r *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.agent.ServeHTTP(rec, r)
	return rec
}

func copyHeader(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, vs := range rec.Header() {
		w.Header()[k] = vs
	}
}

// flushed writes p and flushes it, reporting whether the client still reads.
func flushed(w http.ResponseWriter, p []byte) bool {
	if _, err := w.Write(p); err != nil {
		return false
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	return true
}

// mapJSON applies f to a JSON body, or to each data line of an event stream.
func mapJSON(rec *httptest.ResponseRecorder, f func([]byte) []byte) []byte {
	body := rec.Body.Bytes()
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		return f(body)
	}
	lines := bytes.Split(body, []byte("\n"))
	for i, l := range lines {
		if d, ok := bytes.CutPrefix(l, []byte("data:")); ok {
			lines[i] = append([]byte("data: "), f(bytes.TrimSpace(d))...)
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

func writeDistorted(h *Hostile, w http.ResponseWriter, r *http.Request, f func([]byte) []byte) {
	rec := h.real(r)
	body := mapJSON(rec, f)
	copyHeader(w, rec)
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	w.Write(body)
}

func invalidJSON(h *Hostile, w http.ResponseWriter, r *http.Request) {
	if streamWanted(r) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"statusUpdate\":{\"taskId\":\n\ndata: }}{[\n\n")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{"id": nope, "status":`)
}

func truncated(h *Hostile, w http.ResponseWriter, r *http.Request) {
	rec := h.real(r)
	body := rec.Body.Bytes()
	copyHeader(w, rec)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)+1))
	w.WriteHeader(rec.Code)
	flushed(w, body[:len(body)/2])
	// Aborting closes the connection short of the promised length.
	panic(http.ErrAbortHandler)
}

func hugeBody(h *Hostile, w http.ResponseWriter, r *http.Request) {
	head, tail := []byte(`{"jsonrpc":"2.0","id":1,"result":{"pad":"`), []byte(`"}}`)
	if streamWanted(r) {
		w.Header().Set("Content-Type", "text/event-stream")
		head, tail = []byte(`data: {"pad":"`), []byte("\"}\n\n")
	} else {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(hugeBodyBytes))
	}
	if !flushed(w, head) {
		return
	}
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	left := hugeBodyBytes - len(head) - len(tail)
	for left > 0 && r.Context().Err() == nil {
		n := min(left, len(chunk))
		if _, err := w.Write(chunk[:n]); err != nil {
			return
		}
		left -= n
	}
	w.Write(tail)
}

func endlessStream(h *Hostile, w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	tick := time.NewTicker(endlessInterval)
	defer tick.Stop()
	for i := 0; ; i++ {
		ev := fmt.Sprintf("data: {\"statusUpdate\":{\"taskId\":\"endless\",\"contextId\":\"endless\",\"status\":{\"state\":\"TASK_STATE_WORKING\"},\"metadata\":{\"n\":%d}}}\n\n", i)
		if !flushed(w, []byte(ev)) {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

func drip(h *Hostile, w http.ResponseWriter, r *http.Request) {
	rec := h.real(r)
	copyHeader(w, rec)
	w.WriteHeader(rec.Code)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for _, b := range rec.Body.Bytes() {
		if !flushed(w, []byte{b}) {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

func wrongContentType(h *Hostile, w http.ResponseWriter, r *http.Request) {
	rec := h.real(r)
	copyHeader(w, rec)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

func redirect(h *Hostile, w http.ResponseWriter, r *http.Request) {
	// Only ever to the second loopback listener this process opened.
	http.Redirect(w, r, h.other+r.URL.RequestURI(), http.StatusTemporaryRedirect)
}

func invalidUTF8(h *Hostile, w http.ResponseWriter, r *http.Request) {
	writeDistorted(h, w, r, func(b []byte) []byte {
		return bytes.ReplaceAll(b, []byte(`":"`), []byte("\":\"\xff\xfe"))
	})
}

func deepNested(h *Hostile, w http.ResponseWriter, r *http.Request) {
	doc := strings.Repeat("[", deepNesting) + strings.Repeat("]", deepNesting)
	if streamWanted(r) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", doc)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":%s}`, doc)
}

// insertMember puts member right after a JSON object's opening brace.
func insertMember(b []byte, member string) []byte {
	i := bytes.IndexByte(b, '{')
	if i < 0 {
		return b
	}
	return append(append(append([]byte{}, b[:i+1]...), member+","...), b[i+1:]...)
}

func hugeNumbers(h *Hostile, w http.ResponseWriter, r *http.Request) {
	n := `"hugeNumber":1` + strings.Repeat("0", hugeDigits)
	writeDistorted(h, w, r, func(b []byte) []byte { return insertMember(b, n) })
}

func duplicateKeys(h *Hostile, w http.ResponseWriter, r *http.Request) {
	writeDistorted(h, w, r, func(b []byte) []byte {
		// The first member name, repeated before it with a decoy value: a
		// last-wins decoder sees the real answer, a first-wins one the decoy.
		i := bytes.IndexByte(b, '"')
		j := bytes.Index(b[i+1:], []byte(`":`))
		if i < 0 || j < 0 {
			return b
		}
		return insertMember(b, string(b[i:i+1+j+1])+`:"decoy"`)
	})
}

func reset(h *Hostile, w http.ResponseWriter, r *http.Request) {
	rec := h.real(r)
	body := rec.Body.Bytes()
	copyHeader(w, rec)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(rec.Code)
	flushed(w, body[:len(body)/2])
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0) // close with RST, not FIN
	}
	conn.Close()
}

func bigHeaders(h *Hostile, w http.ResponseWriter, r *http.Request) {
	rec := h.real(r)
	copyHeader(w, rec)
	pad := strings.Repeat("x", 64<<10)
	for i := 0; i < bigHeaderBytes/len(pad); i++ {
		w.Header().Set(fmt.Sprintf("X-Hostile-Pad-%d", i), pad)
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

// ServeHostile serves the hostile agent in mode on listen (default
// 127.0.0.1:0) until ctx ends, plus a second loopback listener, the other
// origin "redirect" points to, serving the clean agent. Like Serve it prints
// "a2a-conform fake <name> listening on <URL>" once listening.
func ServeHostile(ctx context.Context, listen, mode string) error {
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("fakes: listen %s: %w", listen, err)
	}
	otherLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ln.Close()
		return fmt.Errorf("fakes: listen for the redirect origin: %w", err)
	}
	h, err := NewHostile(mode, listenURL(otherLn.Addr()))
	if err != nil {
		ln.Close()
		otherLn.Close()
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	other := &http.Server{Handler: h.Agent(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	serveErr := make(chan error, 2)
	go func() { serveErr <- srv.Serve(ln) }()
	go func() { serveErr <- other.Serve(otherLn) }()
	fmt.Fprintf(os.Stdout, "a2a-conform fake hostile-%s listening on %s\n", mode, listenURL(ln.Addr()))
	if err := h.Start(ctx); err != nil && ctx.Err() == nil {
		srv.Close()
		other.Close()
		return err
	}
	select {
	case <-ctx.Done():
	case err := <-serveErr:
		srv.Close()
		other.Close()
		h.Shutdown(context.Background())
		return err
	}
	// Hostile answers do not drain; cut them.
	srv.Close()
	other.Close()
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	if err := h.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

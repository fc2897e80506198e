package recorder

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/reports"
)

// canary is a credential value that must never appear in an export, in any
// encoding. It contains characters that JSON and URLs escape.
const canary = `CANARY-7f3e/9a+b"c<d>`

// leaks reports whether the exported exchanges contain the secret in any
// form a report could carry it.
func leaks(t *testing.T, exs []reports.Exchange, secret string) []string {
	t.Helper()
	b, err := json.Marshal(exs)
	if err != nil {
		t.Fatal(err)
	}
	plain := fmt.Sprintf("%v", exs)
	var found []string
	for _, form := range []string{secret, jsonEscaped(secret), url.QueryEscape(secret), url.PathEscape(secret)} {
		enc, _ := json.Marshal(form)
		if strings.Contains(plain, form) || bytes.Contains(b, enc[1:len(enc)-1]) {
			found = append(found, form)
		}
	}
	return found
}

func echoServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func TestRedactsCanaryEverywhere(t *testing.T) {
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Set-Cookie", "session=abc")
		w.Header().Set("X-Echo", r.Header.Get("X-Custom"))
		w.Header().Set("A2A-Conform-Instance", "agent-2")
		w.Header().Set("Content-Type", "application/json")
		w.Write(body) // the canary comes back in the response body too
	})
	rec := New(WithSecrets(canary))
	hc := rec.HTTPClient(nil)
	u := srv.URL + "/a2a?api_key=" + url.QueryEscape("other-key") + "&q=" + url.QueryEscape(canary) + "&x=1"
	body := `{"token":` + string(mustJSON(canary)) + `,"credentials":"` + "plain" + `"}`
	req, _ := http.NewRequest("POST", u, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+"some-token")
	req.Header.Set("X-Custom", "prefix "+canary)
	req.Header.Set("Cookie", "a=b")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()

	exs := rec.All()
	if len(exs) != 1 {
		t.Fatalf("%d exchanges", len(exs))
	}
	if f := leaks(t, exs, canary); len(f) > 0 {
		t.Fatalf("canary leaked as %q:\n%+v", f, exs[0])
	}
	e := exs[0]
	if strings.Contains(e.URL, "other-key") || !strings.Contains(e.URL, "api_key=REDACTED") || !strings.Contains(e.URL, "x=1") {
		t.Fatalf("URL %s", e.URL)
	}
	for _, h := range []string{"Authorization", "Cookie"} {
		if v := e.ReqHeader.Get(h); v != Redacted {
			t.Fatalf("%s = %q", h, v)
		}
	}
	if v := e.RespHeader.Get("Set-Cookie"); v != Redacted {
		t.Fatalf("Set-Cookie = %q", v)
	}
	if v := e.ReqHeader.Get("X-Custom"); v != "prefix "+Redacted {
		t.Fatalf("X-Custom = %q", v)
	}
	if !strings.Contains(e.ReqBody, Redacted) || !strings.Contains(e.RespBody, Redacted) || !strings.Contains(e.ReqBody, "plain") {
		t.Fatalf("bodies %q / %q", e.ReqBody, e.RespBody)
	}
	if e.Instance != "agent-2" || e.Status != 200 || e.Direction != "out" || e.Method != "POST" || e.Truncated {
		t.Fatalf("exchange %+v", e)
	}
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

func TestURLPasswordRedacted(t *testing.T) {
	rd := newRedactor(nil, nil, defaultSecretQuery, nil)
	u, _ := url.Parse("http://user:hunter2@agent.invalid/p?Token=abc&keep=1&flag")
	got := rd.url(u)
	if strings.Contains(got, "hunter2") || strings.Contains(got, "abc") || !strings.Contains(got, "keep=1&flag") {
		t.Fatalf("got %s", got)
	}
}

func TestSSEEventsRecordedAndRedacted(t *testing.T) {
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("A2A-Conform-Instance", "agent-1")
		io.WriteString(w, ": keep-alive\n\n")
		io.WriteString(w, `data: {"task":{"id":"t1","status":{"state":"TASK_STATE_WORKING"},"metadata":{"k":"`+canary[:8]+`"}}}`+"\n\n")
		w.(http.Flusher).Flush()
		io.WriteString(w, "data: "+`{"statusUpdate":{"taskId":"t1","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}`+"\n\n")
	})
	rec := New(WithSecrets(canary[:8]))
	c, err := client.New(a2a.AgentInterface{URL: srv.URL + "/rest", ProtocolBinding: a2a.BindingHTTPJSON},
		client.WithHTTPClient(rec.HTTPClient(nil)))
	if err != nil {
		t.Fatal(err)
	}
	before := rec.Mark()
	s, err := c.SendStreamingMessage(context.Background(), &a2a.SendMessageRequest{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	s.Close()
	exs := rec.Since(before)
	if len(exs) != 1 || n != 2 {
		t.Fatalf("%d exchanges, %d events read", len(exs), n)
	}
	e := exs[0]
	if len(e.Events) != 2 || e.RespBody != "" || e.Instance != "agent-1" {
		t.Fatalf("exchange %+v", e)
	}
	if !strings.Contains(e.Events[0].Data, Redacted) || strings.Contains(e.Events[0].Data, canary[:8]) {
		t.Fatalf("event data not redacted: %s", e.Events[0].Data)
	}
	if !strings.Contains(e.Events[1].Data, "TASK_STATE_COMPLETED") {
		t.Fatalf("event 2 %s", e.Events[1].Data)
	}
	// Monotonic ordering: the request, then its events, within the exchange.
	if e.Events[0].AtMs < e.AtMs || e.Events[1].AtMs < e.Events[0].AtMs || e.Events[1].AtMs > e.AtMs+e.DurMs+0.001 {
		t.Fatalf("timings out of order: at %v dur %v events %v %v", e.AtMs, e.DurMs, e.Events[0].AtMs, e.Events[1].AtMs)
	}
}

func TestIncompleteFinalEventNoted(t *testing.T) {
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: a\n\ndata: tail\n")
	})
	rec := New()
	resp, err := rec.HTTPClient(nil).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	e := rec.All()[0]
	if len(e.Events) != 2 || e.Events[1].Data != "tail\n" || !strings.Contains(e.Error, "inside an event") {
		t.Fatalf("exchange %+v", e)
	}
}

func TestCaps(t *testing.T) {
	big := strings.Repeat("x", 300)
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 0; i < 5; i++ {
				fmt.Fprintf(w, "data: %d%s\n\n", i, big)
			}
			return
		}
		io.WriteString(w, big)
	})
	rec := New(WithBodyCap(100), WithEventCap(3))
	hc := rec.HTTPClient(nil)
	resp, err := hc.Post(srv.URL, "text/plain", strings.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	resp, err = hc.Get(srv.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	exs := rec.All()
	plain := exs[0]
	if !plain.Truncated || !strings.HasPrefix(plain.ReqBody, strings.Repeat("x", 100)+"\n[… truncated") ||
		!strings.HasPrefix(plain.RespBody, strings.Repeat("x", 100)+"\n[… truncated at 100 bytes of 300]") {
		t.Fatalf("plain exchange bodies %q / %q", plain.ReqBody, plain.RespBody)
	}
	stream := exs[1]
	if !stream.Truncated || len(stream.Events) != 3 || !strings.Contains(stream.Error, "2 more event(s)") {
		t.Fatalf("stream exchange: %d events, error %q", len(stream.Events), stream.Error)
	}
	if !strings.HasSuffix(stream.Events[0].Data, "[… event truncated]") || len(stream.Events[0].Data) > 130 {
		t.Fatalf("event not capped: %q", stream.Events[0].Data)
	}
}

func TestSecretAtTheCapIsNotHalfKept(t *testing.T) {
	secret := "CANARYSECRET42"
	body := strings.Repeat("x", 95) + secret + strings.Repeat("y", 100)
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })
	rec := New(WithBodyCap(100), WithSecrets(secret))
	resp, err := rec.HTTPClient(nil).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	got := rec.All()[0].RespBody
	if strings.Contains(got, "CANAR") {
		t.Fatalf("a prefix of the secret survived the cap: %q", got)
	}
}

func TestAddSecretAppliesRetroactively(t *testing.T) {
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"token":"late-token-123"}`) })
	rec := New()
	resp, err := rec.HTTPClient(nil).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	rec.AddSecret("late-token-123")
	if f := leaks(t, rec.All(), "late-token-123"); len(f) > 0 {
		t.Fatalf("leaked %v", f)
	}
}

func TestUncopyableRequestBodyObserved(t *testing.T) {
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) })
	rec := New(WithSecrets(canary))
	// io.MultiReader gives http.NewRequest no GetBody.
	req, _ := http.NewRequest("POST", srv.URL, io.MultiReader(strings.NewReader("hello "), strings.NewReader(canary)))
	resp, err := rec.HTTPClient(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	e := rec.All()[0]
	if e.ReqBody != "hello "+Redacted {
		t.Fatalf("request body %q", e.ReqBody)
	}
}

func TestTransportErrorRecorded(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	u := dead.URL + "/x?token=" + "tok-999"
	dead.Close()
	rec := New()
	_, err := rec.HTTPClient(nil).Get(u)
	if err == nil {
		t.Fatal("closed server answered")
	}
	e := rec.All()[0]
	if e.Error == "" || e.Status != 0 || strings.Contains(e.Error, "tok-999") || strings.Contains(e.URL, "tok-999") {
		t.Fatalf("exchange %+v", e)
	}
}

func TestTransportErrorQuotingURLRedacted(t *testing.T) {
	failing := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return nil, fmt.Errorf("dial %s: refused", r.URL.String())
	})
	rec := New()
	_, err := rec.HTTPClient(failing).Get("http://agent.invalid/a?token=tok-777")
	if err == nil {
		t.Fatal("no error")
	}
	if e := rec.All()[0]; strings.Contains(e.Error, "tok-777") || !strings.Contains(e.Error, "token=REDACTED") {
		t.Fatalf("error %q", e.Error)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRecordInbound(t *testing.T) {
	rec := New(WithSecrets(canary))
	req := httptest.NewRequest("POST", "/hook?x=1", nil)
	req.Host = "127.0.0.1:9999"
	req.Header.Set("Authorization", "Bearer "+canary)
	req.Header.Set("X-A2A-Notification-Token", "tok")
	req.Header.Set("A2A-Conform-Instance", "agent-3")
	seq := rec.RecordInbound(req, []byte(`{"statusUpdate":{"taskId":"`+canary+`"}}`), 200)
	exs := rec.All()
	if len(exs) != 1 || exs[0].Seq != seq {
		t.Fatalf("exchanges %+v", exs)
	}
	e := exs[0]
	if e.Direction != "in" || e.Status != 200 || e.URL != "http://127.0.0.1:9999/hook?x=1" || e.Instance != "agent-3" {
		t.Fatalf("exchange %+v", e)
	}
	if e.ReqHeader.Get("X-A2A-Notification-Token") != Redacted || len(leaks(t, exs, canary)) > 0 {
		t.Fatalf("not redacted: %+v", e)
	}
}

func TestMarkSinceAndMaxExchanges(t *testing.T) {
	rec := New(WithMaxExchanges(3))
	req := httptest.NewRequest("POST", "/hook", nil)
	rec.RecordInbound(req, nil, 200)
	m := rec.Mark()
	for i := 0; i < 4; i++ {
		rec.RecordInbound(req, nil, 201+i)
	}
	got := rec.Since(m)
	if len(got) != 3 || got[0].Status != 202 || got[2].Status != 204 || rec.Dropped() != 2 {
		t.Fatalf("since mark: %d exchanges, first status %d, dropped %d", len(got), got[0].Status, rec.Dropped())
	}
	if len(rec.Since(rec.Mark())) != 0 {
		t.Fatal("nothing happened after the last mark")
	}
}

func TestConcurrentUse(t *testing.T) {
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/sse" {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: 1\n\ndata: 2\n\n")
			return
		}
		io.Copy(w, r.Body)
	})
	rec := New(WithSecrets("s3cret"))
	hc := rec.HTTPClient(nil)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 64)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				m := rec.Mark()
				_ = rec.Since(m - 5)
			}
		}
	}()
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				path := "/"
				if i%2 == 0 {
					path = "/sse"
				}
				resp, err := hc.Post(srv.URL+path, "text/plain", strings.NewReader("s3cret body"))
				if err != nil {
					errs <- err
					return
				}
				io.ReadAll(resp.Body)
				resp.Body.Close()
				if i%3 == 0 {
					rec.AddSecret(fmt.Sprintf("extra-%d-%d", g, i))
					rec.RecordInbound(httptest.NewRequest("POST", "/hook", nil), []byte("x"), 200)
				}
			}
		}(g)
	}
	wg.Wait()
	close(stop)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	all := rec.All()
	if len(all) != 8*10+8*4 {
		t.Fatalf("%d exchanges", len(all))
	}
	for i, e := range all {
		if e.Seq != i+1 {
			t.Fatalf("seq %d at %d", e.Seq, i)
		}
	}
	if len(leaks(t, all, "s3cret")) > 0 {
		t.Fatal("secret leaked under concurrency")
	}
}

func TestNoBodyResponsesFinish(t *testing.T) {
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	rec := New()
	req, _ := http.NewRequest("HEAD", srv.URL, nil)
	resp, err := rec.HTTPClient(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if e := rec.All()[0]; e.Status != 204 || e.DurMs < 0 || e.Error != "" {
		t.Fatalf("exchange %+v", e)
	}
}

// A labelled secret is redacted everywhere like any other, and a credential
// header carrying it says whose it was.
func TestLabeledSecretNamesTheIdentity(t *testing.T) {
	srv := echoServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.Header.Get("Authorization")) })
	rec := New(WithSecrets("Bearer first-token"), WithLabeledSecret("second identity", "Bearer second-token", "second-token"))
	hc := rec.HTTPClient(nil)
	for _, tok := range []string{"Bearer first-token", "Bearer second-token"} {
		req, _ := http.NewRequest("GET", srv.URL, nil)
		req.Header.Set("Authorization", tok)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	exs := rec.All()
	if len(exs) != 2 {
		t.Fatalf("%d exchanges", len(exs))
	}
	if got := exs[0].ReqHeader.Get("Authorization"); got != Redacted {
		t.Errorf("first identity's header shown as %q", got)
	}
	if got := exs[1].ReqHeader.Get("Authorization"); got != "[REDACTED second identity]" {
		t.Errorf("second identity's header shown as %q", got)
	}
	for _, s := range []string{"first-token", "second-token"} {
		if f := leaks(t, exs, s); len(f) > 0 {
			t.Errorf("leaked %v", f)
		}
	}
}

// A served answer is recorded as it happens: its Seq is taken when the
// request arrives, so an exchange that began while it was being answered
// comes after it, and each SSE event carries the time it was sent, not the
// stream's end. Before, the whole exchange was recorded at its end, every
// event stamped with that end, and a stream that outlived other requests
// came after them in the transcript.
func TestServedExchangeIsATimeline(t *testing.T) {
	rec := New(WithSecrets(canary))
	req := httptest.NewRequest("POST", "/i0/a2a/jsonrpc", nil)
	req.Host = "127.0.0.1:9999"
	served := rec.BeginServed(req, []byte(`{"method":"SendStreamingMessage"}`), time.Now())
	served.Event([]byte(`{"result":{"task":{"id":"t1"}}}`))
	// Another request arrives while the stream is open, and ends first.
	other := httptest.NewRequest("POST", "/hook", nil)
	other.Host = "127.0.0.1:9998"
	otherSeq := rec.RecordInbound(other, nil, 200)
	gap := 20 * time.Millisecond
	time.Sleep(gap)
	served.Event([]byte(`{"result":{"statusUpdate":{"taskId":"t1","note":"` + canary + `"}}}`))
	served.Finish(200, http.Header{"Content-Type": {"text/event-stream"}, "A2a-Conform-Instance": {"i0"}}, nil)
	served.Event([]byte(`{"late":true}`)) // after Finish: ignored

	exs := rec.All()
	if len(exs) != 2 || exs[0].Seq != served.Seq() || exs[1].Seq != otherSeq || served.Seq() >= otherSeq {
		t.Fatalf("want the stream first (it arrived first), then the hook: %+v", exs)
	}
	s := exs[0]
	if len(s.Events) != 2 || s.Status != 200 || s.Instance != "i0" {
		t.Fatalf("served exchange %+v", s)
	}
	if d := s.Events[1].AtMs - s.Events[0].AtMs; d < float64(gap.Milliseconds()) {
		t.Errorf("the events are %v ms apart, want at least the %v between them: each event keeps the time it was sent", d, gap)
	}
	if s.Events[0].AtMs > exs[1].AtMs {
		t.Errorf("the first event (%v ms) is stamped after the hook that came later (%v ms)", s.Events[0].AtMs, exs[1].AtMs)
	}
	if len(leaks(t, exs, canary)) > 0 {
		t.Errorf("an event leaks the secret: %+v", s.Events)
	}
}

// Each instant is written cut to the microsecond; the duration is the
// difference of the written instants, so an event read just before the
// end never shows after at + dur (cut separately, the two could lose
// almost two microseconds between them: a clean-clone run once showed an
// event at 0.332 ms of an exchange at 0.119 ms lasting 0.212 ms).
func TestExchangeTimingsCutAlike(t *testing.T) {
	r := New()
	ex := &exchange{at: 119400 * time.Nanosecond, end: 332300 * time.Nanosecond, finished: true,
		events: []event{{at: 332200 * time.Nanosecond, data: []byte("x")}}}
	r.mu.Lock()
	e := r.export(ex)
	r.mu.Unlock()
	if e.AtMs != 0.119 || e.DurMs != 0.213 || e.Events[0].AtMs != 0.332 {
		t.Fatalf("at %v dur %v event %v, want 0.119, 0.213, 0.332", e.AtMs, e.DurMs, e.Events[0].AtMs)
	}
	// Sums of milliseconds in float64 are off by an ulp at most.
	if e.Events[0].AtMs > e.AtMs+e.DurMs+1e-9 {
		t.Errorf("the event at %v shows after the exchange's end %v", e.Events[0].AtMs, e.AtMs+e.DurMs)
	}
}

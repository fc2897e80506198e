package webhook

import (
	"bytes"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
)

const completed = `{"statusUpdate":{"taskId":"t1","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}`

func post(t testing.TB, url, auth, body string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("Content-Type", "application/a2a+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestReceiverRecordsDecodesAndRedacts(t *testing.T) {
	rec := recorder.New(recorder.WithSecrets("push-secret-123"))
	r, err := Start("", "", rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tok := NewToken()
	r.Claim(tok, "PUSH-001")
	got := make(chan Delivery, 4)
	r.OnDelivery(tok, func(d Delivery) { got <- d })

	if code := post(t, r.URL(tok), "Bearer push-secret-123", completed); code != 200 {
		t.Fatalf("status %d", code)
	}
	d := <-got
	if s, ok := d.Resp.State(); !ok || s != a2a.TaskStateCompleted || d.TaskID() != "t1" || len(d.Invalid) != 0 || !d.Trusted() || d.Attempt != 1 || d.At.IsZero() {
		t.Fatalf("decoded %+v (%v, invalid %v)", d.Resp, d.DecodeErr, d.Invalid)
	}
	if d.Header.Get("Authorization") != "Bearer push-secret-123" {
		t.Fatal("the spec must see the credentials the agent sent, to check them")
	}
	if code := post(t, r.URL(tok), "", "not json"); code != 200 {
		t.Fatalf("garbage answered %d (the receiver acknowledges and records; the spec judges)", code)
	}
	if d := <-got; d.DecodeErr == nil || len(d.Invalid) == 0 {
		t.Fatal("garbage decoded")
	}
	if code := post(t, r.URL(tok), "", strings.Repeat("x", MaxBody+10)); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized delivery answered %d", code)
	}
	if d := <-got; d.Untrusted != OverCap || d.Trusted() {
		t.Fatalf("oversized delivery trusted: %+v", d.Untrusted)
	}
	if code := post(t, r.Base()+"/elsewhere", "", "{}"); code != 404 {
		t.Fatalf("unknown path answered %d", code)
	}
	all := rec.All()
	if len(all) != 4 {
		t.Fatalf("%d exchanges recorded, want 4", len(all))
	}
	for _, ex := range all {
		if ex.Direction != "in" {
			t.Errorf("direction %q", ex.Direction)
		}
		for _, v := range ex.ReqHeader["Authorization"] {
			if strings.Contains(v, "push-secret-123") {
				t.Error("credential reached the transcript")
			}
		}
		if bytes.Contains([]byte(ex.ReqBody), []byte("push-secret-123")) {
			t.Error("credential in a recorded body")
		}
	}
	if len(r.Deliveries(tok)) != 3 {
		t.Fatalf("%d deliveries kept", len(r.Deliveries(tok)))
	}
	if r.Reached() != 2 {
		t.Fatalf("Reached %d, want 2 (the garbage was acknowledged; the oversized one was not)", r.Reached())
	}
}

// A delivery with the wrong credentials, or to a config nobody registered,
// is answered as such, kept for the spec and never trusted.
func TestReceiverChecksCredentialsAndConfig(t *testing.T) {
	r, err := Start("", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tok := NewToken()
	r.Claim(tok, "PUSH-005")
	r.Authorize(tok, "Basic dXNlcjpwdw==")
	for _, c := range []struct {
		auth string
		code int
	}{{"Basic dXNlcjpwdw==", 200}, {"Bearer dXNlcjpwdw==", 401}, {"", 401}, {"basic dXNlcjpwdw==", 200}, {"Basic dXNlcjpwdw", 401}} {
		if got := post(t, r.URL(tok), c.auth, completed); got != c.code {
			t.Errorf("Authorization %q answered %d, want %d", c.auth, got, c.code)
		}
	}
	ds := r.Deliveries(tok)
	if len(ds) != 5 || !ds[0].Trusted() || ds[1].Untrusted != Unauthenticated || !ds[3].Trusted() || ds[4].Trusted() {
		t.Fatalf("deliveries %+v", ds)
	}
	other := NewToken()
	if got := post(t, r.URL(other), "Basic dXNlcjpwdw==", completed); got != 404 {
		t.Errorf("unknown config answered %d", got)
	}
	if ds := r.Deliveries(other); len(ds) != 1 || ds[0].Untrusted != Unknown {
		t.Fatalf("unknown config delivery %+v", ds)
	}
	if r.Reached() != 2 {
		t.Fatalf("Reached %d, want 2", r.Reached())
	}
}

// Exactly one member (§4.3.3), and the schema.
func TestCheckOneMember(t *testing.T) {
	for body, ok := range map[string]bool{
		completed: true,
		`{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}},"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}`: false,
		`{}`: false,
		`{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"completed"}}}`: false,
	} {
		if got := len(Check([]byte(body))) == 0; got != ok {
			t.Errorf("Check(%s) ok=%v, want %v: %v", body, got, ok, Check([]byte(body)))
		}
	}
}

// Scripted failures answer the first K attempts as told, then acknowledge.
func TestReceiverScript(t *testing.T) {
	r, err := Start("", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tok := NewToken()
	r.Claim(tok, "PUSH-007")
	r.Script(tok, Script{First: 2, Status: 503})
	for i, want := range []int{503, 503, 200, 200} {
		if got := post(t, r.URL(tok), "", completed); got != want {
			t.Errorf("attempt %d answered %d, want %d", i+1, got, want)
		}
	}
	ds := r.Deliveries(tok)
	if !ds[0].Scripted || ds[0].Acknowledged() || ds[2].Scripted || !ds[2].Acknowledged() || ds[3].Attempt != 4 {
		t.Fatalf("deliveries %+v", ds)
	}
	slow := NewToken()
	r.Claim(slow, "PUSH-007")
	r.Script(slow, Script{First: 1, Status: 200, Delay: 200 * time.Millisecond})
	start := time.Now()
	if got := post(t, r.URL(slow), "", completed); got != 200 || time.Since(start) < 200*time.Millisecond {
		t.Errorf("slow answer %d after %s", got, time.Since(start))
	}
	hang := NewToken()
	r.Claim(hang, "PUSH-007")
	r.Script(hang, Script{First: 1, Hang: true})
	c := &http.Client{Timeout: 300 * time.Millisecond}
	if _, err := c.Post(r.URL(hang), "application/json", strings.NewReader(completed)); err == nil {
		t.Error("a hanging answer answered")
	}
}

// The canary records what reaches it and listens on loopback only, on
// another address than the receiver's 127.0.0.1 where the system has one.
func TestCanary(t *testing.T) {
	c, err := StartCanary(nil, "PUSH-010")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want := "http://" + CanaryHost + ":"
	if ln, err := net.Listen("tcp", CanaryHost+":0"); err != nil {
		want = "http://127.0.0.1:" // no 127.0.0.2 here
	} else {
		ln.Close()
	}
	if !strings.HasPrefix(c.URL(), want) {
		t.Fatalf("canary at %s, want %s…", c.URL(), want)
	}
	post(t, c.URL(), "", completed)
	if len(c.Hits()) != 1 {
		t.Fatalf("%d hits", len(c.Hits()))
	}
}

// Deliveries recorded per second: POST, read, check, record, acknowledge, over
// loopback, from parallel clients (docs/figures.md).
func BenchmarkDeliveries(b *testing.B) {
	rec := recorder.New()
	r, err := Start("", "", rec)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	tok := NewToken()
	r.Claim(tok, "BENCH")
	r.Authorize(tok, "Bearer bench")
	var n atomic.Int64
	r.OnDelivery(tok, func(Delivery) { n.Add(1) })
	url := r.URL(tok)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if code := post(b, url, "Bearer bench", completed); code != 200 {
				b.Errorf("status %d", code)
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(n.Load())/b.Elapsed().Seconds(), "deliveries/s")
}

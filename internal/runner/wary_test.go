package runner

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/client"
)

// A run that turned wary (WaryAfter transport failures somewhere) must stay
// fair to a slow agent: a blocking call that waits for its task longer than
// WaryBound before the answer's headers, and a stream whose task goes
// quiet between steps for longer than WaryBound, are answers, not new
// failures. Cut to WaryBound, they counted as stalls: three such blocking
// calls made the liveness check declare the target dead, and stalled
// streams pushed the run towards "broken". A body that has begun and then
// dribbles is still cut (the rule's purpose).
func TestWaryRunWaitsForASlowAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("waits past WaryBound")
	}
	t.Parallel()
	slow := WaryBound + time.Second
	wait := func(r *http.Request) bool {
		select {
		case <-time.After(slow):
			return true
		case <-r.Context().Done():
			return false
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/blocking": // headers and body once the task is done
			if wait(r) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
			}
		case "/stream": // a step, a quiet task, the next step
			w.Header().Set("Content-Type", client.ContentTypeSSE)
			io.WriteString(w, "data: {\"n\":1}\n\n")
			w.(http.Flusher).Flush()
			if wait(r) {
				io.WriteString(w, "data: {\"n\":2}\n\n")
			}
		case "/drip": // a body begun, then stalled
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":`)
			w.(http.Flusher).Flush()
			if wait(r) {
				io.WriteString(w, `"2.0"}`)
			}
		}
	}))
	defer srv.Close()

	w := newWary(30*time.Second, 10*time.Second)
	for range WaryAfter {
		w.observe(client.Misbehaviour{Kind: "reset", Detail: "connection reset by peer"})
	}
	live := &liveness{next: client.Guard(http.DefaultTransport, w.limits, w.observe), broken: w.broken}
	hc := &http.Client{Transport: live}
	get := func(path, accept string) error {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+path, strings.NewReader("{}"))
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, err = io.ReadAll(resp.Body)
		return err
	}
	paths := []string{"/blocking", "/blocking", "/blocking", "/stream", "/drip"}
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			accept := ""
			if p == "/stream" {
				accept = client.ContentTypeSSE
			}
			errs[i] = get(p, accept)
		}()
	}
	wg.Wait()
	for i, p := range paths[:4] {
		if errs[i] != nil {
			t.Errorf("%s on a wary run, answered after %s: %v", p, slow, errs[i])
		}
	}
	if errs[4] == nil || !strings.Contains(errs[4].Error(), "not complete after") {
		t.Errorf("a dribbled body on a wary run: %v, want it cut after %s", errs[4], WaryBound)
	}
	if err := live.Health(); err != nil {
		t.Errorf("the slow answers declared the target unhealthy: %v", err)
	}
	w.mu.Lock()
	n := w.count
	w.mu.Unlock()
	if want := WaryAfter + 1; n != want {
		t.Errorf("%d transport failures counted, want %d (the %d that made the run wary and the dribbled body): %s", n, want, WaryAfter, fmt.Sprint(w.note()))
	}
}

package topology

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestCDNHoldsACardNoLongerThanMaxAge: held, the CDN serves the copy it
// kept (same ETag, an Age) after the origin moved on, passes every other
// path through, and serves the origin's card again once the copy reaches
// its max-age.
func TestCDNHoldsACardNoLongerThanMaxAge(t *testing.T) {
	t.Parallel()
	var gen atomic.Int32
	gen.Store(1)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g := gen.Load()
		if r.URL.Path != CardPath {
			fmt.Fprintf(w, "live %d via %s", g, r.Header.Get("X-Forwarded-Host"))
			return
		}
		w.Header().Set("ETag", fmt.Sprintf(`"g%d"`, g))
		w.Header().Set("Cache-Control", "max-age=1")
		fmt.Fprintf(w, `{"version":"1.%d.0","url":"http://%s/"}`, g, r.Header.Get("X-Forwarded-Host"))
	}))
	defer origin.Close()
	c, err := NewCDN(origin.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Get(c.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	etag, window, err := func() (string, time.Duration, error) {
		h, err := c.Hold(context.Background(), http.Header{})
		return h.ETag, h.MaxAge, err
	}()
	if err != nil || etag != `"g1"` || window != time.Second {
		t.Fatalf("Hold = %q, %s, %v; want \"g1\", 1s", etag, window, err)
	}
	gen.Store(2)
	resp, body := get(CardPath)
	if resp.Header.Get("ETag") != `"g1"` || resp.Header.Get(CDNHeader) != "hit" || resp.Header.Get("Age") == "" {
		t.Fatalf("held card: ETag %q, %s %q, Age %q; want the generation 1 copy from the CDN with an Age",
			resp.Header.Get("ETag"), CDNHeader, resp.Header.Get(CDNHeader), resp.Header.Get("Age"))
	}
	if want := `"url":"http://` + c.URL()[len("http://"):] + `/"`; !strings.Contains(body, want) {
		t.Errorf("held card names %s, want the CDN (%s)", body, want)
	}
	if _, body := get("/a2a/jsonrpc"); body != "live 2 via "+c.URL()[len("http://"):] {
		t.Errorf("a non-card path: %q, want the origin's live answer", body)
	}
	time.Sleep(1100 * time.Millisecond)
	resp, _ = get(CardPath)
	if resp.Header.Get("ETag") != `"g2"` {
		t.Fatalf("past max-age the CDN served ETag %q, want the origin's \"g2\"", resp.Header.Get("ETag"))
	}
	if !c.Release() {
		t.Error("Release did not report that the hold had expired")
	}
}

// TestCDNRefusesToHoldAnUncacheableCard: no-store (or max-age=0) leaves no
// window, so Hold refuses rather than serve what the origin forbade.
func TestCDNRefusesToHoldAnUncacheableCard(t *testing.T) {
	t.Parallel()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, "{}")
	}))
	defer origin.Close()
	c, err := NewCDN(origin.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Hold(context.Background(), http.Header{}); err == nil {
		t.Fatal("Hold kept a no-store card")
	}
}

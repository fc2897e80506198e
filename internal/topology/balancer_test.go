package topology

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestBalancerStreamSurvivesAnEarlyAnswer: an instance that starts its
// event stream before the whole request body has reached the balancer must
// not have that stream cut. Go's server consumes and closes a request body
// the handler has not finished reading as soon as the handler writes its
// response headers; a proxy that streams the client's body straight to the
// instance then loses the body under its own transport, which closes the
// instance's connection and aborts the stream mid-way (seen as "unexpected
// EOF after the first event" under load, where the instance answers while
// the transport's last read of the body is still pending), or it steals
// the body's end so that the instance never gets it. The balancer reads the
// body first, so the two never share it; so does the CDN, which
// passes every path but the card's through.
func TestBalancerStreamSurvivesAnEarlyAnswer(t *testing.T) {
	t.Parallel()
	const events = 5
	instance := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		fmt.Fprintf(w, "data: 0\n\n")
		f.Flush()
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		for i := 1; i < events; i++ {
			time.Sleep(2 * time.Millisecond)
			fmt.Fprintf(w, "data: %d %s\n\n", i, body)
			f.Flush()
		}
	}))
	defer instance.Close()
	b, err := NewBalancer()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Set(0, "i0", instance.URL); err != nil {
		t.Fatal(err)
	}
	cdn, err := NewCDN(b.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer cdn.Close()
	for _, front := range []struct{ name, url string }{{"balancer", b.URL()}, {"CDN before the balancer", cdn.URL()}} {
		// The server's consuming the body and the transport's last read of
		// it race; a few tries make the old cut all but certain to show.
		t.Run(front.name, func(t *testing.T) {
			for range 5 {
				streamWithSlowBody(t, front.url, events)
			}
		})
	}
}

func streamWithSlowBody(t *testing.T, base string, events int) {
	// A client that sends its headers and its body in chunks, with pauses:
	// the instance has answered long before the body's end arrives, so the
	// server's consuming the body and the proxy's reading it overlap.
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const body = `{"message":"hello"}`
	fmt.Fprintf(conn, "POST /stream HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", 5, body[:5])
	time.Sleep(20 * time.Millisecond)
	fmt.Fprintf(conn, "%x\r\n%s\r\n", len(body)-5, body[5:])
	time.Sleep(20 * time.Millisecond)
	fmt.Fprint(conn, "0\r\n\r\n")

	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the stream broke after %d bytes: %v\n%s", len(got), err, got)
	}
	if n := strings.Count(string(got), "data: "); n != events {
		t.Fatalf("the stream carried %d of %d events:\n%s", n, events, got)
	}
	if !strings.Contains(string(got), body) {
		t.Fatalf("the instance did not get the whole request body:\n%s", got)
	}
}

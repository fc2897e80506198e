package recorder

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// BenchmarkRoundTrip measures what recording adds to one exchange with 1 KiB
// bodies (capture, body tap, export excluded) over an in-memory transport.
func BenchmarkRoundTrip(b *testing.B) {
	body := strings.Repeat("x", 1024)
	inner := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})
	for _, name := range []string{"bare", "recorded"} {
		b.Run(name, func(b *testing.B) {
			var rt http.RoundTripper = inner
			if name == "recorded" {
				rt = New(WithSecrets("secret-value"), WithMaxExchanges(1000)).Wrap(inner)
			}
			b.ReportAllocs()
			for b.Loop() {
				req, _ := http.NewRequest("POST", "http://agent.invalid/a2a", strings.NewReader(body))
				resp, err := rt.RoundTrip(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}

// BenchmarkExport measures redacting and exporting 100 recorded exchanges.
func BenchmarkExport(b *testing.B) {
	rec := New(WithSecrets("secret-value", "another-secret"))
	rt := rec.Wrap(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(strings.Repeat("y", 4096))), Request: r}, nil
	}))
	for i := 0; i < 100; i++ {
		req, _ := http.NewRequest("POST", "http://agent.invalid/a2a?token=abc", strings.NewReader(strings.Repeat("x", 4096)))
		resp, _ := rt.RoundTrip(req)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(rec.All()) != 100 {
			b.Fatal("lost exchanges")
		}
	}
}

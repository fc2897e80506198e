package reports

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// bigReport is a heavy but realistic run: 120 specs, each with 16 exchanges
// carrying 3 KiB bodies and a few SSE events (about 12 MiB of JSON).
func bigReport() *Report {
	r := sampleReport("Acme", "1")
	body := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("y", 3<<10) + `"}}`
	var xs []Exchange
	for i := 0; i < 16; i++ {
		xs = append(xs, Exchange{Seq: i, AtMs: float64(i) * 10.25, DurMs: 3.5, Method: "POST", URL: "http://127.0.0.1:1/a2a", Status: 200,
			ReqBody: body, RespBody: body, Events: []Event{{AtMs: 1.5, Data: body[:200]}, {AtMs: 2.5, Data: body[:200]}}})
	}
	for i := 0; i < 120; i++ {
		r.Results = append(r.Results, Result{ID: fmt.Sprintf("LIFE-%03d", 100+i), Title: "t", Suite: "lifecycle", Level: LevelMust,
			Verdict: Fail, Reason: "r", DurationMs: 5, Transcript: xs})
	}
	return r
}

func BenchmarkWriteAndVerifyJSON(b *testing.B) {
	r := bigReport()
	p := filepath.Join(b.TempDir(), "report.json")
	for b.Loop() {
		if err := WriteJSON(p, r); err != nil {
			b.Fatal(err)
		}
		back, err := ReadJSON(p)
		if err != nil {
			b.Fatal(err)
		}
		if ps := Verify(back, nil); ps != nil {
			b.Fatal(ps)
		}
	}
}

func BenchmarkWriteHTML(b *testing.B) {
	r := bigReport()
	p := filepath.Join(b.TempDir(), "report.html")
	for b.Loop() {
		if err := WriteHTML(p, r); err != nil {
			b.Fatal(err)
		}
	}
}

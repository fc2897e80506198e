package fakes

import (
	"fmt"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/client"
)

// The per-instance validator faults' observations, added to faultCases:
// two instances on one SQLite file, as two processes, serving the same card
// (the same Host, as behind one balancer).
func init() {
	faultCases[faultETagPerInstance] = func(e *faultEnv) string {
		a, b := pairCards(e, false)
		if string(a.Raw) == string(b.Raw) && a.Header.Get("ETag") != b.Header.Get("ETag") {
			return fmt.Sprintf("the same card under ETag %s and %s", a.Header.Get("ETag"), b.Header.Get("ETag"))
		}
		return ""
	}
	faultCases[faultLastModifiedPerInstance] = func(e *faultEnv) string {
		a, b := pairCards(e, true)
		if string(a.Raw) == string(b.Raw) && a.Header.Get("Last-Modified") != b.Header.Get("Last-Modified") {
			return fmt.Sprintf("the same card dated %s and %s", a.Header.Get("Last-Modified"), b.Header.Get("Last-Modified"))
		}
		return ""
	}
}

// pairCards starts two instances sharing a store, the second in a later
// second when apart (an HTTP-date counts seconds), and reads the card of
// each as one client behind a balancer would.
func pairCards(e *faultEnv, apart bool) (*client.CardResponse, *client.CardResponse) {
	a := e.shared("a")
	first := fetchCard(e.t, a, map[string]string{"X-Forwarded-Host": "agent.example"})
	if apart {
		now := time.Now()
		time.Sleep(now.Truncate(time.Second).Add(time.Second).Sub(now) + 10*time.Millisecond)
	}
	b := e.shared("b")
	return first, fetchCard(e.t, b, map[string]string{"X-Forwarded-Host": "agent.example"})
}

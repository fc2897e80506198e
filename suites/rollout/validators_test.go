package rollout

import (
	"net/http"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/client"
)

func read(k int, body, etag, date string) cardRead {
	h := http.Header{}
	if etag != "" {
		h.Set("ETag", etag)
	}
	if date != "" {
		h.Set("Last-Modified", date)
	}
	return cardRead{k: k, name: "i", cr: &client.CardResponse{Status: 200, Raw: []byte(body), Header: h}}
}

// Only cards identical byte for byte are held to the same validators, each
// to the first read of its card; each validator that differs is one
// violation.
func TestSameCardValidators(t *testing.T) {
	const d1, d2 = "Thu, 03 Dec 2026 22:28:25 GMT", "Thu, 03 Dec 2026 22:28:26 GMT"
	cases := []struct {
		name           string
		reads          []cardRead
		want, compared int
	}{
		{"one instance", []cardRead{read(0, "a", `"x"`, d1)}, 0, 0},
		{"the same everywhere", []cardRead{read(0, "a", `"x"`, d1), read(1, "a", `"x"`, d1), read(2, "a", `"x"`, d1)}, 0, 2},
		{"ETag per instance", []cardRead{read(0, "a", `"x"`, d1), read(1, "a", `"y"`, d1), read(2, "a", `"z"`, d1)}, 2, 2},
		{"date per instance", []cardRead{read(0, "a", `"x"`, d1), read(1, "a", `"x"`, d2)}, 1, 1},
		{"both, and one sends none", []cardRead{read(0, "a", `"x"`, d1), read(1, "a", "", "")}, 2, 1},
		{"cards that differ", []cardRead{read(0, "a", `"x"`, d1), read(1, "b", `"y"`, d2)}, 0, 0},
		{"two cards, two groups", []cardRead{read(0, "a", `"x"`, d1), read(1, "b", `"y"`, d2), read(2, "a", `"x"`, d1), read(3, "b", `"z"`, d2)}, 1, 2},
	}
	for _, c := range cases {
		vs, compared := sameCardValidators(c.reads)
		if len(vs) != c.want || compared != c.compared {
			t.Errorf("%s: %d violations over %d comparisons, want %d over %d: %v", c.name, len(vs), compared, c.want, c.compared, vs)
		}
	}
}

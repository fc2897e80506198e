package store

import (
	"context"
	"testing"
	"time"
)

// One date per generation, whoever asks and whenever; a generation first
// published within the second of the one before is dated a second after it,
// so that If-Modified-Since tells the two apart.
func TestCardPublished(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			t0 := time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
			g1, err := s.CardPublished(ctx, 1, t0)
			if err != nil || !g1.Equal(t0.Truncate(time.Second)) {
				t.Fatalf("generation 1: %v %v, want %v", g1, err, t0.Truncate(time.Second))
			}
			if again, err := s.CardPublished(ctx, 1, t0.Add(time.Hour)); err != nil || !again.Equal(g1) {
				t.Fatalf("generation 1 asked again later: %v %v, want %v", again, err, g1)
			}
			if g2, err := s.CardPublished(ctx, 2, t0.Add(100*time.Millisecond)); err != nil || !g2.Equal(g1.Add(time.Second)) {
				t.Fatalf("generation 2 in the same second: %v %v, want %v", g2, err, g1.Add(time.Second))
			}
			if g3, err := s.CardPublished(ctx, 3, t0.Add(time.Minute)); err != nil || !g3.Equal(t0.Add(time.Minute).Truncate(time.Second)) {
				t.Fatalf("generation 3 a minute later: %v %v", g3, err)
			}
		})
	}
}

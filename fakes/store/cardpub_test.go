package store

import (
	"context"
	"testing"
	"time"
)

// One date per generation, whoever asks and whenever, never later than the
// clock at its first publication; two generations first published within
// one second share it, and say so.
func TestCardPublished(t *testing.T) {
	ctx := context.Background()
	for name, s := range stores(t) {
		t.Run(name, func(t *testing.T) {
			t0 := time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.UTC)
			sec := t0.Truncate(time.Second)
			g1, err := s.CardPublished(ctx, 1, t0)
			if err != nil || !g1.Equal(sec) {
				t.Fatalf("generation 1: %v %v, want %v", g1, err, sec)
			}
			if again, err := s.CardPublished(ctx, 1, t0.Add(time.Hour)); err != nil || !again.Equal(g1) {
				t.Fatalf("generation 1 asked again later: %v %v, want %v", again, err, g1)
			}
			if shared, err := s.CardDateShared(ctx, 1, g1); err != nil || shared {
				t.Fatalf("generation 1's date alone: shared %v %v", shared, err)
			}
			if g2, err := s.CardPublished(ctx, 2, t0.Add(100*time.Millisecond)); err != nil || !g2.Equal(sec) {
				t.Fatalf("generation 2 in the same second: %v %v, want %v", g2, err, sec)
			}
			for gen := 1; gen <= 2; gen++ {
				if shared, err := s.CardDateShared(ctx, gen, sec); err != nil || !shared {
					t.Fatalf("generation %d's date, shared with the other: %v %v", gen, shared, err)
				}
			}
			if g3, err := s.CardPublished(ctx, 3, t0.Add(time.Minute)); err != nil || !g3.Equal(sec.Add(time.Minute)) {
				t.Fatalf("generation 3 a minute later: %v %v", g3, err)
			}
		})
	}
}

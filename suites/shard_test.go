package suites

import (
	"slices"
	"testing"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		i, n int
		bad  bool
	}{
		{in: "1/1", i: 1, n: 1},
		{in: "2/3", i: 2, n: 3},
		{in: " 3 / 3 ", i: 3, n: 3},
		{in: "0/3", bad: true},
		{in: "4/3", bad: true},
		{in: "1/0", bad: true},
		{in: "3", bad: true},
		{in: "a/b", bad: true},
		{in: "1/1001", bad: true},
	} {
		i, n, err := ParseShard(tc.in)
		if tc.bad != (err != nil) || !tc.bad && (i != tc.i || n != tc.n) {
			t.Errorf("ParseShard(%q) = %d, %d, %v", tc.in, i, n, err)
		}
	}
}

// Every n splits the whole registry into disjoint shards that cover it, the
// exclusive specs all in shard 1, and the concurrent ones within one of each
// other in number; the split does not depend on the order it was given.
func TestInShardPartitions(t *testing.T) {
	all := All()
	reversed := slices.Clone(all)
	slices.Reverse(reversed)
	for _, n := range []int{1, 2, 3, 5, 8, len(all) + 2} {
		seen := map[string]int{}
		minC, maxC := len(all), 0
		for i := 1; i <= n; i++ {
			got := InShard(all, i, n)
			if !slices.EqualFunc(got, InShard(reversed, i, n), func(a, b Info) bool { return a.ID == b.ID }) {
				t.Errorf("n=%d shard %d depends on the input order", n, i)
			}
			c := 0
			for _, info := range got {
				if prev, dup := seen[info.ID]; dup {
					t.Errorf("n=%d: %s in shards %d and %d", n, info.ID, prev, i)
				}
				seen[info.ID] = i
				if info.Exclusive && i != 1 {
					t.Errorf("n=%d: exclusive %s in shard %d, want 1", n, info.ID, i)
				}
				if !info.Exclusive {
					c++
				}
			}
			minC, maxC = min(minC, c), max(maxC, c)
		}
		if len(seen) != len(all) {
			t.Errorf("n=%d: shards hold %d specs, want %d", n, len(seen), len(all))
		}
		if maxC-minC > 1 {
			t.Errorf("n=%d: concurrent specs per shard range %d..%d", n, minC, maxC)
		}
	}
}

func TestNamesInShard(t *testing.T) {
	names := []string{"clean", "variant-slow", "a-fault", "client-clean", "b-fault"}
	seen := map[string]bool{}
	for i := 1; i <= 2; i++ {
		for n := range NamesInShard(names, i, 2) {
			if seen[n] {
				t.Errorf("%s in two shards", n)
			}
			seen[n] = true
		}
	}
	if len(seen) != len(names) {
		t.Errorf("shards hold %v", seen)
	}
	if got := NamesInShard(names, 1, 2); !got["a-fault"] || !got["clean"] || !got["variant-slow"] {
		t.Errorf("shard 1 of 2 = %v, want a-fault, clean, variant-slow (sorted, round-robin)", got)
	}
}

package testkit

import "testing"

func TestParseShard(t *testing.T) {
	for v, want := range map[string]Shard{"1": {1, 1}, "1/1": {1, 1}, "2/3": {2, 3}, "3/3": {3, 3}} {
		got, err := ParseShard(v)
		if err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, v := range []string{"0", "true", "0/3", "4/3", "2/0", "a/b", "1/", "/2", "-1/2"} {
		if _, err := ParseShard(v); err == nil {
			t.Errorf("ParseShard(%q) gave no error", v)
		}
	}
}

// The shards of n split any list between them, each item to exactly one.
func TestShardsTakeEachItemOnce(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for k := 0; k < 40; k++ {
			took := 0
			for i := 1; i <= n; i++ {
				if (Shard{i, n}).Takes(k) {
					took++
				}
			}
			if took != 1 {
				t.Errorf("item %d taken by %d of %d shards", k, took, n)
			}
		}
	}
}

// Each whole proof test falls to exactly one shard.
func TestShardsTakeEachNameOnce(t *testing.T) {
	for n := 1; n <= 4; n++ {
		for _, name := range []string{"TestProofA", "TestProofRotationSpecsJudgeAlikeUnderEveryDriver", "x", ""} {
			took := 0
			for i := 1; i <= n; i++ {
				if (Shard{i, n}).TakesName(name) {
					took++
				}
			}
			if took != 1 {
				t.Errorf("%q taken by %d of %d shards", name, took, n)
			}
		}
	}
}

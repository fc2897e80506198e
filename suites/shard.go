package suites

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Sharding splits one run's selection over n machines (run --shard i/n) so
// that a2a-conform merge can put the n reports back together. The split must
// come out the same on every machine, whatever the seed, so it rests on the
// spec IDs alone:
//
//   - the specs registered Exclusive (they roll or restart the deployment,
//     or judge agent-wide state) all go to shard 1, in one run, where the
//     scheduler runs them alone after the others. Shards that run at the same
//     time against one shared deployment therefore never overlap them;
//   - the other specs, sorted by ID, are dealt round-robin starting at
//     shard 2 (the k-th, from 0, goes to shard (k+1) mod n + 1), so shard 1,
//     which also carries the slow exclusive specs, gets no more of them
//     than any other shard.
//
// A spec is never split: its race trials stay in it. With n = 1 the shard is
// the whole selection.

// MaxShards bounds n in --shard i/n.
const MaxShards = 1000

// ParseShard reads "i/n" (1 ≤ i ≤ n ≤ MaxShards).
func ParseShard(s string) (index, total int, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return 0, 0, fmt.Errorf("want i/n, e.g. 2/3 (the second of three shards)")
	}
	index, err1 := strconv.Atoi(strings.TrimSpace(a))
	total, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("want i/n with whole numbers, e.g. 2/3")
	}
	if total < 1 || total > MaxShards {
		return 0, 0, fmt.Errorf("n must be between 1 and %d", MaxShards)
	}
	if index < 1 || index > total {
		return 0, 0, fmt.Errorf("i must be between 1 and n (%d); shards count from 1", total)
	}
	return index, total, nil
}

// InShard returns the specs of selected that shard index of total runs
// (the rule above), sorted by ID.
func InShard(selected []Info, index, total int) []Info {
	specs := append([]Info(nil), selected...)
	sort.Slice(specs, func(a, b int) bool { return specs[a].ID < specs[b].ID })
	var out []Info
	k := 0
	for _, info := range specs {
		if info.Exclusive {
			if index == 1 {
				out = append(out, info)
			}
			continue
		}
		if k%total == (index-1+total-1)%total {
			out = append(out, info)
		}
		k++
	}
	return out
}

// NamesInShard splits names (matrix child runs) the same way, sorted and
// dealt round-robin from shard 1: the k-th name, from 0, goes to shard
// k mod n + 1.
func NamesInShard(names []string, index, total int) map[string]bool {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	out := map[string]bool{}
	for k, n := range sorted {
		if k%total == index-1 {
			out[n] = true
		}
	}
	return out
}

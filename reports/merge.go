package reports

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// MergeShards joins the reports of the shards of one split run (run --shard
// i/n) into one report, as a2a-conform merge writes it. The reports must
// already be verified (Verify). They must belong to one run: each a shard
// (not itself a merge) of the same n, with the same seed, harness version,
// spec revision, requirement set, selection (suites, focus, label filter,
// faults), topology driver, implementation, and target when the target was
// given (the embedded and process drivers start their agents on loopback
// ports of their own, so their URLs differ from shard to shard); no index
// twice, and no spec in two shards. Otherwise MergeShards returns an error
// saying which report differs, and how.
//
// A shard that is not there leaves the merge partial, never complete:
// Run.Shard.Missing names it, PartialReasons says so, and a note in the
// run says which specs are unaccounted for when the caller knows (it may add
// results for them). The merged report's Summary and Digest are left for
// WriteJSON to compute.
func MergeShards(rs []*Report, names []string) (*Report, error) {
	if len(rs) == 0 {
		return nil, fmt.Errorf("no shard reports to merge")
	}
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("report %d", i+1)
	}
	for i, r := range rs {
		sh := r.Run.Shard
		if sh == nil {
			return nil, fmt.Errorf("%s is not a shard: it has no run.shard (made by run --shard i/n)", name(i))
		}
		if sh.Index == 0 {
			return nil, fmt.Errorf("%s is itself a merged report, not one shard", name(i))
		}
	}
	first := rs[0]
	type check struct {
		what string
		get  func(*Report) string
	}
	targetOf := func(r *Report) string {
		if r.Run.Topology == "embedded" || r.Run.Topology == "process" {
			return r.Run.Topology + " (started by the harness)"
		}
		return r.Run.Target
	}
	checks := []check{
		{"shard count n", func(r *Report) string { return fmt.Sprint(r.Run.Shard.Total) }},
		{"seed", func(r *Report) string { return fmt.Sprint(r.Run.Seed) }},
		{"harness version", func(r *Report) string { return r.Harness.Name + " " + r.Harness.Version }},
		{"requirement set", func(r *Report) string { return r.Run.Requirements }},
		{"spec revision", func(r *Report) string { return r.Run.SpecRevision }},
		{"protocol version", func(r *Report) string { return r.ProtocolVersion }},
		{"mode", func(r *Report) string { return r.Run.Mode }},
		{"topology driver", func(r *Report) string { return r.Run.Topology }},
		{"target", targetOf},
		{"implementation", func(r *Report) string {
			return r.Implementation.Name + " " + r.Implementation.Version + " " + r.Implementation.Role
		}},
		{"suites (--suite)", func(r *Report) string { return strings.Join(r.Run.Suites, ",") }},
		{"focus (--focus)", func(r *Report) string { return strings.Join(r.Run.Focus, ",") }},
		{"label filter (--label-filter)", func(r *Report) string { return r.Run.LabelFilter }},
		{"faults (--fault)", func(r *Report) string { return strings.Join(r.Run.Faults, ",") }},
	}
	for i, r := range rs[1:] {
		for _, c := range checks {
			if a, b := c.get(first), c.get(r); a != b {
				return nil, fmt.Errorf("%s and %s are not shards of one run: %s %q ≠ %q", name(0), name(i+1), c.what, clip(a, 120), clip(b, 120))
			}
		}
	}
	total := first.Run.Shard.Total
	byIndex := map[int]int{}
	owner := map[string]int{}
	for i, r := range rs {
		idx := r.Run.Shard.Index
		if idx > total {
			return nil, fmt.Errorf("%s is shard %d, past n = %d", name(i), idx, total)
		}
		if j, dup := byIndex[idx]; dup {
			return nil, fmt.Errorf("shard %d of %d given twice: %s and %s", idx, total, name(j), name(i))
		}
		byIndex[idx] = i
		for _, res := range r.Results {
			if j, dup := owner[res.ID]; dup {
				return nil, fmt.Errorf("shards overlap: %s has a result in %s (shard %d) and in %s (shard %d)",
					res.ID, name(j), rs[j].Run.Shard.Index, name(i), idx)
			}
			owner[res.ID] = i
		}
	}

	// The merged report starts from the lowest shard's, which holds the
	// exclusive specs and whose card is as good as any.
	order := make([]int, 0, len(rs))
	for i := range rs {
		order = append(order, i)
	}
	sort.Slice(order, func(a, b int) bool { return rs[order[a]].Run.Shard.Index < rs[order[b]].Run.Shard.Index })
	base := rs[order[0]]
	m := &Report{
		APIVersion:      base.APIVersion,
		Kind:            base.Kind,
		Implementation:  base.Implementation,
		Harness:         base.Harness,
		ProtocolVersion: base.ProtocolVersion,
		Run:             base.Run,
		Card:            base.Card,
		CardError:       base.CardError,
		Results:         []Result{},
	}
	m.Run.Args = withoutShardArg(base.Run.Args)
	m.Run.Notes = nil
	m.Run.Interrupted = ""
	m.Run.Unreachable = false
	sh := &Shard{Total: total}
	var end time.Time
	for _, i := range order {
		r := rs[i]
		idx := r.Run.Shard.Index
		sh.Merged = append(sh.Merged, idx)
		if r.Run.Start.Before(m.Run.Start) {
			m.Run.Start = r.Run.Start
		}
		if e := r.Run.Start.Add(time.Duration(r.Run.DurationMs) * time.Millisecond); e.After(end) {
			end = e
		}
		if r.Run.Interrupted != "" && m.Run.Interrupted == "" {
			m.Run.Interrupted = r.Run.Interrupted
		}
		m.Run.Unreachable = m.Run.Unreachable || r.Run.Unreachable
		if m.CardError == "" {
			m.CardError = r.CardError
		}
		for _, n := range r.Run.Notes {
			m.Run.Notes = append(m.Run.Notes, fmt.Sprintf("shard %d of %d: %s", idx, total, n))
		}
		if r.Baseline != nil {
			m.Run.Notes = append(m.Run.Notes, fmt.Sprintf("shard %d of %d was gated by a baseline (--expect); a merge does not carry baselines: run a2a-conform summary or the gate on the shard reports", idx, total))
		}
		m.Results = append(m.Results, r.Results...)
	}
	m.Run.DurationMs = end.Sub(m.Run.Start).Milliseconds()
	for idx := 1; idx <= total; idx++ {
		if _, ok := byIndex[idx]; !ok {
			sh.Missing = append(sh.Missing, idx)
		}
	}
	if len(sh.Missing) > 0 {
		m.Run.Notes = append(m.Run.Notes, fmt.Sprintf("partial: shard(s) %s of %d missing from the merge; their specs are counted as not passed", joinInts(sh.Missing), total))
	}
	m.Run.Shard = sh
	sort.Slice(m.Results, func(a, b int) bool { return m.Results[a].ID < m.Results[b].ID })
	return m, nil
}

// withoutShardArg drops --shard from a run's recorded flags, so that the
// merged report's reproduce command runs the whole selection.
func withoutShardArg(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--shard" || a == "-shard" {
			i++
			continue
		}
		if strings.HasPrefix(a, "--shard=") || strings.HasPrefix(a, "-shard=") {
			continue
		}
		out = append(out, a)
	}
	return slices.Clip(out)
}

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// writeShard writes, as run --shard idx/n would, a report of the discovery
// suite's specs in that shard, every one passed, after edit.
func writeShard(t *testing.T, dir string, idx, n int, edit func(*reports.Report)) string {
	t.Helper()
	r := &reports.Report{
		Implementation:  reports.Implementation{Name: "agent", Version: "1"},
		Harness:         reports.Harness{Name: "a2a-conform", Version: runner.Version()},
		ProtocolVersion: "1.0",
		Run: reports.Run{Start: time.Date(2026, 1, 2, 3, 4, idx, 0, time.UTC), DurationMs: 1000, Seed: 42,
			Suites: []string{suites.Discovery}, Topology: "none", Target: "https://agent.example",
			Requirements: suites.CurrentRequirements, SpecRevision: runner.SpecRevision,
			Args:  []string{"--suite=discovery", "--seed=42", "--shard=" + strings.Join([]string{itoa(idx), itoa(n)}, "/")},
			Shard: &reports.Shard{Index: idx, Total: n}},
	}
	for _, info := range suites.InShard(suites.InSuites(suites.Discovery), idx, n) {
		res := info.Result()
		res.Verdict = reports.Pass
		r.Results = append(r.Results, res)
	}
	if edit != nil {
		edit(r)
	}
	p := filepath.Join(dir, "shard-"+itoa(idx)+".json")
	if err := reports.WriteJSON(p, r); err != nil {
		t.Fatal(err)
	}
	return p
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestMergeShards(t *testing.T) {
	t.Parallel()
	discovery := len(suites.InSuites(suites.Discovery))
	for _, tc := range []struct {
		name string
		// shards returns the paths to merge.
		shards  func(t *testing.T, dir string) []string
		exit    int
		stderr  string // in the error output
		missing []int  // the merged report's run.shard.missing
		partial string // in a partial reason of the merged report
	}{
		{name: "complete", exit: 0, shards: func(t *testing.T, dir string) []string {
			return []string{writeShard(t, dir, 2, 3, nil), writeShard(t, dir, 1, 3, nil), writeShard(t, dir, 3, 3, nil)}
		}},
		{name: "missing shard", exit: 1, stderr: "missing", missing: []int{2}, partial: "merged without shard(s) 2 of 3",
			shards: func(t *testing.T, dir string) []string {
				return []string{writeShard(t, dir, 1, 3, nil), writeShard(t, dir, 3, 3, nil)}
			}},
		{name: "mismatched seed", exit: runner.ExitUsage, stderr: "seed \"42\" ≠ \"43\"", shards: func(t *testing.T, dir string) []string {
			return []string{writeShard(t, dir, 1, 2, nil), writeShard(t, dir, 2, 2, func(r *reports.Report) { r.Run.Seed = 43 })}
		}},
		{name: "mismatched target", exit: runner.ExitUsage, stderr: "target", shards: func(t *testing.T, dir string) []string {
			return []string{writeShard(t, dir, 1, 2, nil), writeShard(t, dir, 2, 2, func(r *reports.Report) { r.Run.Target = "https://other.example" })}
		}},
		{name: "mismatched harness version", exit: runner.ExitUsage, stderr: "harness version", shards: func(t *testing.T, dir string) []string {
			return []string{writeShard(t, dir, 1, 2, nil), writeShard(t, dir, 2, 2, func(r *reports.Report) { r.Harness.Version = "v0.0.1" })}
		}},
		{name: "mismatched requirement set", exit: runner.ExitUsage, stderr: "requirement set", shards: func(t *testing.T, dir string) []string {
			return []string{writeShard(t, dir, 1, 2, nil), writeShard(t, dir, 2, 2, func(r *reports.Report) { r.Run.Requirements = "a2a-1.0.1-r0" })}
		}},
		{name: "different n", exit: runner.ExitUsage, stderr: "shard count", shards: func(t *testing.T, dir string) []string {
			return []string{writeShard(t, dir, 1, 2, nil), writeShard(t, dir, 2, 3, nil)}
		}},
		{name: "same shard twice", exit: runner.ExitUsage, stderr: "shard 1 of 2 given twice", shards: func(t *testing.T, dir string) []string {
			p := writeShard(t, dir, 1, 2, nil)
			return []string{p, p}
		}},
		{name: "overlapping shards", exit: runner.ExitUsage, stderr: "shards overlap", shards: func(t *testing.T, dir string) []string {
			return []string{writeShard(t, dir, 1, 2, nil), writeShard(t, dir, 2, 2, func(r *reports.Report) {
				res := suites.InShard(suites.InSuites(suites.Discovery), 1, 2)[0].Result()
				res.Verdict = reports.Pass
				r.Results = append(r.Results, res)
			})}
		}},
		{name: "not a shard", exit: runner.ExitUsage, stderr: "is not a shard", shards: func(t *testing.T, dir string) []string {
			return []string{writeShard(t, dir, 1, 1, func(r *reports.Report) { r.Run.Shard = nil })}
		}},
		{name: "edited shard", exit: 1, stderr: "not a valid, unedited report", shards: func(t *testing.T, dir string) []string {
			p := writeShard(t, dir, 2, 2, func(r *reports.Report) { r.Results[0].Verdict = reports.Fail; r.Results[0].Reason = "broke" })
			b, _ := os.ReadFile(p)
			b = bytes.Replace(b, []byte(`"verdict": "fail"`), []byte(`"verdict": "pass"`), 1)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{writeShard(t, dir, 1, 2, nil), p}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, out := t.TempDir(), filepath.Join(t.TempDir(), "merged")
			var so, se bytes.Buffer
			code := Main(append([]string{"merge", "--out", out}, tc.shards(t, dir)...), &so, &se)
			if code != tc.exit {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tc.exit, so.String(), se.String())
			}
			if tc.stderr != "" && !strings.Contains(se.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, se.String())
			}
			if tc.exit == runner.ExitUsage || tc.stderr != "" && tc.missing == nil {
				if _, err := os.Stat(filepath.Join(out, "report.json")); err == nil {
					t.Error("a refused merge wrote report.json")
				}
				return
			}
			r, problems, err := reports.VerifyFile(filepath.Join(out, "report.json"))
			if err != nil || len(problems) > 0 {
				t.Fatalf("merged report does not verify: %v %v", err, problems)
			}
			for _, f := range []string{"junit.xml", "report.html"} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Error(err)
				}
			}
			if len(r.Results) != discovery {
				t.Errorf("%d results, want every discovery spec (%d)", len(r.Results), discovery)
			}
			if r.Run.Shard == nil || r.Run.Shard.Index != 0 || !equalInts(r.Run.Shard.Missing, tc.missing) {
				t.Errorf("run.shard = %+v, want missing %v", r.Run.Shard, tc.missing)
			}
			for _, a := range r.Run.Args {
				if strings.Contains(a, "shard") {
					t.Errorf("merged args keep %q", a)
				}
			}
			why := strings.Join(reports.PartialReasons(r, nil), "; ")
			if tc.partial == "" {
				if why != "" || r.Summary.ByVerdict[reports.CouldNotRun] != 0 {
					t.Errorf("complete merge reads partial: %q, %v", why, r.Summary.ByVerdict)
				}
				return
			}
			if !strings.Contains(why, tc.partial) {
				t.Errorf("partial reasons %q lack %q", why, tc.partial)
			}
			lost := suites.InShard(suites.InSuites(suites.Discovery), 2, 3)
			if got := r.Summary.ByVerdict[reports.CouldNotRun]; got != len(lost) {
				t.Errorf("%d could-not-run, want the %d specs of the missing shard", got, len(lost))
			}
			html, _ := os.ReadFile(filepath.Join(out, "report.html"))
			if !strings.Contains(string(html), "merged without shard(s) 2 of 3") {
				t.Error("report.html does not say the merge is partial")
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The embedded reference agent run in three shards with one seed, merged,
// holds the same specs with the same verdicts as the unsharded run.
// Discovery's specs judge the card and single requests: no timing in them.
func TestShardedRunMergesToTheUnshardedRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := func(out string, extra ...string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], append([]string{"run", "--suite", "discovery", "--seed", "77", "--out", out}, extra...)...)
		cmd.Env = append(os.Environ(), cliEnv+"=1")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("run %v: %v\n%s", extra, err, b)
		}
	}
	run(filepath.Join(dir, "whole"))
	var shards []string
	for i := 1; i <= 3; i++ {
		out := filepath.Join(dir, "shard"+itoa(i))
		run(out, "--shard", itoa(i)+"/3")
		shards = append(shards, filepath.Join(out, "report.json"))
	}
	var so, se bytes.Buffer
	if code := Main(append([]string{"merge", "--out", filepath.Join(dir, "merged")}, shards...), &so, &se); code != 0 {
		t.Fatalf("merge exit %d\n%s\n%s", code, so.String(), se.String())
	}
	verdicts := func(p string) map[string]reports.Verdict {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var r reports.Report
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		m := map[string]reports.Verdict{}
		for _, res := range r.Results {
			m[res.ID] = res.Verdict
		}
		return m
	}
	whole, merged := verdicts(filepath.Join(dir, "whole", "report.json")), verdicts(filepath.Join(dir, "merged", "report.json"))
	if len(whole) != len(suites.InSuites(suites.Discovery)) {
		t.Fatalf("the unsharded run has %d results", len(whole))
	}
	if len(merged) != len(whole) {
		t.Errorf("merged %d specs, unsharded %d", len(merged), len(whole))
	}
	for id, v := range whole {
		if merged[id] != v {
			t.Errorf("%s: merged %q, unsharded %q", id, merged[id], v)
		}
	}
}

// A matrix of one fault split in two: the clean run and the fault's run go
// to different shards (by name: clean, no-cache-headers), each with the seed
// it has in the whole matrix, and neither writes the table.
func TestMatrixShards(t *testing.T) {
	t.Parallel()
	table := filepath.Join(t.TempDir(), "m.md")
	for _, tc := range []struct {
		shard     string
		want, not string
	}{
		{"1/2", "run --seed 5 ", "--fault no-cache-headers"},
		{"2/2", "run --seed 6 --fault no-cache-headers --suite discovery", "run --seed 5 "},
	} {
		var so, se bytes.Buffer
		code := Main([]string{"matrix", "--fault", "no-cache-headers", "--seed", "5", "--shard", tc.shard, "--out", table, "--work", t.TempDir()}, &so, &se)
		if code != 0 {
			t.Fatalf("shard %s: exit %d\n%s\n%s", tc.shard, code, so.String(), se.String())
		}
		if !strings.Contains(so.String(), tc.want) || strings.Contains(so.String(), tc.not) {
			t.Errorf("shard %s: want %q and not %q in:\n%s", tc.shard, tc.want, tc.not, so.String())
		}
		if !strings.Contains(so.String(), "shard "+tc.shard+": every expectation of its 1 child runs held") {
			t.Errorf("shard %s: no shard line:\n%s", tc.shard, so.String())
		}
	}
	if _, err := os.Stat(table); err == nil {
		t.Error("a sharded matrix wrote the table")
	}
	var so, se bytes.Buffer
	if code := Main([]string{"matrix", "--shard", "3/2"}, &so, &se); code != runner.ExitUsage || !strings.Contains(se.String(), "--shard") {
		t.Errorf("--shard 3/2: exit %d, %s", code, se.String())
	}
}

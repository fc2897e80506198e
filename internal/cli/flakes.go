package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

const flakesHelp = `Usage: a2a-conform flakes [flags]

Repeats the default run (every suite, or those --suite names, against the clean embedded
reference agent) --runs times, each with its own seed, and lists every spec whose verdict
changed, with the seeds that gave each verdict. Then runs each registered fault (with
--suite, each that names a spec of those suites) --fault-runs times (its specs focused,
new seeds) and prints the fraction of runs that caught it: every spec it names failed, or
warned at SHOULD/MAY level. Exits 1 unless no verdict changed and every fault was caught
every time. Each run is a child process.

Flags:
`

func flakesCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("flakes", stderr, flakesHelp)
	runs := fs.Int("runs", 20, "`K` clean runs of every suite")
	var faultRunsF optionalInt
	fs.Var(&faultRunsF, "fault-runs", "`N` runs per fault (0: none; default: as many as --runs; 52 faults × 20 runs take ~4 min on 2 cores)")
	parallel := fs.Int("parallel", 2, "runs at a time (each is one child process)")
	seed := fs.Int64("seed", 0, "seed of the first run; run i gets seed+i (default: from the clock, printed)")
	work := fs.String("work", "", "`DIR` for the runs' reports (default: a temporary directory, kept only when something changed)")
	var faultF listFlag
	fs.Var(&faultF, "fault", "only these `faults`, comma-separated (default: every fault that names a spec)")
	var suiteF listFlag
	fs.Var(&suiteF, "suite", "only these `suites`, comma-separated: the clean runs take only them, and only the faults that name a spec of theirs run (default: "+strings.Join(suites.SuiteNames, ",")+")")
	if done, code := parse(fs, args); done {
		return code
	}
	only := splitComma(suiteF)
	if !knownSuites("flakes", only, suites.SuiteNames, stderr) {
		return runner.ExitUsage
	}
	inSuites := map[string]bool{} // every spec when no --suite
	for _, i := range suites.InSuites(only...) {
		inSuites[i.ID] = true
	}
	var cleanArgs []string
	ofSuites := "every suite"
	if len(only) > 0 {
		cleanArgs = []string{"--suite", strings.Join(only, ",")}
		ofSuites = "the suites " + strings.Join(only, ", ")
	}
	faultRuns := runs
	if faultRunsF.set {
		faultRuns = &faultRunsF.n
	}
	if fs.NArg() > 0 || *runs < 0 || *faultRuns < 0 || *parallel < 1 || *seed < 0 || *runs+*faultRuns == 0 {
		fs.Usage()
		return runner.ExitUsage
	}
	b := newBatch("flakes", splitComma(faultF), *work, stderr)
	if b == nil {
		return runner.ExitUsage
	}
	defer b.stop()
	faults, dir, temp, ctx := b.faults, b.dir, b.temp, b.ctx

	base := baseSeed(*seed)
	next := base
	newRun := func(name string, args ...string) *harnessRun {
		r := &harnessRun{Args: args, Seed: next, Out: filepath.Join(dir, name+"-"+strconv.FormatInt(next, 10))}
		next++
		return r
	}
	var clean, all []*harnessRun
	for i := 0; i < *runs; i++ {
		clean = append(clean, newRun("clean", cleanArgs...))
	}
	all = append(all, clean...)
	byFault := map[string][]*harnessRun{}
	var named []fakes.FaultInfo
	if *faultRuns > 0 {
		for _, f := range faults {
			if !slices.ContainsFunc(f.Specs, func(id string) bool { return inSuites[id] }) {
				continue
			}
			named = append(named, f)
			for i := 0; i < *faultRuns; i++ {
				r := newRun(f.Name, "--fault", f.Name, "--focus", strings.Join(f.Specs, ","))
				byFault[f.Name] = append(byFault[f.Name], r)
				all = append(all, r)
			}
		}
	}
	fmt.Fprintf(stdout, "a2a-conform flakes · %d clean runs of %s · %d faults × %d runs · %d at a time · seeds %d–%d (rerun with --seed %d) · reports in %s\n",
		*runs, ofSuites, len(named), *faultRuns, *parallel, base, next-1, base, dir)
	start := time.Now()
	n := 0
	runAll(ctx, all, *parallel, func(r *harnessRun) {
		n++
		if r.Err != nil || n%10 == 0 || n == len(all) {
			status := "ok"
			if r.Err != nil {
				status = r.Err.Error()
			}
			fmt.Fprintf(stdout, "[%d/%d] %s  %s (%s)\n", n, len(all), time.Since(start).Round(time.Second), r.Rerun(), status)
		}
	})
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "flakes: interrupted")
		return runner.ExitFailed
	}

	bad := 0
	if *runs > 0 {
		changes, broken := verdictChanges(clean)
		fmt.Fprintf(stdout, "\nClean reference agent, %d runs of %s:\n", *runs, ofSuites)
		for _, r := range broken {
			fmt.Fprintf(stdout, "  no report from `%s`: %v\n", r.Rerun(), r.Err)
		}
		if len(changes) == 0 {
			fmt.Fprintf(stdout, "  no spec changed its verdict (%d specs)\n", len(clean[0].Verdicts()))
		} else {
			fmt.Fprintf(stdout, "  %-9s %-36s %s\n", "SPEC", "VERDICTS SEEN", "SEEDS")
			for _, c := range changes {
				fmt.Fprintf(stdout, "  %-9s %-36s %s\n", c.Spec, c.Counts, c.Seeds)
			}
		}
		bad += len(changes) + len(broken)
	}
	if len(named) > 0 {
		fmt.Fprintf(stdout, "\nDetection, %d runs per fault (its specs focused):\n", *faultRuns)
		fmt.Fprintf(stdout, "  %-34s %-12s %s\n", "FAULT", "CAUGHT", "MISSED ON SEEDS")
		full := 0
		lowest, lowestName := 1.0, ""
		for _, f := range named {
			caught, missed := detection(f, byFault[f.Name])
			frac := float64(caught) / float64(len(byFault[f.Name]))
			if caught == len(byFault[f.Name]) {
				full++
			} else {
				bad++
			}
			if frac < lowest {
				lowest, lowestName = frac, f.Name
			}
			line := fmt.Sprintf("  %-34s %-12s %s", f.Name, fmt.Sprintf("%d/%d %3.0f%%", caught, len(byFault[f.Name]), 100*frac), strings.Join(missed, "; "))
			fmt.Fprintln(stdout, strings.TrimRight(line, " "))
		}
		fmt.Fprintf(stdout, "  %d of %d faults caught in every run", full, len(named))
		if lowestName != "" {
			fmt.Fprintf(stdout, "; lowest %s, %.0f%%", lowestName, 100*lowest)
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "\n%d runs in %s\n", len(all), time.Since(start).Round(time.Second))
	if bad > 0 {
		fmt.Fprintf(stdout, "reports kept in %s\n", dir)
		return runner.ExitFailed
	}
	if temp {
		os.RemoveAll(dir)
	}
	return 0
}

// optionalInt is an int flag whose default is another flag's value: it
// remembers whether it was given.
type optionalInt struct {
	set bool
	n   int
}

func (o *optionalInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	o.set, o.n = true, n
	return nil
}

// verdictChange is one spec that did not give the same verdict in every run.
type verdictChange struct {
	Spec string
	// Counts is "pass ×19, indeterminate ×1"; Seeds names, per verdict, the
	// seeds that gave it (the rarer verdicts in full, the commonest cut at 3).
	Counts, Seeds string
}

// verdictChanges compares the runs spec by spec; runs without a report are
// returned apart, since they say nothing about any one spec.
func verdictChanges(runs []*harnessRun) (changes []verdictChange, broken []*harnessRun) {
	seeds := map[string]map[reports.Verdict][]int64{}
	for _, r := range runs {
		v := r.Verdicts()
		if v == nil {
			broken = append(broken, r)
			continue
		}
		for id, verdict := range v {
			if seeds[id] == nil {
				seeds[id] = map[reports.Verdict][]int64{}
			}
			seeds[id][verdict] = append(seeds[id][verdict], r.Seed)
		}
	}
	ok := len(runs) - len(broken)
	for id, by := range seeds {
		total := 0
		for _, s := range by {
			total += len(s)
		}
		if len(by) == 1 && total == ok {
			continue
		}
		if total < ok {
			by["(no result)"] = nil // a spec missing from some reports changed too
		}
		type vs struct {
			v reports.Verdict
			s []int64
		}
		var list []vs
		for v, s := range by {
			list = append(list, vs{v, s})
		}
		sort.Slice(list, func(a, b int) bool {
			if len(list[a].s) != len(list[b].s) {
				return len(list[a].s) > len(list[b].s)
			}
			return list[a].v < list[b].v
		})
		var counts, seedList []string
		for i, x := range list {
			counts = append(counts, fmt.Sprintf("%s ×%d", x.v, len(x.s)))
			shown := x.s
			more := ""
			if i == 0 && len(shown) > 3 {
				shown, more = shown[:3], " …"
			}
			var ss []string
			for _, s := range shown {
				ss = append(ss, strconv.FormatInt(s, 10))
			}
			if len(ss) > 0 {
				seedList = append(seedList, string(x.v)+": "+strings.Join(ss, ", ")+more)
			}
		}
		changes = append(changes, verdictChange{Spec: id, Counts: strings.Join(counts, ", "), Seeds: strings.Join(seedList, "; ")})
	}
	sort.Slice(changes, func(a, b int) bool { return changes[a].Spec < changes[b].Spec })
	return changes, broken
}

// detection counts the runs in which every spec the fault names gave its
// expected verdict, and says what each other run saw.
func detection(f fakes.FaultInfo, runs []*harnessRun) (caught int, missed []string) {
	for _, r := range runs {
		got := r.Verdicts()
		if got == nil {
			missed = append(missed, fmt.Sprintf("%d: no report", r.Seed))
			continue
		}
		var wrong []string
		for _, id := range f.Specs {
			if want := expectedVerdict(f, id); got[id] != want {
				wrong = append(wrong, id+" "+orNone(got[id]))
			}
		}
		if len(wrong) == 0 {
			caught++
		} else {
			missed = append(missed, fmt.Sprintf("%d: %s", r.Seed, strings.Join(wrong, ", ")))
		}
	}
	return caught, missed
}

package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/a2a-conform/a2a-conform/internal/topology"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Exit codes of `a2a-conform run` (DESIGN.md "CLI contract").
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitUnreachable = 3
)

// Outcome is what a run produced.
type Outcome struct {
	Report *reports.Report
	Exit   int
	Files  []string
}

// Run performs one run: it prepares the target (starting the embedded agent
// when no target is given), runs the selected specs once, and writes
// report.json, junit.xml and report.html into cfg.Out. It may be called once
// per process (Ginkgo's RunSpecs can run only once).
func Run(ctx context.Context, cfg Config, stdout io.Writer) (*Outcome, error) {
	given := cfg.Args() // as the user gave it, before Validate fills defaults
	if err := cfg.Validate(); err != nil {
		return &Outcome{Exit: ExitUsage}, err
	}
	if err := nothingSelected(cfg); err != nil {
		return &Outcome{Exit: ExitUsage}, err
	}
	start := time.Now()
	fmt.Fprintf(stdout, "a2a-conform %s · seed %d (rerun with --seed %d)\n", Version(), cfg.Seed, cfg.Seed)

	prep, err := Prepare(ctx, cfg)
	if prep != nil {
		defer prep.Close()
	}
	if in, ok := InterruptedBy(ctx); ok {
		// Stopped before any spec ran: nothing to report on.
		return &Outcome{Exit: in.Exit()}, in
	}
	if err != nil {
		return &Outcome{Exit: ExitUsage}, err
	}
	fmt.Fprintf(stdout, "target %s (%s)\n", prep.Env.BaseURL, prep.Driver)
	if r := prep.Env.WebhookReach; r != nil && prep.Unreachable == nil {
		fmt.Fprintf(stdout, "%s\n", redact(r.String(), secretValues(cfg)))
	}

	selected := Selected(cfg)
	report := newReport(cfg, prep, start)
	report.Run.Args = given
	for _, n := range prep.Notes {
		n = redact(n, secretValues(cfg))
		report.Run.Notes = append(report.Run.Notes, n)
		fmt.Fprintf(stdout, "%s\n", n)
	}
	if prep.Unreachable != nil {
		// A dead target scores nothing: every selected spec could not run.
		fmt.Fprintf(stdout, "could not reach the target: %s\n", redact(prep.Unreachable.Error(), secretValues(cfg)))
		report.Run.Unreachable = true
		report.CardError = prep.Unreachable.Error()
		for _, info := range selected {
			res := info.Result()
			res.Verdict = reports.CouldNotRun
			res.Reason = "the target could not be reached: " + prep.Unreachable.Error()
			report.Results = append(report.Results, res)
		}
		out, werr := finish(cfg, report, start)
		out.Exit = ExitUnreachable
		return out, werr
	}

	suites.SetEnv(prep.Env)
	secrets := secretValues(cfg)
	prog := newProgress(stdout, len(selected), isTerminal(stdout))
	win := newWindows()
	suites.OnBody(win.wrap(prog.began, prog.ended))
	suites.OnResult(func(r reports.Result) {
		r.Reason = redact(r.Reason, secrets)
		prog.finished(r)
	})
	logPath := filepath.Join(cfg.Out, "ginkgo.log")
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return &Outcome{Exit: ExitUsage}, err
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return &Outcome{Exit: ExitUsage}, err
	}
	defer logFile.Close()
	// Ginkgo's own reporter goes to a log file; the terminal gets one line per spec.
	formatter.ColorableStdOut = logFile
	formatter.ColorableStdErr = logFile

	suiteConfig, reporterConfig := GinkgoConfig(cfg)
	suites.Plan(selected, prep.Env.Options.Parallel, cfg.Seed)
	gomega.RegisterFailHandler(Fail)
	prog.tick(time.Second)
	RunSpecs(discardT{}, "a2a-conform", suiteConfig, reporterConfig)
	prog.end()

	in, interrupted := InterruptedBy(ctx)
	if !interrupted {
		// The looks specs left for the run's end (suites.T.Later): a retry
		// that came after PUSH-007's wait, while later specs ran.
		for _, rv := range suites.Revisit() {
			note := redact(rv.String(), secrets)
			report.Run.Notes = append(report.Run.Notes, note)
			fmt.Fprintf(stdout, "note: %s\n", note)
		}
	}
	report.Results = collectResults(report, selected, in, interrupted, start, stdout)
	if exits := agentExits(prep); len(exits) > 0 {
		// An agent that died mid-run is reported as such, and the specs
		// it affected are not judged on the harness's errors.
		for _, x := range exits {
			note := redact(deathNote(x, start), secrets)
			report.Run.Notes = append(report.Run.Notes, note)
			fmt.Fprintf(stdout, "note: %s\n", note)
		}
		report.Results = blameDeaths(report.Results, exits, win, start)
	}
	if r := prep.Env.WebhookReach; r != nil {
		// The fact every push spec judged by, as it stood at the end (a late
		// push of the probe upgrades it).
		report.Run.Notes = append(report.Run.Notes, redact(r.String(), secrets))
	}
	if note := prep.wary.note(); note != "" {
		note = redact(note, secrets)
		report.Run.Notes = append(report.Run.Notes, note)
		fmt.Fprintf(stdout, "note: %s\n", note)
	}
	report.Run.Rate = runRate(cfg, prep.Env.Pace)
	out, err := finish(cfg, report, start)
	if err != nil {
		return out, err
	}
	if report.Summary.Score.MustFailed > 0 {
		out.Exit = ExitFailed
	}
	if out.Exit == ExitOK && len(agentExits(prep)) > 0 {
		// The agent stopped serving mid-run: what it was not there to
		// answer is unjudged, and CI must not read that as a clean run.
		out.Exit = ExitUnreachable
	}
	if interrupted {
		out.Exit = in.Exit()
	}
	return out, nil
}

// SpecRevision is the A2A specification tag the specs rest on: v1.0.1,
// whose readings of v1.0.0 (its error tables, content types) are accepted
// too, as each spec says.
const SpecRevision = "v1.0.1"

// agentExits are the process driver's instances that exited on their own.
func agentExits(prep *Prepared) []topology.Exit {
	if pr, ok := prep.Env.Topology.(*topology.Process); ok {
		return pr.UnexpectedExits()
	}
	return nil
}

// declaredAgentSpecs is how many agent specs this harness declares: the set
// a scorecard scores every report against, whatever a run selected.
func declaredAgentSpecs() int {
	n := 0
	for _, i := range suites.All() {
		if i.Suite != suites.Client {
			n++
		}
	}
	return n
}

// withMissing adds a result for every selected spec that produced none, so
// that it shows in the report rather than vanish from the denominator: in a
// run that was interrupted, could-not-run (the run never reached it); else
// indeterminate, since a registered spec without a body is a harness defect.
// verdict and why are what each gets.
func withMissing(results []reports.Result, selected []suites.Info, verdict reports.Verdict, why string) []reports.Result {
	have := map[string]bool{}
	for _, r := range results {
		have[r.ID] = true
	}
	for _, info := range selected {
		if have[info.ID] {
			continue
		}
		res := info.Result()
		res.Verdict, res.Reason = verdict, why
		results = append(results, res)
	}
	sort.Slice(results, func(a, b int) bool { return results[a].ID < results[b].ID })
	return results
}

// discardT satisfies GinkgoTestingT outside `go test`: the verdicts, not
// Ginkgo's pass/fail, decide the exit code.
type discardT struct{}

func (discardT) Fail() {}

// GinkgoConfig builds Ginkgo's configuration from ours: suites and focus are
// label filters, the seed orders the specs, specs run serially.
func GinkgoConfig(cfg Config) (types.SuiteConfig, types.ReporterConfig) {
	sc, rc := GinkgoConfiguration()
	sc.RandomSeed = cfg.Seed
	sc.LabelFilter = LabelFilter(cfg)
	sc.ParallelTotal, sc.ParallelProcess = 1, 1
	sc.FailFast = false
	rc.NoColor = true
	rc.Succinct = true
	rc.SilenceSkips = true
	return sc, rc
}

// LabelFilter combines --suite, --focus and --label-filter into one Ginkgo
// label filter (all must hold).
//
// The client suite runs only when named (--suite client, or `a2a-conform
// client`): its specs judge a client driver, not the target agent.
func LabelFilter(cfg Config) string {
	var parts []string
	if len(cfg.Suites) > 0 {
		parts = append(parts, "("+strings.Join(cfg.Suites, " || ")+")")
	}
	if !contains(cfg.Suites, suites.Client) {
		parts = append(parts, "!"+suites.Client)
	}
	if len(cfg.Focus) > 0 {
		parts = append(parts, "("+strings.Join(cfg.Focus, " || ")+")")
	}
	if cfg.LabelFilter != "" {
		parts = append(parts, "("+cfg.LabelFilter+")")
	}
	if ids, ok := shardIDs(cfg); ok {
		if len(ids) == 0 {
			// No label is named so: the shard runs nothing.
			ids = []string{emptyShardLabel}
		}
		parts = append(parts, "("+strings.Join(ids, " || ")+")")
	}
	return strings.Join(parts, " && ")
}

// emptyShardLabel is a label no spec has, the filter of a shard the split
// left empty (a selection of fewer specs than shards).
const emptyShardLabel = "no-spec-in-this-shard"

// Shard returns the run's shard (index, total), ok false when unsharded or
// when --shard does not parse (Validate reports that).
func Shard(cfg Config) (index, total int, ok bool) {
	if cfg.Shard == "" {
		return 0, 0, false
	}
	i, n, err := suites.ParseShard(cfg.Shard)
	return i, n, err == nil
}

// shardIDs are the spec IDs of the run's shard: the selection without
// --shard, split by suites.InShard.
func shardIDs(cfg Config) ([]string, bool) {
	i, n, ok := Shard(cfg)
	if !ok {
		return nil, false
	}
	whole := cfg
	whole.Shard = ""
	var ids []string
	for _, info := range suites.InShard(Selected(whole), i, n) {
		ids = append(ids, info.ID)
	}
	return ids, true
}

// Selected returns the registered specs the configuration selects, evaluated
// with the same label filter Ginkgo will use.
func Selected(cfg Config) []suites.Info {
	filter, err := types.ParseLabelFilter(LabelFilter(cfg))
	if err != nil {
		return nil
	}
	var out []suites.Info
	for _, info := range suites.All() {
		if filter(info.Labels()) {
			out = append(out, info)
		}
	}
	return out
}

// nothingSelected refuses a run that would select no spec. Such a run would
// report "0 of 0 passed" and exit 0, and a CI job whose filter went stale (a
// renamed label, a suite whose specs have not landed) would stay green while
// checking nothing. The error names the cause: a suite without specs, or
// which of the filters, each selecting something alone, exclude each other.
func nothingSelected(cfg Config) error {
	if len(Selected(cfg)) > 0 {
		return nil
	}
	if cfg.Shard != "" {
		// A shard the split left empty still writes its (empty) report,
		// so that merge finds every shard; the selection as a whole must
		// not be empty.
		whole := cfg
		whole.Shard = ""
		return nothingSelected(whole)
	}
	var empty, parts []string
	for _, s := range cfg.Suites {
		if len(suites.InSuites(s)) == 0 {
			empty = append(empty, s)
		}
	}
	if len(empty) > 0 && len(empty) == len(cfg.Suites) {
		return fmt.Errorf("nothing to run: suite %s has no specs in this build yet; an empty run is not a green run", strings.Join(empty, ", "))
	}
	if len(cfg.Suites) > 0 {
		parts = append(parts, fmt.Sprintf("--suite %s selects %d", strings.Join(cfg.Suites, ","), len(Selected(Config{Suites: cfg.Suites}))))
	}
	if len(cfg.Focus) > 0 {
		parts = append(parts, fmt.Sprintf("--focus %s selects %d", strings.Join(cfg.Focus, ","), len(Selected(Config{Focus: cfg.Focus}))))
	}
	if cfg.LabelFilter != "" {
		parts = append(parts, fmt.Sprintf("--label-filter %q selects %d", cfg.LabelFilter, len(Selected(Config{LabelFilter: cfg.LabelFilter}))))
	}
	why := "no spec is registered"
	switch len(parts) {
	case 0:
	case 1:
		why = "the filter matches no spec: " + parts[0]
	default:
		why = "the filters match no spec together: " + strings.Join(parts, "; ")
	}
	if len(empty) > 0 {
		why += fmt.Sprintf(" (suite %s has no specs in this build yet)", strings.Join(empty, ", "))
	}
	return fmt.Errorf("nothing to run: %s; an empty run is not a green run", why)
}

func newReport(cfg Config, prep *Prepared, start time.Time) *reports.Report {
	r := &reports.Report{
		APIVersion:      reports.APIVersion,
		Kind:            reports.Kind,
		Harness:         reports.Harness{Name: "a2a-conform", Version: Version()},
		ProtocolVersion: "1.0",
		Run: reports.Run{
			Start: start.UTC(), Seed: cfg.Seed, Suites: cfg.Suites,
			LabelFilter: cfg.LabelFilter, Focus: cfg.Focus, Faults: cfg.Faults,
			Topology: prep.Driver, Target: prep.Env.BaseURL, DeclaredSpecs: declaredAgentSpecs(),
			HasHeaders: len(cfg.Headers) > 0 || len(cfg.SecondHeaders) > 0 || os.Getenv(HeaderEnv) != "" || os.Getenv(SecondHeaderEnv) != "",
		},
	}
	if i, n, ok := Shard(cfg); ok {
		r.Run.Shard = &reports.Shard{Index: i, Total: n}
	}
	r.Run.SpecRevision = SpecRevision
	r.Run.Requirements = suites.CurrentRequirements
	if prep.Env.CardRaw != nil {
		r.Card = jsonOrString(prep.Env.CardRaw)
		sum := sha256.Sum256(prep.Env.CardRaw)
		r.Run.CardDigest = "sha256:" + hex.EncodeToString(sum[:])
	}
	if c := prep.Env.Card; c != nil {
		r.Implementation = reports.Implementation{Name: c.Name, Version: c.Version, URL: prep.Env.BaseURL}
	}
	if r.Implementation.Name == "" {
		r.Implementation.Name = prep.Env.BaseURL
	}
	if cfg.ImplementationName != "" {
		r.Implementation.Name = cfg.ImplementationName
	}
	if cfg.ImplementationVersion != "" {
		r.Implementation.Version = cfg.ImplementationVersion
	}
	return r
}

// finish fills the summary and writes the three report files.
func finish(cfg Config, r *reports.Report, start time.Time) (*Outcome, error) {
	r.Run.DurationMs = time.Since(start).Milliseconds()
	scrub(r, secretValues(cfg))
	slimTranscripts(r)
	r.Summary = reports.SummarizeReport(r)
	out := &Outcome{Report: r}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return out, err
	}
	var errs []error
	// Bundles from an earlier run in the same directory would be read as
	// this run's.
	_ = os.RemoveAll(filepath.Join(cfg.Out, "replay"))
	if files, err := writeReplays(cfg.Out, r); err != nil {
		errs = append(errs, fmt.Errorf("replay bundles: %w", err))
	} else {
		out.Files = append(out.Files, files...)
	}
	for _, w := range []struct {
		name  string
		write func(string, *reports.Report) error
	}{
		{"report.json", reports.WriteJSON},
		{"junit.xml", reports.WriteJUnit},
		{"report.html", reports.WriteHTML},
	} {
		p := filepath.Join(cfg.Out, w.name)
		if err := w.write(p, r); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", w.name, err))
			continue
		}
		out.Files = append(out.Files, p)
	}
	return out, errors.Join(errs...)
}

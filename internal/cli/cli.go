// Package cli is the a2a-conform command line: subcommands, flags on private
// FlagSets (Ginkgo registers ~50 flags on the global one), and exit codes as
// DESIGN.md's CLI contract fixes them.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"reflect"
	"sort"
	"strings"
	"syscall"

	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/internal/topology"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

const usage = `a2a-conform: interop conformance harness for A2A v1.0 agents

Usage:
  a2a-conform run [flags]            run the specs; no --target runs them against the
                                     embedded reference agent
  a2a-conform list [--suite S,…]     spec IDs, level, sections, scenario, title
  a2a-conform explain ID             what a spec checks, why, and how to enable it
  a2a-conform fake [flags]           serve the reference agent for other tools
  a2a-conform scorecard --out DIR REPORT.json…
                                     vendor × spec matrix (HTML + JSON) and SVG badges;
                                     --require-signer SAN: only reports that identity signed
                                     are attested, the rest left out or self-reported
  a2a-conform verify REPORT.json     check a submitted report is well-formed and unedited
                                     (--bundle: and signed, by whom; offline, Sigstore)
  a2a-conform attest REPORT.json     the report's in-toto Statement (test-result predicate),
                                     to sign with Sigstore (actions/attest)
  a2a-conform merge SHARD.json... --out DIR
                                     join the reports of run --shard i/n into one report
  a2a-conform rerun REPORT.json      run again what a report ran: its flags and seed
  a2a-conform replay BUNDLE.json --target URL
                                     re-drive a failing spec's requests and judge its invariant
  a2a-conform matrix [--out FILE]    prove every spec both ways: the clean agent, then each
                                     fault against its specs; writes docs/fault-matrix.md
  a2a-conform client --client-cmd T  run a vendor's client driver through the client cases
                                     (docs/client-driver.md); --focus CLI-NNN, --out DIR
  a2a-conform client-driver [--fault NAME,…] [--variant NAME,…]
                                     the reference client driver (reads A2A_CONFORM_*)
  a2a-conform flakes [--runs K]      repeat the default run K times with other seeds; report
                                     specs whose verdict changed and each fault's detection rate
  a2a-conform baseline REPORT.json [--out FILE] [--expires 90d]
                                     a starting baseline of expected non-passes for run --expect
  a2a-conform summary [--annotations] REPORT.json
                                     Markdown summary for $GITHUB_STEP_SUMMARY or a merge-request
                                     note; --annotations: GitHub ::error/::warning lines
  a2a-conform diff OLD.json NEW.json [--format json]
                                     what changed between two runs, spec by spec (Markdown);
                                     exit 1 on any regression: a pass lost or a worse finding
  a2a-conform version

Exit codes: 0 no MUST/invariant failed · 1 something failed · 2 usage or config error ·
3 could not reach the target. With run --expect FILE, 0/1 follow the baseline instead:
1 on any non-pass it does not list, a listed spec that passed, changed or flipped, an
expired entry or one naming no spec (docs/vendor-guide.md §4).

Start here:
  a2a-conform run                                 # against the embedded reference agent
  a2a-conform run --target https://agent.example.com --header 'Authorization: Bearer …'
  a2a-conform run --help                          # every run flag
`

// Main runs the command line and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return runner.ExitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return runCmd(rest, stdout, stderr)
	case "list":
		return listCmd(rest, stdout, stderr)
	case "explain":
		return explainCmd(rest, stdout, stderr)
	case "fake":
		return fakeCmd(rest, stdout, stderr)
	case "scorecard":
		return scorecardCmd(rest, stdout, stderr)
	case "attest":
		return attestCmd(rest, stdout, stderr)
	case "verify":
		return verifyCmd(rest, stdout, stderr)
	case "rerun":
		return rerunCmd(rest, stdout, stderr)
	case "replay":
		return replayCmd(rest, stdout, stderr)
	case "matrix":
		return matrixCmd(rest, stdout, stderr)
	case "flakes":
		return flakesCmd(rest, stdout, stderr)
	case "client":
		return clientCmd(rest, stdout, stderr)
	case "client-driver":
		return clientDriverCmd(rest, stdout, stderr)
	case "baseline":
		return baselineCmd(rest, stdout, stderr)
	case "summary":
		return summaryCmd(rest, stdout, stderr)
	case "merge":
		return mergeCmd(rest, stdout, stderr)
	case "diff":
		return diffCmd(rest, stdout, stderr)
	case "version", "--version":
		fmt.Fprintf(stdout, "a2a-conform %s (A2A protocol %s)\n", runner.Version(), "1.0")
		return 0
	case "help", "-h", "--help":
		if len(rest) > 0 && rest[0] != "help" && !strings.HasPrefix(rest[0], "-") {
			// `help run` is `run --help`.
			return Main([]string{rest[0], "--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "a2a-conform: unknown command %q\n\n%s", cmd, usage)
		return runner.ExitUsage
	}
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func newFlagSet(name string, stderr io.Writer, help string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, help)
		printFlags(stderr, fs)
	}
	return fs
}

// printFlags lists fs's flags as a person types them (--name VALUE), each
// with its text and default, in name order.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		value, text := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if value != "" {
			line += " " + value
		}
		text = strings.ReplaceAll(text, "\n", "\n        ")
		fmt.Fprintf(w, "%s\n        %s", line, text)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" && f.DefValue != "[]" {
			fmt.Fprintf(w, " (default %q)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// parse handles --help (the command's help, exit 0) and bad flags (exit 2)
// uniformly. A bad flag gets one line, a did-you-mean when a flag is close,
// and where the help is, not the whole help: the error would scroll away.
func parse(fs *flag.FlagSet, args []string) (done bool, code int) {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	if err == nil {
		return false, 0
	}
	if errors.Is(err, flag.ErrHelp) {
		usage()
		return true, 0
	}
	fmt.Fprintln(out, flagError(fs, err))
	return true, runner.ExitUsage
}

// flagError rewrites the flag package's error in the words of this CLI:
// --name rather than -name, a suggestion for an unknown flag, and the help
// command to run.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	var b strings.Builder
	const unknown = "flag provided but not defined: -"
	if name, ok := strings.CutPrefix(msg, unknown); ok {
		name = strings.TrimLeft(name, "-")
		fmt.Fprintf(&b, "%s: unknown flag --%s", fs.Name(), name)
		if s := nearestFlag(fs, name); s != "" {
			fmt.Fprintf(&b, " (did you mean --%s?)", s)
		}
	} else {
		msg = strings.Replace(msg, " -", " --", 1)
		fmt.Fprintf(&b, "%s: %s", fs.Name(), msg)
	}
	fmt.Fprintf(&b, "\nEvery flag: a2a-conform %s --help", fs.Name())
	return b.String()
}

// nearestFlag is fs's flag closest to name (runner.Nearest), or else the
// only flag name starts with.
func nearestFlag(fs *flag.FlagSet, name string) string {
	var names, prefixed []string
	fs.VisitAll(func(f *flag.Flag) {
		names = append(names, f.Name)
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			prefixed = append(prefixed, f.Name)
		}
	})
	best := runner.Nearest(name, names)
	if best == "" && len(prefixed) == 1 {
		best = prefixed[0]
	}
	return best
}

const runHelp = `Usage: a2a-conform run [flags]

Runs the selected specs and writes DIR/report.json, DIR/junit.xml, DIR/report.html,
DIR/summary.md (Markdown) and one DIR/acts-report-{sdk}-{transport}-{timestamp}.json per
transport (the ACTS draft's §13 format).
Without --target the harness starts its embedded reference agent and runs against it
(--fault then switches on registered faults, to see specs fail). Flags win over --config.
Auth headers may also come from $` + runner.HeaderEnv + ` (one 'Name: value' per line),
the second identity's from $` + runner.SecondHeaderEnv + `; their values are redacted from
every report.

Flags:
`

// runArgs receives the run flags: scalars straight into the Config, lists
// (repeatable, comma-separated) beside it until the file is merged.
type runArgs struct {
	cfgFile                                        string
	c                                              runner.Config
	suiteF, focusF, faultF, headerF, secondF, h2cF listFlag
}

// runFlagSet declares every run flag. docs/config-reference.md is generated
// from it (ConfigReference), so a flag's usage text is its documentation.
func runFlagSet(stderr io.Writer, a *runArgs) *flag.FlagSet {
	fs := newFlagSet("run", stderr, runHelp)
	c := &a.c
	fs.StringVar(&a.cfgFile, "config", "", "YAML or JSON `file` with the same keys as these flags")
	fs.StringVar(&c.Target, "target", "", "base `URL` of the agent (its card is at URL/.well-known/agent-card.json)")
	fs.Var(&a.suiteF, "suite", "suites to run, comma-separated: "+strings.Join(suites.SuiteNames, ","))
	fs.StringVar(&c.LabelFilter, "label-filter", "", "Ginkgo label filter `EXPR`, e.g. 'MUST && !needs:topology'")
	fs.Var(&a.focusF, "focus", "run only these spec `IDs`, comma-separated")
	fs.Int64Var(&c.Seed, "seed", 0, "random seed for spec order and race jitter (default: random, printed)")
	fs.StringVar(&c.Shard, "shard", "", "run only shard `i/n` (1-based) of the selection, to split one run over n machines; a2a-conform merge joins their reports. The split is by spec ID, the same on every machine whatever the seed: the specs that need the agent to themselves (exclusive) all go to shard 1, the others are dealt round-robin in ID order. Give every shard the same selection, seed and target (docs/vendor-guide.md)")
	fs.StringVar(&c.Out, "out", runner.DefaultOut, "report `DIR`")
	fs.Var(&a.faultF, "fault", "embedded agent only: faults to switch on, comma-separated (a2a-conform fake --list-faults)")
	fs.Var(&a.h2cF, "grpc-plaintext-host", "`HOST` besides loopback to which a gRPC interface may be spoken in plaintext h2c (an agent in a CI service network whose card names e.g. http://agent:50051); repeatable; recorded in the report's run notes")
	fs.Var(&a.headerF, "header", "'Name: value' added to every request to the agent; repeatable")
	fs.Var(&a.secondF, "second-header", "'Name: value' of a second identity of the agent, one its authorization model keeps from the tasks the run's own credentials create (another user): sent in place of the --header of the same name; repeatable; also $"+runner.SecondHeaderEnv+". Without it the scoping specs (LIFE-031, LIFE-032) cannot run; the embedded agent has one")
	fs.StringVar(&c.CAFile, "ca-file", "", "PEM `FILE` of CA certificates to trust besides the system's, for an https:// agent behind a private CA")
	fs.StringVar(&c.GRPCDescriptorSet, "grpc-descriptor-set", "", "`FILE`: a serialized FileDescriptorSet (protoc --include_imports --descriptor_set_out) defining lf.a2a.v1.A2AService, used on gRPC interfaces instead of the built-in a2a.proto (which matches the official v1.0.0 file)")
	fs.StringVar(&c.AgentCmd, "agent-cmd", "", "process driver: shell command `TEMPLATE` (run with /bin/sh -c) that starts one agent instance serving HTTP on 127.0.0.1:{port}; also {instance} (0,1,…), {generation} (1), {store} (one file path shared by the instances); output goes to DIR/agent.log")
	fs.StringVar(&c.AgentCmdNext, "agent-cmd-next", "", "process driver: command `TEMPLATE` of the next build, which the rollout suite rolls the instances to one by one ({generation} 2, 3, …); ROLL-007 judges what it dropped of --agent-cmd's card while the harness's CDN still serves that card; default: --agent-cmd again")
	fs.IntVar(&c.Instances, "instances", 0, "process driver: number of instances of --agent-cmd to start, each on its own port (default 1; the specs talk to instance 0)")
	fs.StringVar(&c.HookRotateCard, "hook-rotate-card", "", "hooks driver (with --target): shell `COMMAND` (/bin/sh -c) that changes the card your deployment serves (a new version, interfaces or auth) and returns once every instance serves it; run by ROLL-001 (and by ROLL-002 and ROLL-008 when there is no --hook-rollout-step)")
	fs.StringVar(&c.HookRestartInstance, "hook-restart-instance", "", "hooks driver (with --target): shell `COMMAND` that restarts your agent's instance(s), same build and card, and returns once they serve again; run by ROLL-002 when neither other hook is given")
	fs.StringVar(&c.HookRolloutStep, "hook-rollout-step", "", "hooks driver (with --target): shell `COMMAND` that rolls your deployment to the next build and returns once the rollout is done, e.g. 'kubectl rollout restart deploy/agent && kubectl rollout status deploy/agent'; run by ROLL-002 and ROLL-008 (and by ROLL-001 when there is no --hook-rotate-card)")
	fs.DurationVar(&c.StartTimeout, "start-timeout", 0, fmt.Sprintf("process driver: how long each --agent-cmd instance may take to serve its card, at the start and after every restart or roll (default %s); the time it took is in the report's run notes", topology.ReadyTimeout))
	fs.DurationVar(&c.WaitReady, "wait-ready", 0, "with --target: keep trying the first card fetch while the target refuses connections or answers 502, 503 or 504, for at most this `DURATION` (e.g. 5m for a deployment still rolling out); the time waited is in the report's run notes. Default: one try")
	fs.DurationVar(&c.HookTimeout, "hook-timeout", 0, fmt.Sprintf("hooks driver: how long each hook command may run (default %s); then its process group is killed and the spec is could-not-run. After a hook the harness also waits up to %s for the target to serve its card", topology.DefaultHookTimeout, topology.ReadyTimeout))
	fs.StringVar(&c.WebhookListen, "webhook-listen", "", "`ADDR` the harness's push receiver listens on (default 127.0.0.1:0)")
	fs.StringVar(&c.WebhookURL, "webhook-url", "", "base `URL` at which the agent reaches the receiver, when not the listen address")
	fs.StringVar(&c.SubscribeVerb, "subscribe-verb", "", "HTTP verb for REST SubscribeToTask: POST (spec prose, default) or GET (proto)")
	fs.IntVar(&c.RaceTrials, "race-trials", 0, fmt.Sprintf("trials of the cancel-then-complete race (default %d; at least 10, so each side can reach the 5 decided trials its bound needs)", runner.DefaultRaceTrials))
	fs.DurationVar(&c.PushRetryWait, "push-retry-wait", 0, fmt.Sprintf("how long PUSH-007 waits for the retry of the push its receiver answered 503, from the refusal (default %s); raise it for an agent whose first retry backs off longer. A retry that comes later, before the run ends, still passes", suites.DefaultPushRetryWait))
	fs.StringVar(&c.JWKS, "jwks", "", "JSON Web Key Set `FILE` verifying card signatures that carry no jku")
	fs.DurationVar(&c.RequestTimeout, "request-timeout", 0, "how long to wait for an answer to start (default 30s); after 3 unanswered requests in a row the target counts as stopped")
	fs.IntVar(&c.Parallel, "parallel", 0, fmt.Sprintf("how many specs run at once (default %d, or %d for an agent driven by a prompt map, whose tasks take their own time; 1 runs them one after another, with the same verdicts); a spec that needs the agent to itself always runs alone", suites.DefaultParallel, suites.SlowParallel))
	fs.IntVar(&c.MaxRPS, "max-rps", 0, "bound the requests per second the harness sends to each instance of the agent to `N` (default 0: unbounded), for an agent that rate-limits each instance: behind the harness's load balancer a request to one instance counts against it, one the balancer may send to any instance against every one; without the balancer, each address is an instance. The rate the run used is in report.json's run.rate either way")
	fs.DurationVar(&c.Patience, "patience", 0, "the least time to wait for a task to reach a state (default 10s); the harness waits longer when the agent has shown slower tasks, and spec timeouts grow in proportion")
	fs.BoolVar(&c.NoDirective, "no-directive", false, "do not use the directive extension even if the card advertises it")
	gateFlags(fs, c)
	return fs
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	var a runArgs
	fs := runFlagSet(stderr, &a)
	if done, code := parse(fs, args); done {
		return code
	}
	c := a.c
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "run: unexpected arguments %q\n", fs.Args())
		return runner.ExitUsage
	}
	if a.cfgFile != "" {
		fileCfg, err := runner.LoadFile(a.cfgFile)
		if err != nil {
			fmt.Fprintf(stderr, "run: %v\n", err)
			return runner.ExitUsage
		}
		c = mergeFlags(fs, fileCfg, c)
	}
	// Repeatable flags replace the file's lists only when given.
	if len(a.suiteF) > 0 {
		c.Suites = a.suiteF
	}
	if len(a.focusF) > 0 {
		c.Focus = a.focusF
	}
	if len(a.faultF) > 0 {
		c.Faults = a.faultF
	}
	if len(a.h2cF) > 0 {
		c.GRPCPlaintextHosts = a.h2cF
	}
	if len(a.headerF) > 0 {
		c.Headers = a.headerF
	}
	if len(a.secondF) > 0 {
		c.SecondHeaders = a.secondF
	}

	g, code := newGate(c, args, stderr)
	if g == nil {
		return code
	}
	ctx, stop := interruptible()
	defer stop()
	out, err := runner.Run(ctx, c, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "run: %v\n", err)
	}
	if out == nil {
		return runner.ExitUsage
	}
	g.after(ctx, out, stdout, stderr)
	if out.Report != nil {
		s := out.Report.Summary
		fmt.Fprintf(stdout, "\n%d of %d passed (%.1f%%); %s\n", s.Score.Passed, s.Score.Denominator, s.Score.Percent, verdictCounts(s))
		for _, res := range out.Report.Results {
			for _, f := range res.Findings {
				fmt.Fprintf(stdout, "finding %s: %s\n", res.ID, suites.Cut(f, 400))
			}
		}
		for _, f := range out.Files {
			fmt.Fprintf(stdout, "wrote %s\n", f)
		}
	}
	return out.Exit
}

// interruptible is the run's context: SIGINT or SIGTERM cancels it with
// runner.Interrupted as the cause, so that the run writes its reports marked
// interrupted and exits 130 or 143.
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			cancel(runner.Interrupted{Signal: s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// mergeFlags returns the file config with every explicitly set scalar flag
// applied. Each flag is copied into the runner.Config field whose yaml key
// is its name (the generated reference joins them the same way), so that a
// new flag cannot be forgotten here; the list flags (listFlags) are merged
// by runCmd, and --config names the file itself.
func mergeFlags(fs *flag.FlagSet, file, flags runner.Config) runner.Config {
	out := file
	dst, src := reflect.ValueOf(&out).Elem(), reflect.ValueOf(flags)
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "config" || listFlags[f.Name] {
			return
		}
		if i, ok := configField(f.Name); ok {
			dst.Field(i).Set(src.Field(i))
		}
	})
	if out.Out == "" {
		out.Out = runner.DefaultOut
	}
	return out
}

// listFlags are the repeatable flags, which replace the file's list only
// when given (runCmd).
var listFlags = map[string]bool{"suite": true, "focus": true, "fault": true, "header": true, "second-header": true, "grpc-plaintext-host": true}

// configField is the index of the runner.Config field whose yaml key is name.
func configField(name string) (int, bool) {
	t := reflect.TypeOf(runner.Config{})
	for i := 0; i < t.NumField(); i++ {
		if key, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); key == name {
			return i, true
		}
	}
	return 0, false
}

func verdictCounts(s reports.Summary) string {
	var parts []string
	for _, v := range reports.Verdicts {
		if n := s.ByVerdict[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	return strings.Join(parts, ", ")
}

func listCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("list", stderr, "Usage: a2a-conform list [--suite S,…] [--tck]\n\nFlags:\n")
	var suiteF listFlag
	fs.Var(&suiteF, "suite", "only these suites")
	tck := fs.Bool("tck", false, "list the official TCK's requirements instead, each with the specs that cover it or why none does")
	if done, code := parse(fs, args); done {
		return code
	}
	if *tck {
		listTCK(stdout)
		return 0
	}
	names := splitComma(suiteF)
	if !knownSuites("list", names, suites.AllSuiteNames, stderr) {
		return runner.ExitUsage
	}
	listTable(stdout, suites.InSuites(names...))
	return 0
}

func explainCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, "Usage: a2a-conform explain ID   (a2a-conform list shows the IDs)")
		return runner.ExitUsage
	}
	i, ok := suites.Lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "explain: no spec %q (a2a-conform list shows them)\n", args[0])
		return runner.ExitUsage
	}
	fmt.Fprint(stdout, Explain(i))
	return 0
}

// Explain renders a spec's explanation; the scorecard shows the same text.
func Explain(i suites.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s\n\n", i.ID, i.Title)
	fmt.Fprintf(&b, "Level:     %s\n", i.Level)
	fmt.Fprintf(&b, "Suite:     %s\n", i.Suite)
	fmt.Fprintf(&b, "Sections:  %s (A2A v1.0.1 specification)\n", strings.Join(i.Sections, ", "))
	if i.Scenario != "" {
		fmt.Fprintf(&b, "Scenario:  %s\n", suites.ScenarioRef(i.Scenario))
	}
	if len(i.TCK) > 0 {
		fmt.Fprintf(&b, "TCK:       %s\n", strings.Join(i.TCK, ", "))
		fmt.Fprintf(&b, "TCK level: %s\n", tckLevelLine(i))
	}
	if len(i.Needs) > 0 {
		var n []string
		for _, x := range i.Needs {
			n = append(n, string(x))
		}
		fmt.Fprintf(&b, "Needs:     %s\n", strings.Join(n, ", "))
	}
	if j := i.Result().Judges; j != nil {
		fmt.Fprintf(&b, "Judges:    %s\n", strings.TrimPrefix(j.Text(), "judges "))
	}
	if lines := i.Basis().Lines(); len(lines) > 0 {
		fmt.Fprintf(&b, "\nBasis (the A2A text, word for word):\n")
		for _, l := range lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	fmt.Fprintf(&b, "\nWhat and why:\n  %s\n", i.Why)
	if i.Enable != "" {
		fmt.Fprintf(&b, "\nIf it could not run:\n  %s\n", i.Enable)
	}
	if faults := faultsCatching(i.ID); len(faults) > 0 {
		fmt.Fprintf(&b, "\nProved failing against the reference agent's fault(s): %s\n", strings.Join(faults, ", "))
	}
	return b.String()
}

// tckLevelLine gives the TCK's level for spec i and the level of each TCK
// requirement it names; when the TCK asks for more or less than the A2A text,
// it says which one decides the verdict.
func tckLevelLine(i suites.Info) string {
	reqs := suites.TCKRequirements(i)
	byLevel := map[suites.Level][]string{}
	for _, r := range reqs {
		byLevel[r.Level] = append(byLevel[r.Level], r.ID)
	}
	var groups []string
	for _, l := range []suites.Level{suites.MUST, suites.SHOULD, suites.MAY} {
		if ids := byLevel[l]; len(ids) > 0 {
			groups = append(groups, string(l)+": "+strings.Join(ids, ", "))
		}
	}
	detail := strings.Join(groups, "; ")
	switch {
	case len(reqs) == 1:
		detail = reqs[0].ID + " " + string(reqs[0].Level)
	case len(groups) == 1 && len(reqs) == 2:
		detail = "both requirements"
	case len(groups) == 1:
		detail = fmt.Sprintf("all %d requirements", len(reqs))
	}
	line := fmt.Sprintf("%s (%s)", suites.TCKLevel(i), detail)
	if tl := suites.TCKLevel(i); tl != "" && tl != i.Level {
		line += fmt.Sprintf("\n           differs from the level %s, which comes from the A2A text and decides the verdict (docs/levels.md)", i.Level)
	}
	return line
}

func splitComma(in []string) []string {
	var out []string
	for _, s := range in {
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// knownSuites reports whether every name is one of known, saying on stderr
// which is not (cmd names the command).
func knownSuites(cmd string, names, known []string, stderr io.Writer) bool {
	for _, n := range names {
		if !containsStr(known, n) {
			fmt.Fprintf(stderr, "%s: unknown suite %q (known: %s)\n", cmd, n, strings.Join(known, ", "))
			return false
		}
	}
	return true
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// listTCK prints every TCK requirement with the specs covering it, the reason
// it is not applicable, or the suite it waits for.
func listTCK(w io.Writer) {
	covered := map[string][]string{}
	for _, i := range suites.All() {
		for _, id := range i.TCK {
			covered[id] = append(covered[id], i.ID)
		}
	}
	fmt.Fprintf(w, "%-24s %-6s %-7s %s\n", "TCK ID", "LEVEL", "SECTION", "COVERED BY")
	for _, r := range suites.TCK {
		by := strings.Join(covered[r.ID], ", ")
		switch {
		case by != "":
		case suites.TCKNotApplicable[r.ID] != "":
			by = "not applicable: " + suites.TCKNotApplicable[r.ID]
		default:
			by = "not yet: no spec"
		}
		fmt.Fprintf(w, "%-24s %-6s %-7s %s\n", r.ID, r.Level, r.Section, by)
	}
}

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
)

// executable is the binary the matrix and flakes commands re-run as
// `a2a-conform run`. A variable so that tests can point it at their own
// test binary acting as the CLI.
var executable = os.Executable

// clientDriver is the reference client driver's command for the matrix's
// client rows: the binary's own `client-driver`. A variable so that tests
// can point it at the driver built alone (testkit.BuildRefDriver), which
// starts on a third of the CPU, once per case.
var clientDriver = func() string {
	exe, err := executable()
	if err != nil {
		exe = "a2a-conform"
	}
	return reports.ShellQuote(exe) + " client-driver"
}

// harnessRun is one `a2a-conform run` in a child process. Ginkgo's RunSpecs
// runs once per process, so every run of the harness needs its own; a run
// that crashes or hangs then costs only itself.
type harnessRun struct {
	// Cmd is the subcommand ("run" when empty; "client" for client faults).
	Cmd string
	// Args follow the subcommand; --out and --seed are added.
	Args []string
	Seed int64
	// Out is the child's report directory; its console goes to Out/console.log.
	Out string

	Exit   int
	Report *reports.Report
	// Err says why the run gave no usable report (usage error, unreachable
	// embedded agent, crash).
	Err  error
	Took time.Duration
}

// Rerun is the command line that repeats the run, for failure messages.
func (r *harnessRun) Rerun() string {
	args := make([]string, len(r.Args))
	for i, a := range r.Args {
		args[i] = reports.ShellQuote(a)
	}
	return "a2a-conform " + r.cmd() + " --seed " + strconv.FormatInt(r.Seed, 10) + " " + strings.Join(args, " ")
}

func (r *harnessRun) cmd() string {
	if r.Cmd == "" {
		return "run"
	}
	return r.Cmd
}

// Verdicts maps spec ID to verdict (nil when the run gave no report).
func (r *harnessRun) Verdicts() map[string]reports.Verdict {
	if r.Report == nil {
		return nil
	}
	m := map[string]reports.Verdict{}
	for _, res := range r.Report.Results {
		m[res.ID] = res.Verdict
	}
	return m
}

// runAll runs every child, at most parallel at a time, calling done (from
// one goroutine at a time) as each ends. The bound matters: the timing specs
// measure the agent's pace, and a machine overloaded by the harness itself
// would make them report indeterminate.
func runAll(ctx context.Context, runs []*harnessRun, parallel int, done func(*harnessRun)) {
	exe, err := executable()
	if parallel < 1 {
		parallel = 1
	}
	var mu sync.Mutex
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for _, r := range runs {
		if err != nil {
			r.Err = fmt.Errorf("cannot find the a2a-conform binary to re-run: %w", err)
			done(r)
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func(r *harnessRun) {
			defer func() { <-sem; wg.Done() }()
			runChild(ctx, exe, r)
			mu.Lock()
			defer mu.Unlock()
			done(r)
		}(r)
	}
	wg.Wait()
}

func runChild(ctx context.Context, exe string, r *harnessRun) {
	start := time.Now()
	defer func() { r.Took = time.Since(start) }()
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		r.Err = err
		return
	}
	console, err := os.Create(filepath.Join(r.Out, "console.log"))
	if err != nil {
		r.Err = err
		return
	}
	defer console.Close()
	args := append([]string{r.cmd(), "--out", r.Out, "--seed", strconv.FormatInt(r.Seed, 10)}, r.Args...)
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stdout, cmd.Stderr = console, console
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		r.Exit = ee.ExitCode()
	} else if err != nil {
		r.Err = err
		return
	}
	switch r.Exit {
	case runner.ExitOK, runner.ExitFailed:
	case runner.ExitUsage:
		r.Err = fmt.Errorf("usage error (exit 2); see %s", console.Name())
		return
	case runner.ExitUnreachable:
		r.Err = fmt.Errorf("the embedded agent could not be reached (exit 3); see %s", console.Name())
		return
	default:
		r.Err = fmt.Errorf("exit %d; see %s", r.Exit, console.Name())
		return
	}
	r.Report, err = reports.ReadJSON(filepath.Join(r.Out, "report.json"))
	if err != nil {
		r.Err = fmt.Errorf("no report: %w; see %s", err, console.Name())
	}
}

// baseSeed is the first seed of a series: the given one, else one from the
// clock, in the range the run accepts.
func baseSeed(given int64) int64 {
	if given > 0 {
		return given
	}
	return time.Now().UnixNano()%1_000_000 + 1
}

// batch is what the flakes and matrix commands set up before their child
// runs: the faults --fault picked (all when none), where the reports go, and
// a context that an interrupt cancels.
type batch struct {
	faults []fakes.FaultInfo
	dir    string
	temp   bool // dir is the batch's own temporary directory
	ctx    context.Context
	stop   func()
}

// newBatch sets a batch up, or says why not on stderr (prefixed by cmd) and
// returns nil: a usage error.
func newBatch(cmd string, faultNames []string, work string, stderr io.Writer) *batch {
	faults, err := pickFaults(faultNames)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return nil
	}
	dir, temp, err := workDir(work, "a2a-conform-"+cmd+"-")
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return &batch{faults: faults, dir: dir, temp: temp, ctx: ctx, stop: stop}
}

// workDir is where the children's reports go: the given directory, else a
// fresh temporary one the caller removes when everything held.
func workDir(given, pattern string) (dir string, temp bool, err error) {
	if given != "" {
		return given, false, os.MkdirAll(given, 0o755)
	}
	dir, err = os.MkdirTemp("", pattern)
	return dir, true, err
}

package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/gomega"

	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
	"github.com/a2a-conform/a2a-conform/suites/client"
)

// ClientConfig is one client-mode run (`a2a-conform client`): the harness
// serves a scripted agent per case and runs the vendor's client driver
// against it (docs/client-driver.md).
type ClientConfig struct {
	// ClientCmd is the driver's command template (--client-cmd).
	ClientCmd string
	Focus     []string
	Out       string
	Seed      int64
	// Timeout is each case's budget for the driver (default 20 s).
	Timeout time.Duration
	// Parallel is how many cases run at once (default 4).
	Parallel int
	// ImplementationName and ImplementationVersion name the client in the
	// report (default: the driver's command).
	ImplementationName, ImplementationVersion string
	// Env is added to the driver's environment.
	Env []string
}

// DefaultClientParallel is how many client cases run at once: each is a
// driver process, and a driver on a JIT runtime takes a core to start.
const DefaultClientParallel = 4

// Validate checks the configuration and fills defaults.
func (c *ClientConfig) Validate() error {
	var errs []string
	if strings.TrimSpace(c.ClientCmd) == "" {
		errs = append(errs, "--client-cmd is required: the command that runs your client driver (docs/client-driver.md)")
	} else if _, err := clientrun.SplitWords(c.ClientCmd); err != nil {
		errs = append(errs, "--client-cmd: "+err.Error())
	}
	c.Focus = splitList(c.Focus)
	for i, id := range c.Focus {
		info, ok := suites.Lookup(id)
		switch {
		case !ok:
			errs = append(errs, fmt.Sprintf("--focus %q: no such spec (a2a-conform list --suite client shows them)", id))
		case info.Suite != suites.Client:
			errs = append(errs, fmt.Sprintf("--focus %q: not a client spec (a2a-conform run runs agent specs)", id))
		default:
			c.Focus[i] = info.ID
		}
	}
	if c.Timeout < 0 {
		errs = append(errs, "--timeout must not be negative")
	}
	if c.Out == "" {
		c.Out = "a2a-conform-report"
	}
	if c.Seed == 0 {
		c.Seed = time.Now().UnixNano() % 100000
	}
	if c.Parallel <= 0 {
		c.Parallel = DefaultClientParallel
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// RunClient performs one client-mode run and writes report.json, junit.xml
// and report.html, marked as a client run (run.mode "client",
// implementation.role "client"). Exit codes are run's: 0, 1 (a MUST
// failed), 2 (usage), and 3 when the driver's client never reached the
// scripted agent in any case. Like Run, once per process.
func RunClient(ctx context.Context, cc ClientConfig, stdout io.Writer) (*Outcome, error) {
	if err := cc.Validate(); err != nil {
		return &Outcome{Exit: ExitUsage}, err
	}
	cfg := Config{Suites: []string{suites.Client}, Focus: cc.Focus, Seed: cc.Seed, Out: cc.Out, Parallel: cc.Parallel}
	selected := Selected(cfg)
	if len(selected) == 0 {
		return &Outcome{Exit: ExitUsage}, fmt.Errorf("nothing to run: no client spec is selected; an empty run is not a green run")
	}
	if EmbeddedTweak != nil {
		clientrun.Tweak = EmbeddedTweak
	}
	start := time.Now()
	fmt.Fprintf(stdout, "a2a-conform %s · client mode · seed %d (rerun with --seed %d)\n", Version(), cfg.Seed, cfg.Seed)
	fmt.Fprintf(stdout, "client driver: %s\n", cc.ClientCmd)

	rec := recorder.New(recorder.WithStart(start), recorder.WithInstanceHeader("A2A-Conform-Instance"))
	env := &suites.Env{Transcript: rec, Options: suites.Options{Seed: cfg.Seed, Parallel: cfg.Parallel, Patience: suites.DefaultPatience}}
	suites.SetEnv(env)
	client.Configure(client.Config{Template: cc.ClientCmd, Timeout: cc.Timeout, Env: cc.Env})

	report := &reports.Report{
		APIVersion: reports.APIVersion, Kind: reports.Kind,
		Harness:         reports.Harness{Name: "a2a-conform", Version: Version()},
		ProtocolVersion: "1.0",
		Implementation:  reports.Implementation{Name: cc.ClientCmd, Role: "client"},
		Run: reports.Run{Start: start.UTC(), Seed: cfg.Seed, Suites: cfg.Suites, Focus: cfg.Focus,
			Mode: "client", Topology: "embedded", SpecRevision: SpecRevision},
	}
	if cc.ImplementationName != "" {
		report.Implementation.Name = cc.ImplementationName
	}
	report.Implementation.Version = cc.ImplementationVersion

	prog := newProgress(stdout, len(selected), isTerminal(stdout))
	suites.OnBody(prog.began, prog.ended)
	suites.OnResult(prog.finished)
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return &Outcome{Exit: ExitUsage}, err
	}
	logFile, err := os.Create(filepath.Join(cfg.Out, "ginkgo.log"))
	if err != nil {
		return &Outcome{Exit: ExitUsage}, err
	}
	defer logFile.Close()
	formatter.ColorableStdOut = logFile
	formatter.ColorableStdErr = logFile
	suiteConfig, reporterConfig := GinkgoConfig(cfg)
	suites.Plan(selected, cfg.Parallel, cfg.Seed)
	gomega.RegisterFailHandler(Fail)
	prog.tick(time.Second)
	RunSpecs(discardT{}, "a2a-conform client", suiteConfig, reporterConfig)
	prog.end()

	in, interrupted := InterruptedBy(ctx)
	report.Results = collectResults(report, selected, in, interrupted, start, stdout)
	cases, connected := client.Connected()
	never := cases > 0 && connected == 0
	if never {
		report.Run.Unreachable = true
		note := fmt.Sprintf("the client driver never reached the scripted agent in any of its %d cases", cases)
		report.Run.Notes = append(report.Run.Notes, note)
		fmt.Fprintf(stdout, "note: %s\n", note)
	}
	out, err := finish(cfg, report, start)
	if err != nil {
		return out, err
	}
	switch {
	case interrupted:
		out.Exit = in.Exit()
	case never:
		out.Exit = ExitUnreachable
	case report.Summary.Score.MustFailed > 0:
		out.Exit = ExitFailed
	}
	return out, nil
}

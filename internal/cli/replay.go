package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/replay"
	"github.com/a2a-conform/a2a-conform/internal/runner"
)

const replayHelp = `Usage: a2a-conform replay BUNDLE.json --target URL [--header 'Name: value']…

Re-drives a failing spec's requests (a2a-conform-report/replay/ID.json, written
for every fail whose invariant one endpoint's answers can show: terminal
immutability, cancel finality) against URL, at their recorded offsets and as
concurrently as they were sent, with the ids the agent assigns now in place of
the recorded ones, and judges the same invariants over what comes back.
Redacted header values come from --header or $A2A_CONFORM_HEADERS.
Exit 1: the violation reproduced. Exit 0: not this time (a race may need
several tries). Exit 2: usage. Exit 3: the target could not be reached.

Flags:
`

func replayCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("replay", stderr, replayHelp)
	target := fs.String("target", "", "base `URL` of the agent to replay against")
	var headerF listFlag
	fs.Var(&headerF, "header", "'Name: value' for every request (redacted values are filled from it); repeatable")
	timeout := fs.Duration("timeout", 30*time.Second, "bound on each request and stream")
	// The bundle comes first, as in `verify REPORT`.
	var bundle string
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		bundle, args = args[0], args[1:]
	}
	if done, code := parse(fs, args); done {
		return code
	}
	if bundle == "" && fs.NArg() == 1 {
		bundle = fs.Arg(0)
	}
	if bundle == "" || *target == "" {
		fs.Usage()
		return runner.ExitUsage
	}
	b, err := replay.Read(bundle)
	if err != nil {
		fmt.Fprintf(stderr, "replay: %v\n", err)
		return runner.ExitUsage
	}
	c := runner.Config{Headers: headerF}
	hdr, err := c.HeaderSet()
	if err != nil {
		fmt.Fprintf(stderr, "replay: %v\n", err)
		return runner.ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "replaying %s (%s): %d requests, seed %d, recorded by a2a-conform %s against %s\n",
		b.Spec, b.Title, len(b.Requests), b.Seed, b.Harness.Version, b.Target)
	for _, s := range b.Skipped {
		fmt.Fprintf(stdout, "  left out: %s\n", s)
	}
	res, err := replay.Run(ctx, b, replay.Options{Target: *target, Header: hdr, Timeout: *timeout})
	if err != nil {
		fmt.Fprintf(stderr, "replay: %v\n", err)
		return runner.ExitUsage
	}
	answered := 0
	for _, s := range res.Sent {
		line := fmt.Sprintf("  #%d +%.0fms %s %s", s.Seq, s.OffsetMs, s.Method, s.URL)
		switch {
		case s.Error != "":
			line += " → " + s.Error
		default:
			answered++
			line += fmt.Sprintf(" → %d", s.Status)
			if s.Events > 0 {
				line += fmt.Sprintf(" (%d events)", s.Events)
			}
		}
		fmt.Fprintln(stdout, line)
	}
	if answered == 0 {
		fmt.Fprintln(stdout, "no request was answered: the target could not be reached")
		return runner.ExitUnreachable
	}
	if len(res.Violations) == 0 {
		fmt.Fprintf(stdout, "not reproduced this time: no violation of %v in %d answers (a race may need several tries)\n", replay.Judged, answered)
		return 0
	}
	fmt.Fprintf(stdout, "reproduced: %d violation(s)\n", len(res.Violations))
	for _, v := range res.Violations {
		fmt.Fprintf(stdout, "  %s at %s: expected %s, got %s\n", v.Invariant, v.Where, v.Expected, v.Actual)
	}
	return runner.ExitFailed
}

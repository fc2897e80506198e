package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/replay"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/internal/topology"
)

// ExitCannotReplay is replay's exit status when the bundle cannot be
// replayed as given: a change of the deployment it needs has no command,
// or the command failed. Nothing about the target was judged.
const ExitCannotReplay = 4

const replayHelp = `Usage: a2a-conform replay BUNDLE.json --target [ROLE=]URL… [--hook-POINT COMMAND]… [--header 'Name: value']…

Re-drives a failing spec's requests (a2a-conform-report/replay/ID.json, written
for every fail whose invariant a replay can judge: terminal immutability,
cancel finality, a task across a roll or a restart, the card's ETag and its
revalidation across a change, a subscription across instances) at their
recorded offsets and as concurrently as they were sent, with the ids and card
ETags the agent assigns now in place of the recorded ones, and judges the same
invariants over what comes back. A fail without a bundle says why in its
result (report.json "replay").

Each request goes to the URL of its role: "target" (the run's target, or the
harness's load balancer), "instance-K" (an instance the harness pinned it to),
"origin-N" (any other place). A bundle with one role takes --target URL; one
with several takes --target ROLE=URL for each (several roles may share a URL).

A change the spec made to the deployment (the harness's roll, your hook) is a
step of the bundle, performed at its offset by your command for one of the
hook points it accepts (--hook-rollout-step, --hook-rotate-card,
--hook-restart-instance), with the hooks driver's contract (environment
A2A_CONFORM_POINT, _TARGET, _SPEC, _TASK_IDS, …; docs/config-reference.md).

Redacted header values come from --header or $A2A_CONFORM_HEADERS.
Exit 1: the violation reproduced. Exit 0: not this time (a race may need
several tries). Exit 2: usage. Exit 3: the target could not be reached.
Exit 4: cannot reproduce: a step has no command, or its command failed, or
no violation showed and the bundle holds a step of the harness's own stage (its
CDN, its builds) that no command stands for.

Flags:
`

func replayCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("replay", stderr, replayHelp)
	var targetF listFlag
	fs.Var(&targetF, "target", "`[ROLE=]URL`: base URL of the agent for a bundle with one role, or ROLE=URL for each of the bundle's roles; repeatable")
	var headerF listFlag
	fs.Var(&headerF, "header", "'Name: value' for every request (redacted values are filled from it); repeatable")
	hooks := map[string]*string{}
	for _, p := range topology.HookPointNames {
		hooks[p] = fs.String("hook-"+p, "", "shell `COMMAND` (/bin/sh -c) that performs a "+p+" step of the bundle, as for the hooks driver")
	}
	hookTimeout := fs.Duration("hook-timeout", topology.DefaultHookTimeout, "bound on each hook command")
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
	if bundle == "" || len(targetF) == 0 {
		fs.Usage()
		return runner.ExitUsage
	}
	b, err := replay.Read(bundle)
	if err != nil {
		fmt.Fprintf(stderr, "replay: %v\n", err)
		return runner.ExitUsage
	}
	o := replay.Options{Timeout: *timeout, HookTimeout: *hookTimeout, Hooks: map[string]string{}}
	for _, t := range targetF {
		role, u, ok := strings.Cut(t, "=")
		if !ok || strings.Contains(role, "/") {
			if o.Target != "" || len(targetF) > 1 {
				fmt.Fprintf(stderr, "replay: --target %q: give ROLE=URL for each role when there are several (the bundle's roles: %s)\n", t, strings.Join(b.Roles(), ", "))
				return runner.ExitUsage
			}
			o.Target = t
			continue
		}
		if o.Targets == nil {
			o.Targets = map[string]string{}
		}
		if _, dup := o.Targets[role]; dup {
			fmt.Fprintf(stderr, "replay: --target %s given twice\n", role)
			return runner.ExitUsage
		}
		o.Targets[role] = u
	}
	for p, c := range hooks {
		if *c != "" {
			o.Hooks[p] = *c
		}
	}
	c := runner.Config{Headers: headerF}
	if o.Header, err = c.HeaderSet(); err != nil {
		fmt.Fprintf(stderr, "replay: %v\n", err)
		return runner.ExitUsage
	}
	o.HookLog = stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "replaying %s (%s): %d requests, seed %d, recorded by a2a-conform %s against %s\n",
		b.Spec, b.Title, len(b.Requests), b.Seed, b.Harness.Version, b.Target)
	for _, org := range b.Origins {
		fmt.Fprintf(stdout, "  role %s: %d requests recorded to %s", org.Role, org.Requests, org.Recorded)
		if org.Pin != "" {
			fmt.Fprintf(stdout, " pinned to instance %s", org.Pin)
		}
		if len(org.Instances) > 0 {
			fmt.Fprintf(stdout, " (answered by %s)", strings.Join(org.Instances, ", "))
		}
		fmt.Fprintln(stdout)
	}
	for _, st := range b.Steps {
		fmt.Fprintf(stdout, "  step at %+.0fms: %s %s (took %.0fms), accepts %s\n", st.AtMs-b.Requests[0].AtMs, st.Kind, st.Point, st.DurMs, strings.Join(st.Accepts, ", "))
	}
	for _, s := range b.Skipped {
		fmt.Fprintf(stdout, "  left out: %s\n", s)
	}
	res, err := replay.Run(ctx, b, o)
	var cannot *replay.CannotReplay
	if errors.As(err, &cannot) {
		fmt.Fprintf(stdout, "%v\nnothing was judged: this is not \"not reproduced\"\n", err)
		return ExitCannotReplay
	}
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return runner.ExitUsage
	}
	for _, d := range res.Steps {
		fmt.Fprintf(stdout, "  step %s (recorded at %+.0fms) took %s: %s\n", d.Point, d.OffsetMs, d.Took.Round(time.Millisecond), d.Account)
	}
	answered := 0
	for _, s := range res.Sent {
		line := fmt.Sprintf("  #%d +%.0fms %s %s %s", s.Seq, s.OffsetMs, s.Role, s.Method, s.URL)
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
	for _, v := range res.Other {
		fmt.Fprintf(stdout, "  also seen (not what the spec failed on): %s at %s: expected %s, got %s\n", v.Invariant, v.Where, v.Expected, v.Actual)
	}
	if len(res.Violations) == 0 && len(res.LeftOut) > 0 {
		fmt.Fprintf(stdout, "cannot reproduce: no violation of %s in %d answers, but the replay left out %s, the harness's own stage, on which the failure may rest; nothing was judged about it\n",
			strings.Join(judges(b), ", "), answered, strings.Join(res.LeftOut, "; "))
		return ExitCannotReplay
	}
	if len(res.Violations) == 0 && len(res.Unjudged) > 0 {
		names := make([]string, 0, len(res.Unjudged))
		for inv := range res.Unjudged {
			names = append(names, inv)
		}
		sort.Strings(names)
		for _, inv := range names {
			fmt.Fprintf(stdout, "  not judged: %s: %s\n", inv, res.Unjudged[inv])
		}
		if len(names) == len(judges(b)) {
			fmt.Fprintf(stdout, "cannot reproduce: this replay gave nothing to judge %s by; this is not \"not reproduced\"\n", strings.Join(names, ", "))
			return ExitCannotReplay
		}
	}
	if len(res.Violations) == 0 {
		fmt.Fprintf(stdout, "not reproduced this time: no violation of %s in %d answers (a race may need several tries)\n", strings.Join(judges(b), ", "), answered)
		return 0
	}
	fmt.Fprintf(stdout, "reproduced: %d violation(s)\n", len(res.Violations))
	for _, v := range res.Violations {
		fmt.Fprintf(stdout, "  %s at %s: expected %s, got %s\n", v.Invariant, v.Where, v.Expected, v.Actual)
	}
	return runner.ExitFailed
}

// judges names the invariants a replay of b judges.
func judges(b *replay.Bundle) []string {
	if len(b.Judges) > 0 {
		return b.Judges
	}
	return replay.Judged
}

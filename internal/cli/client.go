package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/suites"
)

const clientHelp = `Usage: a2a-conform client --client-cmd 'TEMPLATE' [flags]

Tests a client: for each client case the harness serves a scripted A2A agent on
127.0.0.1 and runs your client driver once (docs/client-driver.md). TEMPLATE is split
into words like a shell would, but run without one; {card}, {case}, {action},
{webhook-listen} and {webhook-url} are substituted, and the same values are in the
driver's environment (A2A_CONFORM_*). Writes DIR/report.json, junit.xml, report.html,
marked as a client run. Exit: 0 no MUST failed · 1 a MUST failed · 2 usage · 3 the
driver's client never reached the scripted agent in any case.

Try it with the reference driver:
  a2a-conform client --client-cmd 'a2a-conform client-driver'

Flags:
`

func clientCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("client", stderr, clientHelp)
	var cc runner.ClientConfig
	var focusF listFlag
	fs.StringVar(&cc.ClientCmd, "client-cmd", "", "the client driver's command template (required)")
	fs.Var(&focusF, "focus", "only these client spec IDs (repeatable, comma-separated)")
	fs.StringVar(&cc.Out, "out", "a2a-conform-report", "directory for report.json, junit.xml, report.html")
	fs.Int64Var(&cc.Seed, "seed", 0, "order seed (default: random, printed)")
	fs.DurationVar(&cc.Timeout, "timeout", 20*time.Second, "each case's budget for the driver; it is killed after")
	fs.IntVar(&cc.Parallel, "parallel", runner.DefaultClientParallel, "cases run at once")
	fs.StringVar(&cc.ImplementationName, "implementation-name", "", "the client's name in the report (default: the command)")
	fs.StringVar(&cc.ImplementationVersion, "implementation-version", "", "the client's version in the report")
	if done, code := parse(fs, args); done {
		return code
	}
	cc.Focus = splitComma(focusF)
	ctx, stop := interruptible()
	defer stop()
	out, err := runner.RunClient(ctx, cc, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "client: %v\n", err)
	}
	if out == nil {
		return runner.ExitUsage
	}
	if out.Report != nil {
		s := out.Report.Summary
		fmt.Fprintf(stdout, "\n%d of %d passed (%.1f%%); %s\n", s.Score.Passed, s.Score.Denominator, s.Score.Percent, verdictCounts(s))
		for _, f := range out.Files {
			fmt.Fprintf(stdout, "wrote %s\n", f)
		}
	}
	return out.Exit
}

const clientDriverHelp = `Usage: a2a-conform client-driver [--fault NAME,…] [--variant NAME,…]

The reference client driver (docs/client-driver.md), built on the harness's own
client: it reads A2A_CONFORM_* from its environment, performs the action, and prints
one JSON result line. --fault switches on client faults, each of which a client spec
must catch; --list-faults lists them. --variant switches on correct variants, each a
client that does one thing differently in a way the spec allows, which no client spec
may fail; --list-variants lists them.

Flags:
`

func clientDriverCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("client-driver", stderr, clientDriverHelp)
	var faultF listFlag
	fs.Var(&faultF, "fault", "client faults to switch on (repeatable, comma-separated)")
	var variantF listFlag
	fs.Var(&variantF, "variant", "correct variants to switch on (repeatable, comma-separated)")
	list := fs.Bool("list-faults", false, "list the client faults and the specs that catch each")
	listVariants := fs.Bool("list-variants", false, "list the correct variants, the specs whose readings each takes, and the non-passes each may get")
	if done, code := parse(fs, args); done {
		return code
	}
	if *list {
		for _, f := range clientdriver.Faults() {
			fmt.Fprintf(stdout, "%-30s %-18v %s\n", f.Name, f.Specs, f.Description)
		}
		return 0
	}
	if *listVariants {
		for _, v := range clientdriver.Variants() {
			fmt.Fprintf(stdout, "%-30s %-24s %s\n", v.Name, strings.Join(v.Specs, ","), v.Description)
			for _, id := range sortedKeys(v.Allowed) {
				fmt.Fprintf(stdout, "%-30s   may warn or be indeterminate on %s: %s\n", "", id, v.Allowed[id])
			}
		}
		return 0
	}
	return clientdriver.Main(clientdriver.Config{Faults: splitComma(faultF), Variants: splitComma(variantF)}, stdout, stderr)
}

var _ = suites.Client

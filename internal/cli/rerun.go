package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
)

const rerunHelp = `Usage: a2a-conform rerun REPORT.json [run flags]

Runs again what the report ran: the same flags (run.args) and the same seed.
Header values are never in a report: give them again in $A2A_CONFORM_HEADERS
(and $A2A_CONFORM_SECOND_HEADERS), or with --header. Flags after the report win
over the report's, e.g. --out DIR, or --focus ID to re-run one spec.
`

// rerunCmd re-runs a report from its own record of the run.
func rerunCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stderr, rerunHelp)
		if len(args) == 0 {
			return runner.ExitUsage
		}
		return 0
	}
	r := verifiedReport("rerun", args[0], "", stderr)
	if r == nil {
		return runner.ExitUsage
	}
	runArgs, note := RerunArgs(r, args[1:])
	if r.Harness.Version != runner.Version() {
		fmt.Fprintf(stdout, "note: the report was written by a2a-conform %s and this is %s: specs and checks may differ\n", r.Harness.Version, runner.Version())
	}
	if note != "" {
		fmt.Fprintf(stdout, "note: %s\n", note)
	}
	fmt.Fprintf(stdout, "a2a-conform %s\n", strings.Join(runArgs, " "))
	return Main(runArgs, stdout, stderr)
}

// RerunArgs is the `run` command line that repeats r: its recorded flags,
// its seed, then extra (which wins). note says what the reader must supply.
func RerunArgs(r *reports.Report, extra []string) ([]string, string) {
	given := map[string]bool{}
	for _, a := range extra {
		if strings.HasPrefix(a, "-") {
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			given[name] = true
		}
	}
	out := []string{"run"}
	for _, a := range r.Run.Args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "seed" || given[name] {
			continue
		}
		out = append(out, a)
	}
	if !given["seed"] {
		out = append(out, "--seed="+strconv.FormatInt(r.Run.Seed, 10))
	}
	out = append(out, extra...)
	note := ""
	if r.Run.HasHeaders {
		note = "the run sent headers of its own, whose values no report holds: set $A2A_CONFORM_HEADERS (and $A2A_CONFORM_SECOND_HEADERS) or give --header"
	}
	return out, note
}

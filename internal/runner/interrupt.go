package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Interrupted is the cause a run's context carries when a signal stopped
// the run (the CLI cancels with it). The run then still writes its reports,
// marked interrupted, and exits 128 + the signal's number, as a shell does:
// 130 for SIGINT (Ctrl-C), 143 for SIGTERM (a CI job cancelled).
type Interrupted struct{ Signal os.Signal }

func (i Interrupted) Error() string { return "interrupted by " + i.Name() }

// Name is the signal's conventional name, as the report records it.
func (i Interrupted) Name() string {
	switch i.Signal {
	case os.Interrupt, syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return i.Signal.String()
}

// Exit is the exit code of a run the signal stopped.
func (i Interrupted) Exit() int {
	if s, ok := i.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// InterruptedBy reports whether ctx was cancelled by a signal.
func InterruptedBy(ctx context.Context) (Interrupted, bool) {
	var in Interrupted
	if ctx.Err() == nil {
		return in, false
	}
	ok := errors.As(context.Cause(ctx), &in)
	return in, ok
}

// collectResults is the run's results, one per selected spec (withMissing),
// agent and client runs alike. When a signal stopped the run, the report is
// marked interrupted and says so (verify, the scorecard and the HTML then
// show it as partial), and the specs it never reached are could-not-run;
// otherwise a spec without a result is a harness defect, indeterminate.
func collectResults(report *reports.Report, selected []suites.Info, in Interrupted, interrupted bool, start time.Time, stdout io.Writer) []reports.Result {
	if !interrupted {
		return withMissing(suites.Results(), selected, reports.Indeterminate,
			"harness defect: the spec is registered but has no body in this build, so nothing was checked")
	}
	report.Run.Interrupted = in.Name()
	note := fmt.Sprintf("interrupted: %s stopped the run after %s; the specs it cut short are indeterminate and those it never reached could-not-run, so this report is partial",
		in.Name(), time.Since(start).Round(time.Second))
	report.Run.Notes = append(report.Run.Notes, note)
	fmt.Fprintf(stdout, "note: %s\n", note)
	return withMissing(suites.Results(), selected, reports.CouldNotRun,
		"the run was interrupted ("+in.Name()+") before this spec ran, so nothing was checked")
}

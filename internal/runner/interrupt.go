package runner

import (
	"context"
	"errors"
	"os"
	"syscall"
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

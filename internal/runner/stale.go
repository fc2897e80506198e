package runner

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// removeStaleLogs deletes the agent and hook logs an earlier run left in
// the report directory. The drivers create them afresh when they start, but
// a run that starts none (--target, or the embedded agent) left an earlier
// run's agent.log beside its own report, for a reader to take as this run's.
func removeStaleLogs(out string) error {
	if out == "" {
		return nil
	}
	var errs []error
	for _, name := range []string{AgentLog, HookLog} {
		if err := os.Remove(filepath.Join(out, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

//go:build unix

package topology

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// A group that exits at once on SIGTERM was not killed, even when what runs
// during the drain outlasts the grace: stopGroupWhile must not report (and
// the driver log) a SIGKILL that was not needed.
func TestStopGroupWhileSlowDuringNeedsNoKill(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start sleep: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	killed := stopGroupWhile(cmd.Process.Pid, exited, 50*time.Millisecond, func() { time.Sleep(300 * time.Millisecond) })
	if killed {
		t.Fatal("stopGroupWhile reported a SIGKILL for a group that had exited on SIGTERM while during ran")
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signal() != syscall.SIGTERM {
		t.Errorf("sleep ended by %v, want SIGTERM", ws.Signal())
	}
}

//go:build unix

package clientrun

import (
	"os/exec"
	"syscall"
)

// ownGroup makes the driver the leader of a new process group, so that the
// harness can kill everything it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup SIGKILLs every process of the group.
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

// groupAlive reports whether a process of the group still exists (zombies
// included; a killed group's zombies are reaped by their parent).
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }

//go:build unix

package topology

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// ownGroup makes the instance the leader of a new process group, so that
// signalling the group reaches every process its command line started, and
// makes the leader die with the harness where the kernel can (dieWithHarness).
func ownGroup(cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithHarness(cmd.SysProcAttr)
	return nil
}

// signalGroup sends SIGTERM (or SIGKILL) to every process of the group.
func signalGroup(pgid int, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-pgid, sig)
}

// groupAlive reports whether a process of the group is still running.
// Zombies do not count: orphaned members are reaped by PID 1, which in a
// container may never do it, and a zombie holds no port or file. Where /proc
// is absent, kill(-pgid, 0) answers (and counts zombies).
func groupAlive(pgid int) bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces and parens.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid && f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return false
}

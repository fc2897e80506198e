//go:build linux

package topology

import "syscall"

// dieWithHarness asks Linux to SIGKILL the process started with attr when
// the harness dies, however it dies (even SIGKILL, which no cleanup code
// survives), so that a killed harness does not leave an agent holding its
// port and store. It reaches the group's leader: the agent itself when the
// command is one simple command (sh -c execs it) or ends in exec. Other
// members of the group are stopped by the harness's own cleanup, which runs
// on every exit but SIGKILL.
func dieWithHarness(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

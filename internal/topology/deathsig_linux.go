//go:build linux

package topology

import "syscall"

// dieWithHarness asks Linux to SIGKILL the process started with attr when
// the harness dies, however it dies (even SIGKILL, which no cleanup code
// survives), so that a killed harness does not leave an agent holding its
// port and store. It reaches the group's leader only: the agent itself when
// the shell execs the command (some do for one simple command; Debian's
// dash does not) or the command ends in exec. Other members of the group
// are stopped by the harness's own cleanup, which runs on every exit but
// SIGKILL; after SIGKILL they can watch HarnessPIDEnv, as the reference
// agent does.
func dieWithHarness(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

//go:build linux

package topology_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/topology"
)

// harnessEnv makes this test binary a harness that starts one agent through
// the process driver, says so, and then waits to be killed.
const harnessEnv = "TOPOLOGY_TEST_HARNESS_DIR"

func init() {
	dir := os.Getenv(harnessEnv)
	if dir == "" {
		return
	}
	os.Unsetenv(harnessEnv) // the agent is not a harness
	cmd := fmt.Sprintf("echo $$ > %s/agent.pid; %s=1 exec %s {port}", dir, helperEnv, os.Args[0])
	if _, err := topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: cmd, Dir: dir}); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("started")
	select {}
}

// A harness killed with SIGKILL runs no cleanup; its agent must not outlive
// it, holding its port and store (Linux: the parent-death signal).
func TestAgentDiesWithAKilledHarness(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := exec.Command(os.Args[0])
	h.Env = append(os.Environ(), harnessEnv+"="+dir)
	out, err := h.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "started" {
		_ = h.Process.Kill()
		t.Fatalf("the harness did not start its agent: %q", line)
	}
	if _, err := os.Stat(filepath.Join(dir, "agent.pid")); err != nil {
		t.Fatal(err)
	}
	_ = h.Process.Signal(syscall.SIGKILL)
	_ = h.Wait()
	if !gone(t, filepath.Join(dir, "agent.pid")) {
		t.Fatal("the agent outlived the harness that was killed")
	}
}

package cli

import (
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/internal/topology"
)

// A fake started by the process driver stops once the harness that started
// it is gone: a shell that does not exec its command leaves the fake out of
// the kernel's reach when the harness is killed with SIGKILL. Here a sleep
// stands for the harness.
func TestFakeStopsWhenItsHarnessIsGone(t *testing.T) {
	t.Parallel()
	harness := exec.Command("sleep", "600")
	if err := harness.Start(); err != nil {
		t.Fatal(err)
	}
	defer harness.Process.Kill()
	addr := testkit.FreeAddr(t)
	fake := exec.Command(os.Args[0], "fake", "--listen", addr, "--grpc-listen", "off")
	fake.Env = append(os.Environ(), topology.HarnessPIDEnv+"="+strconv.Itoa(harness.Process.Pid))
	if err := fake.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- fake.Wait() }()
	defer fake.Process.Kill()
	hc := &http.Client{Timeout: 5 * time.Second}
	serving := func() bool {
		resp, err := hc.Get("http://" + addr + "/.well-known/agent-card.json")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	for deadline := time.Now().Add(30 * time.Second); !serving(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the fake never served its card")
		}
	}
	// While the harness runs, the fake serves on (it checks every second).
	time.Sleep(2500 * time.Millisecond)
	select {
	case err := <-exited:
		t.Fatalf("the fake exited while its harness ran: %v", err)
	default:
	}
	if !serving() {
		t.Fatal("the fake stopped serving while its harness ran")
	}
	_ = harness.Process.Kill()
	_ = harness.Wait()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the fake exited with %v, want 0 (a shutdown as on SIGTERM)", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the fake still runs 30 s after its harness is gone")
	}
}

package cli

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/replay"
)

func serveFake(t *testing.T, faults ...string) string {
	t.Helper()
	a, err := fakes.New(fakes.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = a.Shutdown(ctx)
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL
}

// A cancel-then-complete failure is reproduced from its bundle alone
// against another agent with the bug, and not against a correct one.
func TestReplayBundleReproducesTheFailure(t *testing.T) {
	out := t.TempDir()
	cmd := exec.Command(os.Args[0], "run", "--fault", "cancel-then-complete", "--focus", "LIFE-011", "--out", out)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	if b, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("the faulty run passed:\n%s", b)
	}
	b, err := replay.Read(filepath.Join(out, "replay", "LIFE-011.json"))
	if err != nil {
		t.Fatalf("no bundle: %v", err)
	}
	ctx := context.Background()
	bad, err := replay.Run(ctx, b, replay.Options{Target: serveFake(t, "cancel-then-complete")})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad.Violations) == 0 {
		t.Errorf("the bug was not reproduced against an agent that has it (%d requests sent)", len(bad.Sent))
	}
	good, err := replay.Run(ctx, b, replay.Options{Target: serveFake(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range good.Violations {
		t.Errorf("a correct agent violated %s at %s: %s", v.Invariant, v.Where, v.Actual)
	}
	if len(good.Tasks) == 0 {
		t.Error("no recorded task id was mapped to a replayed one")
	}
}

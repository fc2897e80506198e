//go:build unix

package topology_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/topology"
)

// cardServer is the deployment behind --target: it answers the card with
// status() (200 unless a test says otherwise).
func cardServer(t *testing.T, status func() int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code := http.StatusOK
		if status != nil {
			code = status()
		}
		w.WriteHeader(code)
		w.Write([]byte(`{"name":"staging"}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func newHooks(t *testing.T, o topology.HooksOptions) *topology.Hooks {
	t.Helper()
	if o.Target == "" {
		o.Target = cardServer(t, nil)
	}
	h, err := topology.NewHooks(o)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// The command gets the point, target, generation, spec, task ids and
// instance in its environment, besides the harness's own; a successful
// rotate-card or rollout-step advances the generation, restart-instance
// keeps it.
func TestHookGetsItsEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOOK_TEST_INHERITED", "kept")
	dump := `printf '%s|%s|%s|%s|%s|%s|%s\n' "$A2A_CONFORM_POINT" "$A2A_CONFORM_TARGET" "$A2A_CONFORM_GENERATION" "$A2A_CONFORM_SPEC" "$A2A_CONFORM_TASK_IDS" "$A2A_CONFORM_INSTANCE" "$HOOK_TEST_INHERITED" >> ` + filepath.Join(dir, "env")
	target := cardServer(t, nil)
	var log syncBuffer
	h := newHooks(t, topology.HooksOptions{Target: target, Log: &log, Commands: map[string]string{
		topology.HookRotateCard: dump + "; echo rotated", topology.HookRestartInstance: dump, topology.HookRolloutStep: dump,
	}})
	if got := strings.Join(h.HookPoints(), ","); got != "rotate-card,restart-instance,rollout-step" {
		t.Errorf("HookPoints %s", got)
	}
	ctx := context.Background()
	steps := []struct {
		point    string
		ids      []string
		instance string
		gen      int
	}{
		{topology.HookRotateCard, nil, "", 2},
		{topology.HookRestartInstance, []string{"t-1", "t,2", "t 3", "t-1", "t-4"}, "pod-a", 2},
		{topology.HookRolloutStep, []string{"t-5"}, "bad\x01name", 3},
	}
	for _, s := range steps {
		gen, account, err := h.RunHook(ctx, s.point, "ROLL-002", s.ids, s.instance)
		if err != nil {
			t.Fatalf("%s: %v", s.point, err)
		}
		if gen != s.gen || h.Generation() != s.gen {
			t.Errorf("%s: generation %d (driver says %d), want %d", s.point, gen, h.Generation(), s.gen)
		}
		if !strings.Contains(account, "exit status 0") {
			t.Errorf("%s: account %q", s.point, account)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "env"))
	if err != nil {
		t.Fatal(err)
	}
	want := "rotate-card|" + target + "|2|ROLL-002|||kept\n" +
		"restart-instance|" + target + "|2|ROLL-002|t-1,t-4|pod-a|kept\n" +
		"rollout-step|" + target + "|3|ROLL-002|t-5||kept\n"
	if string(b) != want {
		t.Errorf("environment seen by the hooks:\n%s\nwant:\n%s", b, want)
	}
	if !strings.Contains(log.String(), "[hook rotate-card] rotated") || !strings.Contains(log.String(), "hook rotate-card #1 for ROLL-002") {
		t.Errorf("the hook log lacks the command's output or its start:\n%s", log.String())
	}
}

// A command that exits non-zero is a *HookError carrying its exit status
// and the tail of its output; the generation does not advance.
func TestHookThatFailsIsAnErrorWithItsOutput(t *testing.T) {
	t.Parallel()
	h := newHooks(t, topology.HooksOptions{Commands: map[string]string{
		topology.HookRotateCard: "echo 'error: deployment not found'; echo second line >&2; exit 3",
	}})
	gen, account, err := h.RunHook(context.Background(), topology.HookRotateCard, "ROLL-001", nil, "")
	var he *topology.HookError
	if !errors.As(err, &he) {
		t.Fatalf("want a *HookError, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"hook rotate-card", "exit status 3", "| error: deployment not found", "| second line"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error lacks %q:\n%s", want, msg)
		}
	}
	if gen != 1 || h.Generation() != 1 {
		t.Errorf("a failed hook advanced the generation to %d/%d", gen, h.Generation())
	}
	if !strings.Contains(account, "exit status 3") {
		t.Errorf("account %q", account)
	}
}

// alive reports whether pid is a running process (a zombie is not: it may
// never be reaped where PID 1 does not reap).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if os.IsNotExist(err) {
			return false
		}
		return syscall.Kill(pid, 0) == nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// A command that outlives its timeout has its whole process group killed,
// what it started in the background too, and one that ignores SIGTERM gets
// SIGKILL after the grace.
func TestHookTimeoutKillsTheProcessGroup(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, script string
		killed       bool
	}{
		{"leaves on SIGTERM", "sleep 60 & echo $! > %s; echo started; wait", false},
		{"ignores SIGTERM", "trap '' TERM; sleep 60 & echo $! > %s; echo started; wait; wait", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			h := newHooks(t, topology.HooksOptions{Timeout: 300 * time.Millisecond, StopGrace: 500 * time.Millisecond,
				Commands: map[string]string{topology.HookRolloutStep: strings.Replace(c.script, "%s", pidFile, 1)}})
			began := time.Now()
			_, _, err := h.RunHook(context.Background(), topology.HookRolloutStep, "ROLL-008", nil, "")
			took := time.Since(began)
			if err == nil || !strings.Contains(err.Error(), "timed out after 300ms") || !strings.Contains(err.Error(), "| started") {
				t.Fatalf("want a timeout quoting the output, got %v", err)
			}
			if c.killed != strings.Contains(err.Error(), "SIGKILL") {
				t.Errorf("SIGKILL said %v, want %v: %v", !c.killed, c.killed, err)
			}
			if took > 5*time.Second {
				t.Errorf("the hook took %s to end after a 300ms timeout", took)
			}
			b, rerr := os.ReadFile(pidFile)
			if rerr != nil {
				t.Fatal(rerr)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			deadline := time.Now().Add(2 * time.Second)
			for alive(pid) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the background process %d the hook started outlived its timeout", pid)
			}
		})
	}
}

// The spec's context ending stops the hook as its timeout would.
func TestHookStopsWithTheSpec(t *testing.T) {
	t.Parallel()
	h := newHooks(t, topology.HooksOptions{Commands: map[string]string{topology.HookRotateCard: "sleep 60"}})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	began := time.Now()
	_, _, err := h.RunHook(ctx, topology.HookRotateCard, "ROLL-001", nil, "")
	if err == nil || !strings.Contains(err.Error(), "the spec's time ran out") || time.Since(began) > 5*time.Second {
		t.Fatalf("after %s: %v", time.Since(began), err)
	}
}

// Output is bounded: a hook that writes megabytes in long lines is read to
// its end, the log and the quoted tail stay small, and each quoted line is
// cut.
func TestHookOutputIsBounded(t *testing.T) {
	t.Parallel()
	var log syncBuffer
	h := newHooks(t, topology.HooksOptions{Log: &log, Commands: map[string]string{
		// 200 lines of 20 KiB each, and a last line without a newline.
		topology.HookRotateCard: `i=0; line=$(head -c 20480 /dev/zero | tr '\0' x); while [ $i -lt 200 ]; do echo "$line"; i=$((i+1)); done; printf last; exit 1`,
	}})
	_, _, err := h.RunHook(context.Background(), topology.HookRotateCard, "ROLL-001", nil, "")
	if err == nil {
		t.Fatal("want an error")
	}
	msg := err.Error()
	if len(msg) > (topology.TailLines+2)*1200 {
		t.Errorf("the error is %d bytes long", len(msg))
	}
	if !strings.Contains(msg, "…[line truncated]") || !strings.HasSuffix(msg, "| last") {
		t.Errorf("the tail is not cut per line, or lacks the last line: …%s", msg[max(0, len(msg)-300):])
	}
	if n := strings.Count(msg, "\n  | "); n != topology.TailLines {
		t.Errorf("%d lines quoted, want %d", n, topology.TailLines)
	}
	if n := len(log.String()); n > 300*1100 {
		t.Errorf("the hook log holds %d bytes for 200 lines", n)
	}
}

// After the command returns, the harness waits until the target serves its
// card; a target that keeps answering 503 makes the hook an error that
// says so.
func TestHookWaitsForTheTarget(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	starting := cardServer(t, func() int {
		if n.Add(1) <= 3 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	h := newHooks(t, topology.HooksOptions{Target: starting, Commands: map[string]string{topology.HookRestartInstance: "true"}})
	if _, account, err := h.RunHook(context.Background(), topology.HookRestartInstance, "ROLL-002", nil, ""); err != nil || n.Load() < 4 {
		t.Fatalf("after %d card requests: %v (%s)", n.Load(), err, account)
	}

	down := cardServer(t, func() int { return http.StatusBadGateway })
	h = newHooks(t, topology.HooksOptions{Target: down, ReadyTimeout: 2 * time.Second, Commands: map[string]string{topology.HookRotateCard: "echo applied"}})
	_, _, err := h.RunHook(context.Background(), topology.HookRotateCard, "ROLL-001", nil, "")
	if err == nil || !strings.Contains(err.Error(), "did not serve its card within 2s") || !strings.Contains(err.Error(), "502") ||
		!strings.Contains(err.Error(), "exit status 0") || !strings.Contains(err.Error(), "| applied") {
		t.Fatalf("got %v", err)
	}
	if h.Generation() != 1 {
		t.Errorf("generation %d after a hook whose target did not come back", h.Generation())
	}
}

// A point without a command, an unknown point, and no command at all.
func TestHooksRefuseWhatIsNotConfigured(t *testing.T) {
	t.Parallel()
	h := newHooks(t, topology.HooksOptions{Commands: map[string]string{topology.HookRotateCard: "true", topology.HookRolloutStep: "  "}})
	if got := strings.Join(h.HookPoints(), ","); got != "rotate-card" {
		t.Errorf("HookPoints %q: a blank command is no command", got)
	}
	if _, _, err := h.RunHook(context.Background(), topology.HookRolloutStep, "ROLL-008", nil, ""); err == nil || !strings.Contains(err.Error(), "no command for hook rollout-step") {
		t.Errorf("got %v", err)
	}
	if _, err := topology.NewHooks(topology.HooksOptions{Target: "http://127.0.0.1:1", Commands: map[string]string{"rotate": "true"}}); err == nil {
		t.Error("an unknown hook point was accepted")
	}
	if _, err := topology.NewHooks(topology.HooksOptions{Target: "http://127.0.0.1:1"}); err == nil {
		t.Error("a hooks driver without commands was accepted")
	}
}

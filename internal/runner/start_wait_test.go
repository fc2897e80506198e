//go:build unix

package runner_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
)

// --wait-ready: a target that refuses connections and then answers 503
// while it comes up is waited for, within the bound, and the wait is in the
// run notes; a target that never comes up is unreachable at the bound.
func TestWaitReadyWaitsForATargetComingUp(t *testing.T) {
	t.Parallel()
	addr := testkit.FreeAddr(t) // refused until the agent starts
	agent, err := fakes.New(fakes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = agent.Shutdown(context.Background()) })
	var starting atomic.Int32
	starting.Store(3)
	go func() {
		time.Sleep(time.Second)
		l, err := net.Listen("tcp", addr)
		if err != nil {
			return // the port was taken meanwhile: the run below says so
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "agent-card.json") && starting.Add(-1) >= 0 {
				http.Error(w, "starting", http.StatusServiceUnavailable)
				return
			}
			agent.ServeHTTP(w, r)
		})}
		t.Cleanup(func() { srv.Close() })
		_ = srv.Serve(l)
	}()
	r := runCLI(t, nil, "--target", "http://"+addr, "--wait-ready", "1m", "--focus", "DISC-001", "--seed", "1")
	if r.exit != 0 || r.report == nil {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
	}
	if v := verdicts(r.report)["DISC-001"]; v != reports.Pass {
		t.Errorf("DISC-001 %s", v)
	}
	if !hasNote(r.report, "start: waited ", "bound --wait-ready 1m0s): it served its card") {
		t.Errorf("the wait is not in the run notes: %q", r.report.Run.Notes)
	}

	dead := runCLI(t, nil, "--target", "http://"+testkit.FreeAddr(t), "--wait-ready", "1s", "--focus", "DISC-001")
	if dead.exit != 3 || dead.report == nil || !dead.report.Run.Unreachable {
		t.Fatalf("a target that never came up: exit %d\n%s%s", dead.exit, dead.stdout, dead.stderr)
	}
	if !hasNote(dead.report, "bound --wait-ready 1s): it still refused") {
		t.Errorf("the bound is not in the run notes: %q", dead.report.Run.Notes)
	}
}

// --start-timeout bounds an --agent-cmd instance's start, and the report
// says how long the start took against which bound.
func TestStartTimeoutBoundsTheAgentsStart(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--agent-cmd", "exec sleep 100", "--start-timeout", "1s", "--focus", "DISC-001")
	if r.exit != 3 || r.report == nil {
		t.Fatalf("exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	if res := r.report.Results[0]; res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, "did not serve its card within 1s") {
		t.Errorf("%s: %s", res.Verdict, res.Reason)
	}
	ok := runCLI(t, nil, "--agent-cmd", referenceAgentCmd(""), "--start-timeout", "45s", "--focus", "DISC-001", "--header", "Authorization: Bearer x")
	if ok.exit != 0 || ok.report == nil {
		t.Fatalf("exit %d\n%s%s", ok.exit, ok.stdout, ok.stderr)
	}
	if !hasNote(ok.report, "start: the 1 --agent-cmd instance(s) served their card ", "(bound --start-timeout 45s") {
		t.Errorf("the start is not in the run notes: %q", ok.report.Run.Notes)
	}
}

func hasNote(r *reports.Report, parts ...string) bool {
	for _, n := range r.Run.Notes {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(n, p)
		}
		if all {
			return true
		}
	}
	return false
}

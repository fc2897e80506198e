package runner_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Variants of the reference agent: correct agents that read the spec another
// allowed way, or run at another pace, than the default reference agent. A
// spec that fails one of them fails a correct agent (issue 8). Each is served
// in this process on loopback and the CLI child runs against it as --target.

// startVariant serves the reference agent with opts on 127.0.0.1 and returns
// its base URL; it stops with the test.
func startVariant(t *testing.T, opts fakes.Options) string {
	t.Helper()
	return serveVariant(t, opts, nil)
}

// serveVariant is startVariant with the agent served through wrap (when
// not nil), a handler of the test's own in front of it.
func serveVariant(t *testing.T, opts fakes.Options, wrap func(*fakes.Agent) http.Handler) string {
	t.Helper()
	if opts.Name == "" {
		opts.Name = "variant"
	}
	a, err := fakes.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = a
	if wrap != nil {
		h = wrap(a)
	}
	srv := httptest.NewServer(h)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.Start(ctx); err != nil {
		srv.Close()
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

// runVariant runs the CLI against a variant of the reference agent.
//
// The variant is given an SSRF allow-list naming the run's receiver, which
// listens on a loopback port chosen here, as a deployment would allow the
// harness's --webhook-url: every other internal webhook is refused (PUSH-010).
//
// The receiver's port is picked free, then closed and given to the run:
// another test may take it in between, and then the run is tried again on
// another port (at most three times), as the port race is the test's, not
// the harness's.
func runVariant(t *testing.T, opts fakes.Options, args ...string) cliRun {
	t.Helper()
	allow := opts.WebhookAllow
	var r cliRun
	for try := 0; try < 3; try++ {
		hook := testkit.FreeAddr(t)
		opts.WebhookAllow = allow
		if allow == nil {
			opts.WebhookAllow = []string{"http://" + hook + "/hook/"}
		}
		url := startVariant(t, opts)
		r = runCLI(t, nil, append([]string{"--target", url, "--webhook-listen", hook}, args...)...)
		if r.report != nil || !strings.Contains(r.stderr, "address already in use") {
			return r
		}
	}
	return r
}

// restartUnavailable reports a could-not-run that only says the run could
// not restart the agent: a --target run has no driver that can (PUSH-009).
func restartUnavailable(res reports.Result) bool {
	return res.Verdict == reports.CouldNotRun && strings.Contains(res.Reason, "cannot restart the agent")
}

// result returns the result of one spec, failing the test when it is missing.
func result(t *testing.T, r cliRun, id string) reports.Result {
	t.Helper()
	if r.report == nil {
		t.Fatalf("no report (exit %d)\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
	}
	for _, res := range r.report.Results {
		if res.ID == id {
			return res
		}
	}
	t.Fatalf("no result for %s\nstdout:\n%s", id, r.stdout)
	return reports.Result{}
}

// An agent that purges a task once it is canceled answers a second cancel
// with TaskNotFoundError, which A2A v1.0.1 §3.3.1 allows: LIFE-013 passes
// it and records the reading.
func TestSecondCancelOfAPurgedTaskIsAReading(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{PurgedOnSecondCancel: true}, "--focus", "LIFE-013", "--seed", "4")
	res := result(t, r, "LIFE-013")
	if res.Verdict != reports.Pass {
		t.Fatalf("LIFE-013: %s (%s), want pass", res.Verdict, res.Reason)
	}
	seen := false
	for k, v := range res.Observations {
		seen = seen || strings.HasPrefix(k, "second-cancel-") && strings.Contains(v, "purged")
	}
	if !seen {
		t.Errorf("LIFE-013 did not record the purged reading: %v", res.Observations)
	}
}

// An agent that serves one stream per task refuses a second stream of a
// working task, which A2A v1.0.1 §3.5.2 allows (it MAY serve several):
// LIFE-017 has no concurrent streams to compare and is not applicable,
// never failed; the other stream specs still pass.
func TestOneStreamPerTaskIsAReading(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{OneStreamPerTask: true}, "--focus", "LIFE-015,LIFE-017", "--seed", "4")
	res := result(t, r, "LIFE-017")
	if res.Verdict != reports.NotApplicable || !strings.Contains(res.Observations["second-stream"], "refused while stream A was open") {
		t.Fatalf("LIFE-017: %s (%s) %v, want not-applicable with the refusal recorded", res.Verdict, res.Reason, res.Observations)
	}
	if s := result(t, r, "LIFE-015"); s.Verdict != reports.Pass {
		t.Errorf("LIFE-015: %s (%s)", s.Verdict, s.Reason)
	}
}

// An agent that answers a repeated delete of a push config with "not
// found" (TaskNotFoundError, HTTP 404), as HTTP DELETE conventionally does,
// gives the repeated delete the same effect as the first, which is what
// A2A v1.0.1 §3.1.10 asks: PUSH-001 passes it and records the reading.
func TestRepeatedDeleteAnsweredNotFoundIsAReading(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{DeleteGoneNotFound: true}, "--focus", "PUSH-001", "--seed", "5")
	res := result(t, r, "PUSH-001")
	if res.Verdict != reports.Pass || !strings.Contains(res.Observations["second-delete"], "not there") {
		t.Fatalf("PUSH-001: %s (%s) %v, want pass with the reading recorded", res.Verdict, res.Reason, res.Observations)
	}
}

// An agent whose cancel is asynchronous answers CancelTask with the task
// still working and applies the cancel later, unless the task ended first:
// A2A v1.0.1 §3.1.5 allows both ends. One rule reads the answer in every
// spec (suites.CancelAnswerOf): LIFE-012 and LIFE-013 pass it, LIFE-012
// recording the asynchronous reading, and neither calls the task that
// completed before the cancel took effect a cancel that did not stick.
func TestAsynchronousCancelIsAReading(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{AsyncCancel: 300 * time.Millisecond}, "--focus", "LIFE-012,LIFE-013", "--seed", "4")
	for _, id := range []string{"LIFE-012", "LIFE-013"} {
		if res := result(t, r, id); res.Verdict != reports.Pass {
			t.Errorf("%s: %s (%s), want pass", id, res.Verdict, res.Reason)
		}
	}
	res := result(t, r, "LIFE-012")
	seen := false
	for k, v := range res.Observations {
		seen = seen || strings.HasPrefix(k, "cancel-answer-") && strings.Contains(v, "asynchronous cancel")
	}
	if !seen {
		t.Errorf("LIFE-012 did not record the asynchronous reading: %v", res.Observations)
	}
}

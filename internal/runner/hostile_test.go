package runner_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/reports"
)

// What a report must say about each hostile behaviour, in some spec's
// reason or in a run note: the problem named, not just "failed".
var hostileNamed = map[string]string{
	"invalid-json":       "not valid JSON",
	"truncated":          "body truncated",
	"huge-body":          "exceeded 8 MiB",
	"endless-stream":     "not complete after",
	"drip":               "not complete after",
	"wrong-content-type": "Content-Type",
	"redirect":           "not followed",
	"invalid-utf8":       "invalid UTF-8",
	"deep-nesting":       "nested deeper than",
	"huge-numbers":       "IEEE 754",
	"duplicate-keys":     "duplicate member name",
	"reset":              "connection reset",
	"big-headers":        "response headers exceeded",
	"all":                "transport level",
}

// cardSpecs are judged from the card, its headers and its key set alone,
// which the hostile agent serves clean outside "all" mode (and, in it, on
// the requests the rotation leaves clean).
var cardSpecs = map[string]bool{"DISC-003": true, "DISC-004": true, "DISC-005": true, "DISC-017": true}

// startHostile serves the hostile agent on loopback, with its redirect
// target (a second loopback origin) counting the requests it gets.
func startHostile(t *testing.T, mode string) (url string, redirected *atomic.Int64) {
	t.Helper()
	redirected = new(atomic.Int64)
	var agent http.Handler
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		redirected.Add(1)
		agent.ServeHTTP(w, r)
	}))
	h, err := fakes.NewHostile(mode, other.URL)
	if err != nil {
		t.Fatal(err)
	}
	agent = h.Agent()
	srv := httptest.NewServer(h)
	ctx, cancel := context.WithCancel(context.Background())
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		other.Close()
		cancel()
		h.Shutdown(context.Background())
	})
	return srv.URL, redirected
}

// Every hostile behaviour, alone and all in turn: the run ends (bounded by
// the bounds it tests), with a report whose reasons name the problem, and
// nothing passes that needed a sound answer. The request timeout is cut to
// keep the test short; the default-flag figures are scripts/bench-hostile.sh's.
func TestHostileAgentEveryBehaviour(t *testing.T) {
	for _, mode := range fakes.HostileBehaviours() {
		mode := mode
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			url, redirected := startHostile(t, mode)
			r := runCLI(t, nil, "--target", url, "--seed", "9", "--race-trials", "5",
				"--request-timeout", "2s", "--patience", "2s")
			if r.report == nil {
				t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
			}
			if r.exit != 1 && r.exit != 3 {
				t.Errorf("exit %d, want 1 or 3\n%s", r.exit, r.stdout)
			}
			if strings.Contains(r.stderr+r.stdout, "panic") {
				t.Errorf("a panic surfaced:\n%s\n%s", r.stdout, r.stderr)
			}
			said := strings.Join(r.report.Run.Notes, "\n")
			for _, res := range r.report.Results {
				if !res.Verdict.Known() {
					t.Errorf("%s: unknown verdict %q", res.ID, res.Verdict)
				}
				if res.Verdict != reports.Pass && strings.TrimSpace(res.Reason) == "" {
					t.Errorf("%s: %s without a reason", res.ID, res.Verdict)
				}
				// The card is served clean, so only the specs about the card
				// alone may pass. In "all" mode the behaviours rotate per
				// request: a card fetch may still get a clean answer or clean
				// headers (which spec gets one depends on the concurrent
				// order), and a card spec judging what it got may pass.
				if res.Verdict == reports.Pass && !cardOnly[res.ID] && !cardSpecs[res.ID] {
					t.Errorf("%s passed against the hostile agent (%s)", res.ID, mode)
				}
				if strings.Contains(res.Reason, "harness error (panic)") {
					t.Errorf("%s: the harness panicked: %s", res.ID, res.Reason)
				}
				said += "\n" + res.Reason
			}
			if want := hostileNamed[mode]; !strings.Contains(said, want) {
				t.Errorf("no reason or note says %q:\n%s", want, r.stdout)
			}
			if n := redirected.Load(); n != 0 && mode == "redirect" {
				t.Errorf("the harness followed %d redirect(s) to another origin", n)
			}
			if _, problems, err := reports.VerifyFile(filepath.Join(r.out, "report.json")); err != nil || len(problems) > 0 {
				t.Errorf("report does not verify: %v %v", err, problems)
			}
			if mode == "big-headers" || mode == "huge-body" {
				st, _ := os.Stat(filepath.Join(r.out, "report.json"))
				if st != nil && st.Size() > 64<<20 {
					t.Errorf("report.json is %d bytes: hostile bytes reached it uncapped", st.Size())
				}
			}
		})
	}
}

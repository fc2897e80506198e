package discovery_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/cli"
	"github.com/a2a-conform/a2a-conform/reports"
)

// The runner's self-tests prove each spec on the embedded agent's defaults
// and its faults. These prove the other branches: capabilities withdrawn, a
// required extension, the extended card with credentials. Each run is this
// test binary re-executed as the CLI (Ginkgo runs once per process) against
// a reference agent configured here, on loopback.

const cliEnv = "A2A_CONFORM_DISCOVERY_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// agent serves a reference agent with the given options until the test ends.
func agent(t *testing.T, o fakes.Options) string {
	t.Helper()
	return agentBehind(t, o, func(a *fakes.Agent) http.Handler { return a })
}

// agentBehind serves a reference agent behind the handler wrap makes of it
// until the test ends.
func agentBehind(t *testing.T, o fakes.Options, wrap func(*fakes.Agent) http.Handler) string {
	t.Helper()
	a, err := fakes.New(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(wrap(a))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a.Shutdown(ctx)
		srv.Close()
	})
	return srv.URL
}

// run runs the focused specs against target and returns each result.
func run(t *testing.T, target, focus string, extra ...string) map[string]reports.Result {
	t.Helper()
	out := t.TempDir()
	args := append([]string{"run", "--target", target, "--focus", focus, "--out", out, "--seed", "7"}, extra...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	var so bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &so
	_ = cmd.Run() // the exit code is judged through the verdicts
	rep, err := reports.ReadJSON(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatalf("no report: %v\n%s", err, so.String())
	}
	res := map[string]reports.Result{}
	for _, r := range rep.Results {
		res[r.ID] = r
	}
	return res
}

func expect(t *testing.T, res map[string]reports.Result, id string, want reports.Verdict, observed ...string) {
	t.Helper()
	r, ok := res[id]
	if !ok {
		t.Fatalf("%s did not run", id)
	}
	if r.Verdict != want {
		t.Errorf("%s: %s (%s), want %s", id, r.Verdict, r.Reason, want)
	}
	var obs []string
	for k, v := range r.Observations {
		obs = append(obs, k+"="+v)
	}
	all := strings.Join(obs, "\n")
	for _, o := range observed {
		if !strings.Contains(all, o) {
			t.Errorf("%s: no observation containing %q in\n%s", id, o, all)
		}
	}
}

// Capabilities the card does not claim must be refused, and that passes.
func TestCapabilitiesWithdrawnAreRefused(t *testing.T) {
	url := agent(t, fakes.Options{DisableStreaming: true, DisablePush: true, ExtendedCard: fakes.ExtendedCardAbsent})
	res := run(t, url, "DISC-013,DISC-014,DISC-015")
	expect(t, res, "DISC-013", reports.Pass, "streaming-advertised=false")
	expect(t, res, "DISC-014", reports.Pass, "push-advertised=false")
	expect(t, res, "DISC-015", reports.Pass, "extended-card-advertised=false")
}

// A required extension that the agent enforces passes DISC-016, and the
// unknown extension of DISC-018 is still ignored beside it.
func TestRequiredExtensionEnforced(t *testing.T) {
	url := agent(t, fakes.Options{RequiredExtension: "https://a2a-conform.dev/extensions/test-required/v1"})
	res := run(t, url, "DISC-016,DISC-018")
	expect(t, res, "DISC-016", reports.Pass, "required-extensions=https://a2a-conform.dev/extensions/test-required/v1")
	expect(t, res, "DISC-018", reports.Pass)
}

// With the run's credentials the extended card is fetched (or reported not
// configured); without them it is refused.
func TestExtendedCardWithCredentials(t *testing.T) {
	served := run(t, agent(t, fakes.Options{}), "DISC-015", "--header", "Authorization: Bearer test-token")
	expect(t, served, "DISC-015", reports.Pass, "authenticated-JSONRPC=an AgentCard named", "anonymous-HTTP+JSON=refused")
	unconfigured := run(t, agent(t, fakes.Options{ExtendedCard: fakes.ExtendedCardUnconfigured}), "DISC-015",
		"--header", "Authorization: Bearer test-token")
	expect(t, unconfigured, "DISC-015", reports.Pass, "authenticated-HTTP+JSON=ExtendedAgentCardNotConfiguredError")
}

// Without the directive extension (no scripted behaviour at all) the
// capability specs still judge what they can, with a task from a plain
// message. This agent's echo task ends at once, so DISC-013 may find it
// ended before it subscribes: then the subscribe half is unknown
// (indeterminate), never passed unchecked (issue 8, finding 1).
func TestCapabilitiesWithoutBehaviour(t *testing.T) {
	url := agent(t, fakes.Options{DisableDirective: true})
	res := run(t, url, "DISC-013,DISC-014,DISC-016,DISC-018")
	switch r := res["DISC-013"]; r.Verdict {
	case reports.Pass:
		expect(t, res, "DISC-013", reports.Pass, "subscribe-first-event-JSONRPC", "subscribe-first-event-HTTP+JSON")
	case reports.Indeterminate:
		if !strings.Contains(r.Reason, "SubscribeToTask") && !strings.Contains(r.Reason, "already") {
			t.Errorf("DISC-013 indeterminate without saying the task ended first: %s", r.Reason)
		}
	default:
		t.Errorf("DISC-013: %s (%s), want pass (subscribed) or indeterminate (the task ended first)", r.Verdict, r.Reason)
	}
	expect(t, res, "DISC-013", res["DISC-013"].Verdict, "subscribe-task-JSONRPC=a plain message")
	expect(t, res, "DISC-014", reports.Pass)
	expect(t, res, "DISC-016", reports.NotApplicable)
	expect(t, res, "DISC-018", reports.Pass)
}

// The version specs hold when the agent takes the strict reading of a
// missing A2A-Version (absent means 0.3, refused).
func TestStrictVersionReading(t *testing.T) {
	res := run(t, agent(t, fakes.Options{StrictVersion: true}), "DISC-010,DISC-011,DISC-012")
	expect(t, res, "DISC-010", reports.Pass)
	expect(t, res, "DISC-011", reports.Pass, "refused with VersionNotSupportedError")
	expect(t, res, "DISC-012", reports.Pass)
}

// An agent that refuses anonymous HTTP+JSON calls, but with 400 and no A2A
// error instead of 401/403, keeps §7.4's MUST (every request is
// authenticated) and misses its SHOULD (the binding's own codes): DISC-019
// warns and never fails. (An anonymous call answered with the operation's
// own TaskNotFoundError still fails: fault auth-cancel-unauthenticated.)
func TestAnonymousRefusalUnderAnotherCodeWarns(t *testing.T) {
	behind := func(status int) string {
		return agentBehind(t, fakes.Options{RequireAuth: "disc-019-token"}, func(a *fakes.Agent) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, fakes.RESTPath) && r.Header.Get("Authorization") == "" {
					http.Error(w, "who are you?", status)
					return
				}
				a.ServeHTTP(w, r)
			})
		})
	}
	res := run(t, behind(http.StatusBadRequest), "DISC-019", "--header", "Authorization: Bearer disc-019-token")
	expect(t, res, "DISC-019", reports.Warn)
	if r := res["DISC-019"]; !strings.Contains(r.Reason, "auth-code") || !strings.Contains(r.Reason, "SHOULD") {
		t.Errorf("DISC-019's warning does not name the SHOULD it missed: %s", r.Reason)
	}
	// A bare 404 is the not-found answer to the ids nobody issued, though
	// it carries no ErrorInfo: the lookup ran without credentials.
	res = run(t, behind(http.StatusNotFound), "DISC-019", "--header", "Authorization: Bearer disc-019-token")
	expect(t, res, "DISC-019", reports.Fail)
}

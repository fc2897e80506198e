package runner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Issue 8: the discovery specs against reference-agent variants that read the
// spec another allowed way (fakes/variants.go). Each test names the finding
// and shows the verdict the old code got wrong.

// discovery runs only the named specs against a variant.
func discovery(t *testing.T, opts fakes.Options, focus string, extra ...string) cliRun {
	t.Helper()
	return runVariant(t, opts, append([]string{"--suite", "discovery", "--focus", focus, "--seed", "8"}, extra...)...)
}

// want fails the test unless the spec's verdict is v.
func want(t *testing.T, r cliRun, id string, v reports.Verdict) reports.Result {
	t.Helper()
	res := result(t, r, id)
	if res.Verdict != v {
		t.Errorf("%s: %s (%s), want %s\nobservations: %v\nstdout:\n%s", id, res.Verdict, res.Reason, v, res.Observations, r.stdout)
	}
	return res
}

// observed fails the test unless some observation of res contains text.
func observed(t *testing.T, res reports.Result, text string) {
	t.Helper()
	for k, v := range res.Observations {
		if strings.Contains(k+": "+v, text) {
			return
		}
	}
	t.Errorf("%s: no observation mentions %q: %v", res.ID, text, res.Observations)
}

// Finding 7: "skills": [] is an UNSURE point (the spec leaves it open); the old
// DISC-002 failed it. Now it passes and records the reading.
func TestDISC002AcceptsEmptySkills(t *testing.T) {
	t.Parallel()
	r := discovery(t, fakes.Options{EmptySkills: true}, "DISC-002")
	res := want(t, r, "DISC-002", reports.Pass)
	observed(t, res, "UNSURE")
}

// Finding 3: DISC-005 is about ETag revalidation. The old code passed a card
// with Last-Modified and no ETag; now that misses the SHOULD (warn), while
// DISC-007 still judges (and passes) the Last-Modified revalidation.
func TestDISC005JudgesETagOnly(t *testing.T) {
	t.Parallel()
	r := discovery(t, fakes.Options{OmitETag: true}, "DISC-005,DISC-007")
	res := want(t, r, "DISC-005", reports.Warn)
	if !strings.Contains(res.Reason, "ETag") {
		t.Errorf("DISC-005 reason does not name the missing ETag: %s", res.Reason)
	}
	want(t, r, "DISC-007", reports.Pass)
}

// Finding 4: a card that does not vary by A2A-Version owes no Vary. The old
// DISC-006 passed with nothing checked while DISC-007 said not-applicable in
// the same situation; both now say not-applicable and why.
func TestDISC006NothingToJudgeIsNotApplicable(t *testing.T) {
	t.Parallel()
	r := discovery(t, fakes.Options{}, "DISC-006")
	res := want(t, r, "DISC-006", reports.NotApplicable)
	if !strings.Contains(res.Reason, "same with and without A2A-Version") {
		t.Errorf("DISC-006 reason does not say why: %s", res.Reason)
	}
}

// Finding 2: "every declared interface" was passed with a GRPC interface
// only "declared but not verified". The harness now speaks gRPC: the
// reference agent's GRPC interface is probed like the other two, and a
// binding it does not speak would still be listed as unchecked.
func TestDISC009ProbesEveryInterfaceIncludingGRPC(t *testing.T) {
	t.Parallel()
	// The embedded run: its reference agent serves gRPC on its own port.
	r := runCLI(t, nil, "--suite", "discovery", "--focus", "DISC-009", "--seed", "8")
	res := want(t, r, "DISC-009", reports.Pass)
	observed(t, res, "interfaces-probed: 3")
	observed(t, res, "GRPC 1.0")
}

// Finding 6: an agent that authenticates every request and does not
// advertise the extended card. The old DISC-015 called it without
// credentials and failed the 401; now it sends the run's credentials and
// passes, and without credentials the refusal part is unchecked, not failed.
func TestDISC015AgentThatAuthenticatesEverything(t *testing.T) {
	t.Parallel()
	opts := fakes.Options{RequireAuth: "disc-015-token", ExtendedCard: fakes.ExtendedCardAbsent}
	r := discovery(t, opts, "DISC-015", "--header", "Authorization: Bearer disc-015-token")
	want(t, r, "DISC-015", reports.Pass)

	r = discovery(t, opts, "DISC-015")
	res := want(t, r, "DISC-015", reports.CouldNotRun)
	if len(res.Unchecked) == 0 {
		t.Errorf("DISC-015 without credentials lists nothing unchecked: %s", res.Reason)
	}
}

// Finding 1: without scripted behaviour the old DISC-013 skipped the
// SubscribeToTask half and passed. An agent without the directive extension
// whose tasks take a while (StepDelay) still makes a task from a plain
// message: the spec now subscribes to it, and says so.
func TestDISC013SubscribesWithoutScriptedBehaviour(t *testing.T) {
	t.Parallel()
	r := discovery(t, fakes.Options{DisableDirective: true, StepDelay: 400 * time.Millisecond}, "DISC-013")
	res := want(t, r, "DISC-013", reports.Pass)
	observed(t, res, "subscribe-first-event-JSONRPC")
	observed(t, res, "subscribe-first-event-HTTP+JSON")
}

// Finding 5: a violation found before a step that needs a prompt-map key
// the run lacks was dropped (could-not-run). An agent that serves streaming
// it does not advertise, with a prompt map that only has "message": the
// violation on SendStreamingMessage is now reported.
func TestDISC013KeepsViolationsWhenAKeyIsMissing(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "conform.yaml")
	if err := os.WriteFile(cfg, []byte("prompt-map:\n  message: reply with a message\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := fakes.Options{DisableDirective: true, PromptMap: true, Faults: []string{"streaming-served-unadvertised"}}
	r := discovery(t, opts, "DISC-013", "--config", cfg)
	res := want(t, r, "DISC-013", reports.Fail)
	if !strings.Contains(res.Reason, "SendStreamingMessage") {
		t.Errorf("DISC-013 reason does not name the SendStreamingMessage violation: %s", res.Reason)
	}
}

// Finding 8: an agent that validates webhook URLs (§13.2 SHOULD) refused
// the old DISC-014's .invalid URL and failed a MUST. The spec now registers
// the harness's own receiver.
func TestDISC014RegistersTheHarnessReceiver(t *testing.T) {
	t.Parallel()
	r := discovery(t, fakes.Options{ValidateWebhooks: true}, "DISC-014")
	want(t, r, "DISC-014", reports.Pass)
}

// Finding 9: an agent that sends HTTP+JSON requests without A2A-Version to
// its v0.3 handler (§3.6.2: absent means 0.3) answers GET /tasks/{id} with
// v0.3's 404 problem+json. The old DISC-011 accepted the 0.3 reading on
// JSON-RPC only; it now passes on both and records the reading.
func TestDISC011AcceptsV03DispatchOnHTTPJSON(t *testing.T) {
	t.Parallel()
	r := discovery(t, fakes.Options{V03WithoutVersion: true}, "DISC-011")
	res := want(t, r, "DISC-011", reports.Pass)
	observed(t, res, "no-version-HTTP+JSON: dispatched as 0.3")
}

// A MUST spec with a part the A2A text asks for only weakly warns on that
// part and never fails (docs/levels.md): the card served as text/plain
// (DISC-001) and interfaces declaring 1.0.0 (DISC-009, DISC-012).
func TestShouldPartsOfMustSpecsWarn(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{CardContentType: "text/plain", PatchVersionInterfaces: true},
		"--focus", "DISC-001,DISC-009,DISC-012", "--seed", "2")
	for _, id := range []string{"DISC-001", "DISC-009", "DISC-012"} {
		res := result(t, r, id)
		if res.Verdict != reports.Warn || len(res.Violations) == 0 {
			t.Errorf("%s: %s (%d violations): %s, want warn listing the SHOULD missed", id, res.Verdict, len(res.Violations), res.Reason)
		}
	}
	if r.exit != 0 {
		t.Errorf("exit %d: a SHOULD miss must not fail the run", r.exit)
	}
}

// A spec that fails a MUST and also saw a SHOULD missed names both in its
// reason: card-not-json serves an HTML page (the MUST: a card) as text/html
// (the SHOULD: a JSON media type), and the result lists both violations.
func TestFailingSpecNamesTheShouldItSawMissed(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "--focus", "DISC-001", "--seed", "2", "--fault", "card-not-json")
	res := result(t, r, "DISC-001")
	if res.Verdict != reports.Fail {
		t.Fatalf("DISC-001 with card-not-json: %s: %s, want fail", res.Verdict, res.Reason)
	}
	if !strings.Contains(res.Reason, "AgentCard") {
		t.Errorf("the reason does not name the MUST broken: %s", res.Reason)
	}
	if !strings.Contains(res.Reason, "a SHOULD was not met") || !strings.Contains(res.Reason, "text/html") {
		t.Errorf("the reason does not name the SHOULD missed beside the fail: %s", res.Reason)
	}
	if len(res.Violations) < 2 {
		t.Errorf("want the MUST and the SHOULD violations listed, got %+v", res.Violations)
	}
}

// LIFE-030's follow-up part is a SHOULD: an agent that refuses messages in
// TASK_STATE_AUTH_REQUIRED warns, and the run does not fail.
func TestAuthRequiredRefusingMessagesWarns(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{RefuseAuthRequiredMessages: true}, "--focus", "LIFE-030", "--seed", "2")
	if res := result(t, r, "LIFE-030"); res.Verdict != reports.Warn || len(res.Violations) == 0 {
		t.Errorf("LIFE-030: %s (%d violations): %s, want warn listing the refused follow-up", res.Verdict, len(res.Violations), res.Reason)
	}
	if r.exit != 0 {
		t.Errorf("exit %d: a SHOULD miss must not fail the run", r.exit)
	}
}

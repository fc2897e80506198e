package runner_test

import (
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Whether the agent reaches the harness's receiver is one fact of the run,
// proved before the specs (internal/runner/reach.go), and a push later than
// the patience is late, not lost, unless loss is proven (issue 17). Each run
// here serves a variant of the reference agent in this process and points
// the CLI at it with --target, so that the harness cannot vouch for the path
// as it does for its embedded agent.

// deliverySpecs are the PUSH specs whose verdict rests on a push arriving
// (PUSH-001's part: nothing pushed to a deleted config, judged by silence).
var deliverySpecs = []string{"PUSH-001", "PUSH-003", "PUSH-004", "PUSH-005", "PUSH-006", "PUSH-007", "PUSH-008"}

// reachNote is the run's webhook-reach fact as the report states it.
func reachNote(t *testing.T, r cliRun) string {
	t.Helper()
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	for _, n := range r.report.Run.Notes {
		if strings.HasPrefix(n, "webhook reach: ") {
			return n
		}
	}
	t.Fatalf("the report states no webhook reach; notes: %v", r.report.Run.Notes)
	return ""
}

// A canceled state never pushed is caught by PUSH-008 whatever else the run
// selects and however many specs run at once: the probe proves reach before
// any spec, and a flush task's push proves the cancel's lost. Before, alone
// or one spec at a time, nothing else had reached the receiver by PUSH-008's
// decision time, and it said could-not-run with exit 0.
func TestProofPushDropsCancelFailsPUSH008InEveryOrder(t *testing.T) {
	testkit.WholeProof(t)
	t.Parallel()
	opts := fakes.Options{Faults: []string{"push-drops-cancel"}}
	runs := map[string][]string{
		"focus":      {"--focus", "PUSH-008"},
		"parallel-1": {"--suite", "webhook", "--parallel", "1"},
		"suite":      {"--suite", "webhook"},
	}
	if !testing.Short() {
		runs["full"] = nil
	}
	for name, args := range runs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := runVariant(t, opts, append([]string{"--seed", "17", "--race-trials", "10"}, args...)...)
			if note := reachNote(t, r); !strings.Contains(note, "proven") {
				t.Errorf("reach fact %q, want proven", note)
			}
			res := result(t, r, "PUSH-008")
			if res.Verdict != reports.Fail || !strings.Contains(res.Reason, "TASK_STATE_CANCELED") {
				t.Errorf("PUSH-008 %s, want fail naming the canceled state: %s", res.Verdict, res.Reason)
			}
			if r.exit != 1 {
				t.Errorf("exit %d, want 1 (a MUST failed)", r.exit)
			}
		})
	}
}

// An agent that accepts every webhook URL and refuses to dial internal
// addresses (as a2a-go does) never reaches a receiver on 127.0.0.1: every
// spec whose verdict rests on a push, or on the silence of one, could not
// run, in every order, and nothing fails.
func TestAgentThatCannotReachTheReceiverCouldNotRun(t *testing.T) {
	t.Parallel()
	// No allow-list: it takes every URL, the canary's too, and guards at dial time.
	opts := fakes.Options{Push: fakes.PushOptions{DialGuard: true}, WebhookAllow: []string{}}
	for name, args := range map[string][]string{
		"parallel-1": {"--parallel", "1"},
		"parallel-8": {"--parallel", "8"},
		"focus":      {"--focus", "PUSH-008,PUSH-003"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := runVariant(t, opts, append([]string{"--suite", "webhook", "--seed", "23", "--patience", "2s"}, args...)...)
			if note := reachNote(t, r); !strings.Contains(note, "unreachable") {
				t.Errorf("reach fact %q, want unreachable", note)
			}
			for _, res := range r.report.Results {
				if res.Verdict == reports.Fail || res.Verdict == reports.Warn {
					t.Errorf("%s %s on an agent that cannot reach the receiver: %s", res.ID, res.Verdict, res.Reason)
				}
			}
			want := append([]string{"PUSH-010"}, deliverySpecs...)
			for _, res := range r.report.Results {
				if !contains(want, res.ID) {
					continue
				}
				if res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, "--webhook-url") {
					t.Errorf("%s %s, want could-not-run naming --webhook-url: %s", res.ID, res.Verdict, res.Reason)
				}
				// The target and the receiver are on loopback: the silence
				// is the agent's choice, and the reason names the URL to
				// allow and the SDK's switch.
				for _, want := range []string{"no network stands between them", "/hook/", "push.HTTPSenderConfig.AllowPrivateNetworks"} {
					if !strings.Contains(res.Reason, want) {
						t.Errorf("%s: the reason does not say %q: %s", res.ID, want, res.Reason)
					}
				}
			}
			// Acknowledged and never attempted, with nothing between: the
			// scenario 2 boundary is a finding, never a verdict.
			for _, res := range r.report.Results {
				if res.ID == "PUSH-010" && !strings.Contains(strings.Join(res.Findings, " "), "accepted and dropped") {
					t.Errorf("PUSH-010 does not report the accepted-and-dropped webhooks: %q", res.Findings)
				}
			}
			if r.exit != 0 {
				t.Errorf("exit %d, want 0", r.exit)
			}
		})
	}
}

// The same through the embedded driver: a --webhook-url that points at a
// loopback port nobody listens on. The harness cannot vouch for a URL it
// was given, so it proves nothing until a push arrives.
func TestWebhookURLNobodyListensOnCouldNotRun(t *testing.T) {
	t.Parallel()
	dead := "http://" + testkit.FreeAddr(t)
	r := runCLI(t, nil, "--suite", "webhook", "--seed", "29", "--patience", "2s", "--webhook-url", dead)
	if note := reachNote(t, r); !strings.Contains(note, "unreachable") {
		t.Errorf("reach fact %q, want unreachable", note)
	}
	for _, res := range r.report.Results {
		if res.Verdict == reports.Fail || res.Verdict == reports.Warn {
			t.Errorf("%s %s: %s", res.ID, res.Verdict, res.Reason)
		}
		if contains(deliverySpecs, res.ID) && res.Verdict != reports.CouldNotRun {
			t.Errorf("%s %s, want could-not-run: %s", res.ID, res.Verdict, res.Reason)
		}
		// The URL given leads nowhere the harness listens: the silence is
		// not the agent's choice, and no guard is blamed.
		if strings.Contains(res.Reason, "SSRF guard") {
			t.Errorf("%s blames a guard for a --webhook-url nobody listens on: %s", res.ID, res.Reason)
		}
	}
}

// A queue-backed dispatcher that delivers every push 3 s late is correct:
// within the patience every delivery spec passes, and the latency is
// recorded. The patience is 20 s, not the default 10: the late pushes of one
// config queue behind each other, and on a loaded 2-core machine the third
// came past the default's 12 s bound (PUSH-001 then went could-not-run,
// honestly, but this test is about lateness within the patience).
func TestLatePushesPass(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{Push: fakes.PushOptions{Late: 3 * time.Second}}, "--suite", "webhook", "--seed", "31", "--patience", "20s")
	for _, res := range r.report.Results {
		if res.ID == "PUSH-009" && restartUnavailable(res) {
			continue
		}
		if res.Verdict != reports.Pass {
			t.Errorf("%s %s on pushes 3 s late: %s", res.ID, res.Verdict, res.Reason)
		}
	}
	if lat := result(t, r, "PUSH-003").Observations["push.latency"]; !strings.Contains(lat, "p50") {
		t.Errorf("PUSH-003 recorded no push latency: %q", lat)
	}
}

// Pushes later than the patience and its grace are indeterminate (or could
// not run, when not even the probe's push had come), never a fail: late is
// not lost. The old code called them a violation of a MUST.
func TestPushesLaterThanThePatienceAreNotFailed(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{Push: fakes.PushOptions{Late: 4 * time.Second}}, "--suite", "webhook", "--seed", "37", "--patience", "1s")
	t.Logf("%s; verdicts: %s", reachNote(t, r), summaryLine(r.report))
	for _, res := range r.report.Results {
		t.Logf("%s %s: %s", res.ID, res.Verdict, res.Reason)
		switch res.Verdict {
		case reports.Fail, reports.Warn:
			t.Errorf("%s %s on pushes 4 s late: %s", res.ID, res.Verdict, res.Reason)
		case reports.Indeterminate:
			if !strings.Contains(res.Reason, "Late is not lost") {
				t.Errorf("%s indeterminate without saying the wait ran out: %s", res.ID, res.Reason)
			}
		}
	}
}

// An agent whose first retry comes 15 s after a failure retries with
// backoff as §13.2 asks: PUSH-007 waits for it (up to suites.DefaultPushRetryWait after the
// refused attempt) and passes. It waited only the patience before, and
// warned.
func TestSlowRetriesAreWaitedFor(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a retry 15 s after the refusal")
	}
	t.Parallel()
	r := runVariant(t, fakes.Options{Push: fakes.PushOptions{BaseDelay: 15 * time.Second, MaxDelay: 30 * time.Second}},
		"--focus", "PUSH-007", "--seed", "41")
	res := result(t, r, "PUSH-007")
	if res.Verdict != reports.Pass {
		t.Fatalf("PUSH-007 %s: %s", res.Verdict, res.Reason)
	}
	if iv := res.Observations["retry-intervals"]; iv == "" {
		t.Errorf("no retry intervals recorded: %v", res.Observations)
	}
}

// An agent that does not retry warns on PUSH-007 when it delivered later
// events to the config meanwhile (it left the refused one behind), naming
// the wait; when the refused push was its only one (it pushes the terminal
// state alone), nothing tells no retry from a slow queue, so the spec is
// indeterminate, naming the wait, and never warns.
func TestNoRetryWarnsOnlyWhenLaterPushesCame(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out PUSH-007's retry wait twice")
	}
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts fakes.Options
		want reports.Verdict
		says string
	}{
		{"later pushes came", fakes.Options{Faults: []string{"push-no-retry"}}, reports.Warn, "not retried, while later pushes to the config were acknowledged"},
		{"the refused push was the only one", fakes.Options{Faults: []string{"push-no-retry"}, TerminalPushesOnly: true}, reports.Indeterminate, "late is not lost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// An agent that never retries: 8 s of waiting for the retry
			// judges it as the default 25 s does.
			r := runVariant(t, tc.opts, "--focus", "PUSH-007", "--seed", "42", "--push-retry-wait", "8s")
			res := result(t, r, "PUSH-007")
			if res.Verdict != tc.want || !strings.Contains(res.Reason, tc.says) || !strings.Contains(res.Reason, "after the refused attempt") {
				t.Fatalf("PUSH-007 %s, want %s saying %q and the wait: %s", res.Verdict, tc.want, tc.says, res.Reason)
			}
		})
	}
}

// An agent that posts to an unregistered loopback URL 2 s after the task
// ended is caught: PUSH-010 watches its canary for the patience, not for
// about a second.
func TestLateCanaryPostIsCaught(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{Faults: []string{"webhook-ssrf-unchecked"}, Push: fakes.PushOptions{Late: 2 * time.Second}},
		"--focus", "PUSH-010", "--seed", "43")
	if res := result(t, r, "PUSH-010"); res.Verdict != reports.Warn {
		t.Errorf("PUSH-010 %s, want warn (a SHOULD missed): %s", res.Verdict, res.Reason)
	}
}

// An agent that refuses the receiver's URL meets one rule in every PUSH
// spec: the run's fact says refused-url, and every spec that needed the
// config could not run, naming --webhook-url.
func TestRefusedWebhookURLIsOneRule(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{WebhookAllow: []string{"http://127.0.0.1:1/hook/"}}, "--suite", "webhook", "--seed", "47")
	if note := reachNote(t, r); !strings.Contains(note, "refused-url") {
		t.Errorf("reach fact %q, want refused-url", note)
	}
	for _, res := range r.report.Results {
		if res.Verdict == reports.Fail || res.Verdict == reports.Warn {
			t.Errorf("%s %s: %s", res.ID, res.Verdict, res.Reason)
		}
		if contains(append([]string{"PUSH-009"}, deliverySpecs...), res.ID) &&
			(res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, "--webhook-url")) {
			if res.ID == "PUSH-009" && restartUnavailable(res) {
				continue
			}
			t.Errorf("%s %s, want could-not-run naming --webhook-url: %s", res.ID, res.Verdict, res.Reason)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The same proofs on the reference agent made slow (one-second steps) and
// driven by the prompt map: its late pushes pass every delivery spec, and
// its lost cancel still fails PUSH-008 when PUSH-008 runs alone (the probe
// and the flush ask for the least: a task that completes).
func TestProofSlowPromptMapAgentLateAndLostPushes(t *testing.T) {
	testkit.WholeProof(t)
	if testing.Short() {
		t.Skip("runs the webhook suite against a slow agent")
	}
	t.Parallel()
	cfg := promptMapConfig(t)
	auth := []string{"--config", cfg, "--header", "Authorization: Bearer slow-agent-token"}
	t.Run("late", func(t *testing.T) {
		t.Parallel()
		opts := slowAgent(time.Second)
		opts.Push.Late = 2 * time.Second
		r := runVariant(t, opts, append([]string{"--suite", "webhook", "--seed", "53"}, auth...)...)
		if note := reachNote(t, r); !strings.Contains(note, "proven") {
			t.Errorf("reach fact %q, want proven", note)
		}
		for _, res := range r.report.Results {
			if res.Verdict != reports.Pass && !restartUnavailable(res) {
				t.Errorf("%s %s on a slow agent whose pushes are 2 s late: %s", res.ID, res.Verdict, res.Reason)
			}
		}
	})
	t.Run("drops-cancel", func(t *testing.T) {
		t.Parallel()
		r := runVariant(t, slowAgent(time.Second, "push-drops-cancel"), append([]string{"--focus", "PUSH-008", "--seed", "59"}, auth...)...)
		if res := result(t, r, "PUSH-008"); res.Verdict != reports.Fail {
			t.Errorf("PUSH-008 %s, want fail: %s", res.Verdict, res.Reason)
		}
	})
}

// An agent whose first retry comes after PUSH-007's wait retries all the
// same (§13.2 sets no schedule): the spec looks again when the run ends,
// and a retry that came while later specs ran makes it pass, with the run's
// notes and the result saying how late it came. Without later specs to
// wait through, the look finds nothing yet and the verdict stands, saying
// it looked. --push-retry-wait 1s stands in for a backoff past 25 s, and
// --parallel 1 makes the two suites outlast the 4 s backoff.
func TestRetryAfterTheWaitIsSeenAtTheRunsEnd(t *testing.T) {
	t.Parallel()
	t.Run("the run outlasts the backoff", func(t *testing.T) {
		t.Parallel()
		r := runVariant(t, fakes.Options{Push: fakes.PushOptions{BaseDelay: 4 * time.Second, MaxDelay: 8 * time.Second}},
			"--suite", "webhook,lifecycle", "--parallel", "1", "--push-retry-wait", "1s", "--patience", "1s", "--seed", "73")
		res := result(t, r, "PUSH-007")
		if res.Verdict != reports.Pass || !strings.Contains(res.Observations["late-retry"], "retried") {
			t.Fatalf("PUSH-007 %s, want pass from the run's-end look (late-retry %q): %s", res.Verdict, res.Observations["late-retry"], res.Reason)
		}
		if !strings.Contains(strings.Join(r.report.Run.Notes, "\n"), "PUSH-007") || !strings.Contains(r.stdout, "-> pass at the run's end") {
			t.Errorf("the change is not in the run's notes and output: %q\n%s", r.report.Run.Notes, r.stdout)
		}
	})
	t.Run("the run ends first", func(t *testing.T) {
		t.Parallel()
		r := runVariant(t, fakes.Options{Push: fakes.PushOptions{BaseDelay: 30 * time.Second, MaxDelay: 60 * time.Second}},
			"--focus", "PUSH-007", "--push-retry-wait", "1s", "--patience", "1s", "--seed", "74")
		res := result(t, r, "PUSH-007")
		if res.Verdict == reports.Pass || res.Verdict == reports.Fail || !strings.Contains(res.Reason, "Looked again when the run ended") ||
			!strings.Contains(res.Reason, "--push-retry-wait") {
			t.Fatalf("PUSH-007 %s, want a non-pass that names the wait's flag and says it looked again: %s", res.Verdict, res.Reason)
		}
	})
}

// An agent whose SSRF allow-list admits the receiver's host, 127.0.0.1, and
// nothing else internal gets both halves of PUSH-010 judged in one run: the
// canary listens on 127.0.0.2, which the allow-list refuses, while the
// receiver is delivered to. PUSH-010 passes, and so does delivery.
func TestAllowListOfTheReceiversHostPassesTheCanary(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{WebhookAllow: []string{"http://127.0.0.1:"}}, "--focus", "PUSH-010,PUSH-004", "--seed", "31")
	for _, id := range []string{"PUSH-010", "PUSH-004"} {
		if res := result(t, r, id); res.Verdict != reports.Pass {
			t.Errorf("%s: %s (%s) %v", id, res.Verdict, res.Reason, res.Observations)
		}
	}
}

package runner_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/pem"
	"io"
	"log"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/reports"
)

// The authorization specs (LIFE-031, LIFE-032, LIFE-033) against reference
// agents that are correct in other ways than the embedded one: slow and
// driven by prompts, without a second identity, without authentication, with
// a second identity it does not know, over TLS.

// twoTokens is an agent with two identities, and the flags that give the
// harness both.
func twoTokens(opts fakes.Options) (fakes.Options, []string) {
	opts.RequireAuth, opts.OtherTokens = "scope-token-a", []string{"scope-token-b"}
	return opts, []string{"--header", "Authorization: Bearer scope-token-a", "--second-header", "Authorization: Bearer scope-token-b"}
}

// On the reference agent made slow (1 s steps, prompt map, no directive),
// the scoping specs and LIFE-033 pass, and LIFE-033 says how long it held
// the stream: at least as long as the agent took to reach AUTH_REQUIRED.
func TestSlowAgentAuthSpecsPass(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a slow agent for about half a minute")
	}
	t.Parallel()
	opts, flags := twoTokens(slowAgent(time.Second))
	r := runVariant(t, opts, append(flags, "--config", promptMapConfig(t), "--focus", "LIFE-030,LIFE-031,LIFE-032,LIFE-033", "--seed", "4")...)
	for _, id := range []string{"LIFE-030", "LIFE-031", "LIFE-032", "LIFE-033"} {
		if res := result(t, r, id); res.Verdict != reports.Pass {
			t.Errorf("%s on a clean slow agent: %s: %s\nobservations: %v", id, res.Verdict, res.Reason, res.Observations)
		}
	}
	held := result(t, r, "LIFE-033").Observations["held-JSONRPC"]
	if !strings.Contains(held, "open ") {
		t.Fatalf("LIFE-033 does not report how long it held the stream: %q", held)
	}
	var hold, took time.Duration
	parts := strings.Fields(held) // "open 2.01s after AUTH_REQUIRED (the agent took 2.01s to get there)"
	hold, _ = time.ParseDuration(parts[1])
	took, _ = time.ParseDuration(parts[7])
	t.Logf("LIFE-033 observations: %v", result(t, r, "LIFE-033").Observations)
	if took < time.Second || hold < took {
		t.Errorf("LIFE-033 held the stream %s, the agent took %s to reach AUTH_REQUIRED: the hold must follow the agent's pace (%q)", hold, took, held)
	}
	if r.exit != 0 {
		t.Errorf("exit %d", r.exit)
	}
}

// The faults, on the slow agent too: each spec fails (warns, for the SHOULD)
// under its own ID.
func TestSlowAgentAuthFaultsAreCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a slow agent for about half a minute")
	}
	t.Parallel()
	for fault, want := range map[string]map[string]reports.Verdict{
		"other-identity-task-forbidden": {"LIFE-031": reports.Pass, "LIFE-032": reports.Fail},
		"list-leaks-other-identity":     {"LIFE-031": reports.Fail, "LIFE-032": reports.Fail},
		"auth-required-stream-dropped":  {"LIFE-033": reports.Warn},
	} {
		t.Run(fault, func(t *testing.T) {
			t.Parallel()
			opts, flags := twoTokens(slowAgent(time.Second, fault))
			var ids []string
			for id := range want {
				ids = append(ids, id)
			}
			r := runVariant(t, opts, append(flags, "--config", promptMapConfig(t), "--focus", strings.Join(ids, ","), "--seed", "4")...)
			for id, v := range want {
				if res := result(t, r, id); res.Verdict != v {
					t.Errorf("%s on a slow agent with %s: %s (%s), want %s", id, fault, res.Verdict, res.Reason, v)
				}
			}
		})
	}
}

// Without a second identity the scoping specs cannot run, and say which key
// to set; an agent that authenticates nobody has one identity, and they do
// not apply.
func TestScopingWithoutASecondIdentity(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{RequireAuth: "only-token"}, "--header", "Authorization: Bearer only-token", "--focus", "LIFE-031,LIFE-032", "--seed", "3")
	for _, id := range []string{"LIFE-031", "LIFE-032"} {
		res := result(t, r, id)
		if res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, "second-header") {
			t.Errorf("%s with one identity: %s: %s, want could-not-run naming second-header", id, res.Verdict, res.Reason)
		}
	}
	r = runVariant(t, fakes.Options{}, "--focus", "LIFE-031,LIFE-032", "--seed", "3")
	for _, id := range []string{"LIFE-031", "LIFE-032"} {
		if res := result(t, r, id); res.Verdict != reports.NotApplicable {
			t.Errorf("%s against an agent without authentication: %s: %s, want not-applicable", id, res.Verdict, res.Reason)
		}
	}
}

// A second identity the agent does not accept proves nothing about
// scoping: every refusal would be an authentication failure. So too when
// ListTasks is served without credentials (auth-list-unauthenticated), so
// that the first check lets the identity through: the refusals of an id
// nobody issued (401) still show the caller was not authenticated.
func TestScopingWithARefusedSecondIdentity(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		faults []string
		reason string
	}{
		{nil, "refused the second identity's credentials"},
		{[]string{"auth-list-unauthenticated"}, "did not authenticate the second identity"},
	} {
		r := runVariant(t, fakes.Options{RequireAuth: "only-token", Faults: c.faults}, "--header", "Authorization: Bearer only-token",
			"--second-header", "Authorization: Bearer unknown-token", "--focus", "LIFE-031,LIFE-032", "--seed", "3")
		for _, id := range []string{"LIFE-031", "LIFE-032"} {
			res := result(t, r, id)
			if res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, c.reason) {
				t.Errorf("%s with a second identity the agent refuses (faults %v): %s: %s, want could-not-run", id, c.faults, res.Verdict, res.Reason)
			}
		}
	}
}

// An agent that refuses messages in AUTH_REQUIRED (a SHOULD it misses,
// which LIFE-030 warns about) leaves LIFE-033's last part unchecked:
// could-not-run, never fail.
func TestAuthStreamWithARefusedFollowUp(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{RefuseAuthRequiredMessages: true}, "--focus", "LIFE-033", "--seed", "2")
	res := result(t, r, "LIFE-033")
	if res.Verdict != reports.CouldNotRun || len(res.Unchecked) == 0 {
		t.Errorf("LIFE-033: %s: %s, want could-not-run with the follow-up part unchecked", res.Verdict, res.Reason)
	}
}

// The second identity's credentials, from the flag or the environment,
// reach no file, and the transcript says which requests carried them.
func TestSecondIdentityIsRedacted(t *testing.T) {
	t.Parallel()
	canary := "second-canary-6c1e9d"
	envCanary := "second-envcanary-0b7a"
	r := runCLI(t, []string{"A2A_CONFORM_SECOND_HEADERS=X-Api-Key: " + envCanary, runner.FullTranscriptsEnv + "=1"},
		"--seed", "3", "--second-header", "Authorization: Bearer "+canary, "--focus", "LIFE-031,LIFE-032")
	if r.report == nil {
		t.Fatalf("no report:\n%s\n%s", r.stdout, r.stderr)
	}
	labelled := false
	for _, res := range r.report.Results {
		if res.Verdict != reports.Pass {
			t.Errorf("%s: %s: %s", res.ID, res.Verdict, res.Reason)
		}
		for _, ex := range res.Transcript {
			if ex.ReqHeader.Get("Authorization") == "[REDACTED second identity]" {
				labelled = true
			}
		}
	}
	if !labelled {
		t.Error("no recorded request is marked as the second identity's")
	}
	files, _ := filepath.Glob(filepath.Join(r.out, "*"))
	for _, f := range append(files, "stdout", "stderr") {
		data := []byte(r.stdout + r.stderr)
		if f != "stdout" && f != "stderr" {
			data, _ = os.ReadFile(f)
		}
		for _, c := range []string{canary, envCanary} {
			if bytes.Contains(data, []byte(c)) {
				t.Errorf("%s contains the secret %q", f, c)
			}
		}
	}
}

// An https:// agent behind a private CA: --ca-file makes the harness trust
// it on every binding (gRPC over TLS included), and DISC-001 and DISC-009
// report the TLS version and cipher suite negotiated.
func TestTLSTargetReportsTheNegotiatedVersion(t *testing.T) {
	t.Parallel()
	gln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a, err := fakes.New(fakes.Options{Name: "tls", GRPCURL: "https://" + gln.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(a)
	// The run without --ca-file is refused at the handshake, on purpose.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	tlsLn := tls.NewListener(gln, &tls.Config{Certificates: srv.TLS.Certificates, NextProtos: []string{"h2"}})
	gs := a.GRPCServer()
	go gs.Serve(tlsLn)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = a.Shutdown(ctx)
		gs.Stop()
		srv.CloseClientConnections()
		srv.Close()
	})
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}

	r := runCLI(t, nil, "--target", srv.URL, "--focus", "DISC-001,DISC-009", "--seed", "2")
	if r.exit != 3 {
		t.Fatalf("without --ca-file the private CA's certificate must not be trusted: exit %d\n%s", r.exit, r.stdout)
	}

	r = runCLI(t, nil, "--target", srv.URL, "--ca-file", ca, "--focus", "DISC-001,DISC-009", "--seed", "2")
	host := strings.TrimPrefix(srv.URL, "https://")
	d1 := result(t, r, "DISC-001")
	if d1.Verdict != reports.Pass || !strings.HasPrefix(d1.Observations["tls"], "TLS 1.3, TLS_") || !strings.Contains(d1.Observations["tls"], host) {
		t.Errorf("DISC-001: %s, tls observation %q", d1.Verdict, d1.Observations["tls"])
	}
	d9 := result(t, r, "DISC-009")
	if d9.Verdict != reports.Pass {
		t.Errorf("DISC-009: %s: %s", d9.Verdict, d9.Reason)
	}
	for i := 0; i < 3; i++ {
		key := "interface-" + string(rune('0'+i)) + ".tls"
		if got := d9.Observations[key]; !strings.HasPrefix(got, "TLS 1.3, TLS_") {
			t.Errorf("DISC-009 %s = %q, want the negotiated version and cipher (observations %v)", key, got, d9.Observations)
		}
	}
	t.Logf("DISC-001 tls: %s; DISC-009: %s | %s | %s", d1.Observations["tls"], d9.Observations["interface-0.tls"],
		d9.Observations["interface-1.tls"], d9.Observations["interface-2.tls"])
	if !strings.Contains(d9.Observations["interface-2.tls"], gln.Addr().String()) {
		t.Errorf("the gRPC interface's session is not the gRPC listener's: %q", d9.Observations["interface-2.tls"])
	}
}

// DISC-019 probes every operation of the v1.0 method list without
// credentials, on the reference agent made slow (1 s steps, prompt map): the
// clean agent passes; an agent that serves one more operation anonymously
// (CancelTask, ListTasks, or the extended card) fails, naming that operation
// and no other.
func TestEveryOperationIsAuthenticated(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fault, op string
	}{
		{"", ""},
		{"auth-cancel-unauthenticated", "CancelTask"},
		{"auth-list-unauthenticated", "ListTasks"},
		{"extended-card-no-auth", "GetExtendedAgentCard"},
	} {
		t.Run(c.fault, func(t *testing.T) {
			t.Parallel()
			opts := slowAgent(time.Second)
			if c.fault != "" {
				opts.Faults = []string{c.fault}
			}
			opts.RequireAuth = "every-op-token"
			r := runVariant(t, opts, "--header", "Authorization: Bearer every-op-token", "--config", promptMapConfig(t), "--focus", "DISC-019", "--seed", "5")
			res := result(t, r, "DISC-019")
			probed := res.Observations["operations-probed"]
			for _, op := range []string{"SendMessage", "SendStreamingMessage", "GetTask", "ListTasks", "CancelTask", "SubscribeToTask",
				"CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs",
				"DeleteTaskPushNotificationConfig", "GetExtendedAgentCard"} {
				if !strings.Contains(probed, op) {
					t.Errorf("DISC-019 did not probe %s: %q", op, probed)
				}
			}
			if c.fault == "" {
				if res.Verdict != reports.Pass {
					t.Fatalf("DISC-019 on the clean slow agent with RequireAuth: %s: %s", res.Verdict, res.Reason)
				}
				return
			}
			if res.Verdict != reports.Fail {
				t.Fatalf("DISC-019 under %s: %s: %s, want fail", c.fault, res.Verdict, res.Reason)
			}
			// This agent serves JSON-RPC and HTTP+JSON (the embedded run's
			// gRPC interface is probed by `a2a-conform matrix` on these faults).
			for _, b := range []string{"JSONRPC", "HTTP+JSON"} {
				if !strings.Contains(res.Reason, c.op) || !strings.Contains(res.Reason, "without credentials ("+b) {
					t.Errorf("DISC-019 under %s does not name %s on %s: %s", c.fault, c.op, b, res.Reason)
				}
			}
			for _, line := range strings.Split(res.Reason, "\n") {
				if strings.HasPrefix(line, "auth-required at ") && !strings.Contains(line, c.op) {
					t.Errorf("DISC-019 under %s names another operation: %s", c.fault, line)
				}
			}
		})
	}
}

// LIFE-031/032 against agents that check a webhook URL before the caller's
// access to the task. With a URL allow-list that admits the harness's
// receiver (runVariant's default), the second identity's config is judged on
// ownership: the clean agent passes, other-identity-push-config-created
// fails both. With a strict SSRF rule that refuses every loopback URL, no
// URL the agent accepts is known: the config part is unchecked and neither
// spec passes, fault or not (before, both passed on the URL refusal).
func TestScopingBehindAWebhookURLPolicy(t *testing.T) {
	t.Parallel()
	strict := []string{"https://hooks.a2a-conform.invalid/"}
	for _, c := range []struct {
		name  string
		allow []string
		fault string
		want  reports.Verdict
	}{
		{"allow-list", nil, "", reports.Pass},
		{"allow-list with the fault", nil, "other-identity-push-config-created", reports.Fail},
		{"strict", strict, "", reports.CouldNotRun},
		{"strict with the fault", strict, "other-identity-push-config-created", reports.CouldNotRun},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			opts, flags := twoTokens(slowAgent(time.Second))
			opts.WebhookAllow = c.allow
			if c.fault != "" {
				opts.Faults = []string{c.fault}
			}
			r := runVariant(t, opts, append(flags, "--config", promptMapConfig(t), "--focus", "LIFE-031,LIFE-032", "--seed", "6")...)
			for _, id := range []string{"LIFE-031", "LIFE-032"} {
				res := result(t, r, id)
				if res.Verdict != c.want {
					t.Errorf("%s (%s): %s: %s, want %s", id, c.name, res.Verdict, res.Reason, c.want)
					continue
				}
				switch c.want {
				case reports.Fail:
					if !strings.Contains(res.Reason, "CreateTaskPushNotificationConfig") {
						t.Errorf("%s (%s) does not name the config create: %s", id, c.name, res.Reason)
					}
				case reports.CouldNotRun:
					if len(res.Unchecked) == 0 || !strings.Contains(strings.Join(res.Unchecked, " "), "CreateTaskPushNotificationConfig") {
						t.Errorf("%s (%s) does not list the config create as unchecked: %v (%s)", id, c.name, res.Unchecked, res.Reason)
					}
				}
			}
		})
	}
}

// Closing a stream at AUTH_REQUIRED is §11.7's reading (A2A v1.0 §3.1.6,
// UNSURE against §7.6.1's SHOULD keep it): LIFE-033 passes and records the
// reading, on the reference agent and on it made slow (prompt map).
func TestAuthStreamClosedAtAuthRequiredIsAReading(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string]fakes.Options{
		"fast": {CloseStreamAtAuthRequired: true},
		"slow": func() fakes.Options { o := slowAgent(time.Second); o.CloseStreamAtAuthRequired = true; return o }(),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := []string{"--focus", "LIFE-033", "--seed", "2"}
			if name == "slow" {
				args = append(args, "--config", promptMapConfig(t))
			}
			r := runVariant(t, opts, args...)
			res := result(t, r, "LIFE-033")
			if res.Verdict != reports.Pass {
				t.Fatalf("LIFE-033 on an agent closing the stream at AUTH_REQUIRED: %s: %s, want pass", res.Verdict, res.Reason)
			}
			found := false
			for k, v := range res.Observations {
				if strings.HasPrefix(k, "reading-") && strings.Contains(v, "§11.7") {
					found = true
				}
			}
			if !found {
				t.Errorf("LIFE-033 does not record the reading it saw: %v", res.Observations)
			}
			if r.exit != 0 {
				t.Errorf("exit %d", r.exit)
			}
		})
	}
}

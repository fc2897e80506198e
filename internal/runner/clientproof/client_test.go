package clientproof_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// runClientCLI runs `a2a-conform client` in a child (this test binary as
// the CLI), the driver command given.
func runClientCLI(t *testing.T, env []string, driver string, args ...string) cliRun {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(os.Args[0], append([]string{"client", "--out", out, "--client-cmd", driver}, args...)...)
	cmd.Env = append(append(os.Environ(), cliEnv+"=1"), env...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	r := cliRun{stdout: so.String(), stderr: se.String(), out: out}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running the CLI: %v", err)
	}
	if rep, err := reports.ReadJSON(filepath.Join(out, "report.json")); err == nil {
		r.report = rep
	}
	return r
}

// refDriver is the reference client driver: this test binary as the CLI
// (the child inherits cliEnv), with faults.
func refDriver(faults ...string) string {
	d := "'" + driverBin + "'"
	if len(faults) > 0 {
		d += " --fault " + strings.Join(faults, ",")
	}
	return d
}

// The reference client driver passes every client spec, on the clean
// scripted agent and on a slow one: the first half of each client spec's
// proof. The report is marked as a client run.
func TestClientReferenceDriverPassesEverySpec(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  []string
	}{{"clean", nil}, {"slow agent", []string{stepDelayEnv + "=700ms"}}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// Eight cases at once: they wait on the scripted agent (the
			// slow one's steps), not on the CPU.
			r := runClientCLI(t, tc.env, refDriver(), "--seed", "5", "--parallel", "8")
			if r.exit != 0 || r.report == nil {
				t.Fatalf("exit %d, report %v\nstdout:\n%s\nstderr:\n%s", r.exit, r.report != nil, r.stdout, r.stderr)
			}
			if r.report.Run.Mode != "client" || r.report.Implementation.Role != "client" {
				t.Errorf("report not marked as a client run: mode %q, role %q", r.report.Run.Mode, r.report.Implementation.Role)
			}
			if ps := reports.Verify(r.report, nil); len(ps) > 0 {
				t.Errorf("the client report does not verify: %v", ps)
			}
			want := len(suites.InSuites(suites.Client))
			if len(r.report.Results) != want {
				t.Errorf("%d results, want every client spec (%d)", len(r.report.Results), want)
			}
			for _, res := range r.report.Results {
				if res.Suite != suites.Client {
					t.Errorf("%s: a spec of suite %q ran in client mode", res.ID, res.Suite)
				}
				if res.Verdict != reports.Pass {
					t.Errorf("%s: %s: %s", res.ID, res.Verdict, res.Reason)
				}
			}
		})
	}
}

// Each client fault of the reference driver is caught by every spec it
// names (the second half of each client spec's proof) through the matrix's
// client rows: internal/cli's TestProofMatrixClientRows runs them all.

// refVariant is the reference client driver as one correct variant.
func refVariant(name string) string {
	return "'" + driverBin + "' --variant " + name
}

// Each correct variant of the reference client driver (a client that does
// one thing differently in a way the spec text allows) runs the whole client
// suite and gets no fail, and no warning or indeterminate its registry entry
// does not allow: the specs are not taught to the reference driver. The
// specs a variant names (whose other reading it takes) must pass it. The
// slow client runs on the slow scripted agent too. A proof test: it runs
// with A2A_CONFORM_PROOFS (testkit.ProofsEnv; .ci/run's proof step), each
// shard its share of the variants.
func TestProofClientVariantsGetNoUnallowedNonPass(t *testing.T) {
	shard := testkit.Proofs(t)
	t.Parallel()
	type run struct {
		name string
		v    clientdriver.Variant
		env  []string
	}
	// The slow client's two runs take four to five times as long as any
	// other: they start at once, the others six at a time (proofRuns).
	// When Go resumed them last they were the step's tail (103 s against
	// 78 s alone on two cores).
	slow, _ := clientdriver.LookupVariant("slow")
	runs := []run{{"slow on a slow agent", slow, []string{stepDelayEnv + "=700ms"}}, {slow.Name, slow, nil}}
	for _, v := range clientdriver.Variants() {
		if v.Name != slow.Name {
			runs = append(runs, run{v.Name, v, nil})
		}
	}
	for k, tc := range runs {
		if !shard.Takes(k) {
			continue
		}
		v := tc.v
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if v.Name != slow.Name {
				proofRuns.Enter(t)
			}
			r := runClientCLI(t, tc.env, refVariant(v.Name), "--seed", "5")
			if r.report == nil {
				t.Fatalf("no report (exit %d)\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
			}
			if want := len(suites.InSuites(suites.Client)); len(r.report.Results) != want {
				t.Errorf("%d results, want every client spec (%d)", len(r.report.Results), want)
			}
			if tr, ok := variantTraces[v.Name]; ok {
				for _, res := range r.report.Results {
					if res.ID != tr.spec {
						continue
					}
					if b, _ := json.Marshal(res); !strings.Contains(string(b), tr.text) {
						t.Errorf("%s's report does not show the variant's own branch (%q): the variant may have done what the reference does\n%s", tr.spec, tr.text, b)
					}
				}
			}
			named := map[string]bool{}
			for _, id := range v.Specs {
				named[id] = true
			}
			for _, res := range r.report.Results {
				_, allowed := v.Allowed[res.ID]
				switch {
				case res.Verdict == reports.Pass:
				case res.Verdict == reports.Fail,
					named[res.ID],
					(res.Verdict == reports.Warn || res.Verdict == reports.Indeterminate) && !allowed:
					t.Errorf("%s on correct client variant %s: %s: %s", res.ID, v.Name, res.Verdict, res.Reason)
				}
			}
		})
	}
}

// variantTraces is, per variant, a spec whose report shows that the variant
// took its own branch, not the reference driver's (what the spec observed).
// push-authentication, returns-immediately and slow leave no trace in a
// report's text; their branch is seen in the stage's records only.
var variantTraces = map[string]struct{ spec, text string }{
	"if-modified-since":            {"CLI-020", "with If-Modified-Since"},
	"raises-after-401":             {"CLI-037", "the client raised"},
	"resyncs-by-subscribe":         {"CLI-037", "SubscribeToTask), after its receiver refused a push"},
	"raises-stream-cut":            {"CLI-036", "the client raised the early end"},
	"falls-back-to-other-binding":  {"CLI-007", "interface 2 (HTTP+JSON) ×1"},
	"jsonrpc-only":                 {"CLI-006", `"bindings used":"JSONRPC"`},
	"http-json-only":               {"CLI-005", "interface 2 (HTTP+JSON)"},
	"raises-terminal-after-cancel": {"CLI-023", "error protocol"},
	"raises-unsupported-streaming": {"CLI-039", "error unsupported-operation"},
	"resubmits-openly":             {"CLI-021", "re-submitted the lost task"},
	"streaming-refused-sends":      {"CLI-029", "gave up streaming"},
	"rejects-invalid-payloads":     {"CLI-032", "the client refused the payload (parse"},
	"gets-task-after-push":         {"CLI-022", `\"via\":\"poll\"`},
	"own-push-tokens":              {"CLI-026", "0 of 2 configs carry the token the driver was given"},
	"card-without-version":         {"CLI-001", `"case send: card fetches with A2A-Version":"0 of 1`},
	// The header moved to the query string, on the card fetch as on every
	// operation.
	"query-version": {"CLI-001", `"case send: card fetches with A2A-Version":"0 of 1`},
	// It takes the 0.3 interface: CLI-005's disputed finding.
	"binding-only-selection": {"CLI-005", "disputed (case version-0.3-first): the client chose interface 0, which declares protocolVersion 0.3"},
}

// A variant's registry entry names client specs only, and a variant is
// never also a fault.
func TestClientVariantsNameClientSpecs(t *testing.T) {
	for _, v := range clientdriver.Variants() {
		for _, id := range append(append([]string(nil), v.Specs...), sortedIDs(v.Allowed)...) {
			if info, ok := suites.Lookup(id); !ok || info.Suite != suites.Client {
				t.Errorf("client variant %s names %s, not a client spec", v.Name, id)
			}
		}
		if _, ok := clientdriver.LookupFault(v.Name); ok {
			t.Errorf("%s is both a client fault and a client variant", v.Name)
		}
	}
}

func sortedIDs(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Bad drivers never fail a client: a driver that hangs, crashes, prints
// garbage or never connects makes its case could-not-run, naming the
// cause; a hung driver's whole process group is killed; a driver that
// never reaches the scripted agent in any case exits 3.
func TestClientBadDriversCouldNotRun(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	for _, tc := range []struct {
		name, driver string
		exit         int
		reason       string
	}{
		{"hangs", `/bin/sh -c 'sleep 300 & echo $! > ` + pidFile + `; wait'`, 3, "did not finish within"},
		{"crashes", `/bin/sh -c 'echo boom-on-stderr >&2; exit 7'`, 3, "exit status 7"},
		{"garbage", `/bin/sh -c 'echo this is not json; echo "{not json either"'`, 3, "printed no JSON result line"},
		{"never connects", `/bin/sh -c 'echo "{\"action\":\"send\",\"state\":\"TASK_STATE_COMPLETED\"}"'`, 3, "never reached the scripted agent"},
		{"no such command", `/nonexistent/driver`, 3, "could not be started"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runClientCLI(t, nil, tc.driver, "--focus", "CLI-004", "--timeout", "3s")
			if r.report == nil {
				t.Fatalf("no report (exit %d)\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
			}
			if r.exit != tc.exit {
				t.Errorf("exit %d, want %d", r.exit, tc.exit)
			}
			res := r.report.Results[0]
			if res.Verdict != reports.CouldNotRun || !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("%s: %s, want could-not-run naming %q: %s", res.ID, res.Verdict, tc.reason, res.Reason)
			}
			if tc.name == "crashes" && !strings.Contains(res.Reason, "boom-on-stderr") {
				t.Errorf("the reason does not quote the driver's stderr: %s", res.Reason)
			}
		})
	}
	t.Cleanup(func() {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			t.Errorf("the hanging driver's grandchild never wrote its pid: %v", err)
			return
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		// Killed with the group: gone, or a zombie until reaped.
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if syscall.Kill(pid, 0) != nil || isZombie(pid) {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the hanging driver's grandchild %d outlived the case: its process group was not killed", pid)
	})
}

func isZombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && len(s) > i+2 && s[i+2] == 'Z'
}

// Every client spec is proved by a client fault that names it, and every
// spec a client fault names is a client spec.
func TestClientFaultsNameEveryClientSpec(t *testing.T) {
	named := map[string]bool{}
	for _, f := range clientdriver.Faults() {
		for _, id := range f.Specs {
			info, ok := suites.Lookup(id)
			if !ok || info.Suite != suites.Client {
				t.Errorf("client fault %s names %s, not a client spec", f.Name, id)
			}
			named[id] = true
		}
	}
	for _, info := range suites.InSuites(suites.Client) {
		if !named[info.ID] {
			t.Errorf("%s: no client fault names it, so nothing proves it can fail", info.ID)
		}
	}
}

// CLI-007 does not pass a client that never falls back by luck of where the
// working interface is listed: a client that takes the last interface of its
// binding, as @a2a-js/sdk 1.3.0 does, and never falls back warns; the same
// client with fallback passes (its choice is CLI-005's question).
func TestClientFallbackCatchesALastPicker(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		faults []string
		want   reports.Verdict
	}{
		{[]string{"picks-last-interface", "no-fallback"}, reports.Warn},
		{[]string{"picks-last-interface"}, reports.Pass},
	} {
		t.Run(strings.Join(tc.faults, ","), func(t *testing.T) {
			t.Parallel()
			r := runClientCLI(t, nil, refDriver(tc.faults...), "--seed", "5", "--focus", "CLI-007")
			if r.report == nil {
				t.Fatalf("no report (exit %d)\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
			}
			if got := verdicts(r.report)["CLI-007"]; got != tc.want {
				t.Errorf("CLI-007: %s, want %s\n%s", got, tc.want, r.stdout)
			}
		})
	}
}

// CLI-037 takes an error as the client's decision to raise the refused
// push only when it is one: the raises-after-401 variant passes with its
// auth error, and the same client reporting a transport error instead (it
// could not go on, whatever it would have decided) is indeterminate, not
// a pass.
func TestCLI037TransportErrorIsNoDecision(t *testing.T) {
	t.Parallel()
	raw := runClientCLI(t, nil, refVariant("raises-after-401"), "--seed", "5", "--focus", "CLI-037")
	if res := result(t, raw, "CLI-037"); res.Verdict != reports.Pass {
		t.Fatalf("CLI-037 %s on a client that raises the refusal: %s", res.Verdict, res.Reason)
	}
	wrapped := fmt.Sprintf(`/bin/sh -c "'%s' --variant raises-after-401 | sed 's/\"class\":\"auth\"/\"class\":\"transport\"/'"`, driverBin)
	r := runClientCLI(t, nil, wrapped, "--seed", "5", "--focus", "CLI-037")
	if res := result(t, r, "CLI-037"); res.Verdict != reports.Indeterminate || !strings.Contains(res.Reason, "transport error") {
		t.Fatalf("CLI-037 %s on a client that stopped on a transport error, want indeterminate naming it: %s", res.Verdict, res.Reason)
	}
}

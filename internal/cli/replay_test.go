package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/replay"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/internal/topology"
	"github.com/a2a-conform/a2a-conform/reports"
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
	t.Parallel()
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

// restartable serves one reference-agent instance (the embedded driver) on a
// fixed loopback address, and returns its URL and a hook command that
// restarts it (same address and store; whatever it held in memory is gone):
// the command asks through a FIFO and waits for the restart's answer on
// another, with the hooks driver's contract.
func restartable(t *testing.T, tweak func(*fakes.Options), faults ...string) (string, string) {
	t.Helper()
	ctx := context.Background()
	e, err := topology.StartEmbedded(ctx, topology.EmbeddedOptions{Faults: faults, Tweak: tweak})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() }) // after the hook's own cleanup (LIFO)
	return e.URL(), fifoHook(t, func() error { return e.Restart(ctx) })
}

// every maps each of b's roles to u.
func every(b *replay.Bundle, u string) map[string]string {
	m := map[string]string{}
	for _, r := range b.Roles() {
		m[r] = u
	}
	return m
}

// runFailing runs one spec against the embedded agent with a fault, in a
// child, and returns its replay bundle's path.
func runFailing(t *testing.T, fault, spec string) string {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(os.Args[0], "run", "--fault", fault, "--focus", spec, "--out", out)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	if b, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("the faulty run passed:\n%s", b)
	}
	return filepath.Join(out, "replay", spec+".json")
}

// A task lost across the roll is reproduced from the bundle alone: ROLL-002
// on lose-tasks-on-restart (the follow-up to the lost task answered with a
// fresh task) and ROLL-003 (the rollout's tasks not found after it). The
// roll is a step, performed by the vendor's command (here one that restarts
// the faulty agent), and judged as the spec judged it; an agent whose tasks
// survive its restart, quick or slow, does not reproduce it. Without a
// command for the step the replay says it cannot reproduce.
func TestReplayRollBundleReproducesALostTask(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ spec, invariant string }{
		{"ROLL-002", "lost-task-not-recreated"},
		{"ROLL-003", "task-survives-rollout"},
	} {
		t.Run(c.spec, func(t *testing.T) { replayRoll(t, c.spec, c.invariant) })
	}
}

func replayRoll(t *testing.T, spec, invariant string) {
	path := runFailing(t, "lose-tasks-on-restart", spec)
	b, err := replay.Read(path)
	if err != nil {
		t.Fatalf("no bundle: %v", err)
	}
	if len(b.Steps) != 1 || b.Steps[0].Kind != "roll" || !slices.Contains(b.Judges, invariant) {
		t.Fatalf("bundle steps %+v, judges %v: want the roll and %s", b.Steps, b.Judges, invariant)
	}
	if roles := b.Roles(); len(roles) < 2 || !slices.Contains(roles, "instance-0") {
		t.Errorf("roles %v: want the target and each instance the spec read", roles)
	}
	ctx := context.Background()

	badURL, restart := restartable(t, nil, "lose-tasks-on-restart")
	_, err = replay.Run(ctx, b, replay.Options{Targets: every(b, badURL)})
	var cannot *replay.CannotReplay
	if !errors.As(err, &cannot) || !strings.Contains(err.Error(), "--hook-rollout-step") {
		t.Errorf("a replay without a command for the roll: got %v, want a CannotReplay naming the hook flags", err)
	}
	// The CLI says so with its own exit status, never "not reproduced".
	var so, se bytes.Buffer
	args := []string{"replay", path}
	for _, r := range b.Roles() {
		args = append(args, "--target", r+"="+badURL)
	}
	if code := Main(args, &so, &se); code != ExitCannotReplay || strings.Contains(so.String(), "not reproduced this time") {
		t.Errorf("replay without a hook: exit %d, want %d:\n%s%s", code, ExitCannotReplay, so.String(), se.String())
	}

	// The step's accepted points, in the spec's order: ROLL-003 takes only
	// a rollout step, ROLL-002 also a restart.
	point := b.Steps[0].Accepts[len(b.Steps[0].Accepts)-1]
	bad, err := replay.Run(ctx, b, replay.Options{Targets: every(b, badURL), Hooks: map[string]string{point: restart}})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad.Steps) != 1 {
		t.Errorf("steps performed: %+v", bad.Steps)
	}
	if !slices.ContainsFunc(bad.Violations, func(v invariants.Violation) bool { return v.Invariant == invariant }) {
		t.Errorf("the lost task was not reproduced against an agent that loses it: %+v (other: %+v)", bad.Violations, bad.Other)
	}
	// Through the CLI, with the same command as a hook flag.
	so.Reset()
	se.Reset()
	if code := Main(append(args, "--hook-"+point, restart), &so, &se); code != runner.ExitFailed {
		t.Errorf("replay with the hook: exit %d, want %d:\n%s%s", code, runner.ExitFailed, so.String(), se.String())
	}
	t.Logf("replay with the hook:\n%s", so.String())

	for name, tweak := range map[string]func(*fakes.Options){
		"clean": nil,
		"slow":  func(o *fakes.Options) { o.StepDelay = 2 * time.Second; o.PromptMap = true; o.DisableDirective = true },
	} {
		goodURL, restartGood := restartable(t, tweak)
		good, err := replay.Run(ctx, b, replay.Options{Targets: every(b, goodURL), Hooks: map[string]string{"rollout-step": restartGood}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, v := range good.Violations {
			t.Errorf("%s: an agent whose tasks survive violated %s at %s: %s", name, v.Invariant, v.Where, v.Actual)
		}
		if len(good.Steps) != 1 {
			t.Errorf("%s: steps performed: %+v", name, good.Steps)
		}
	}
}

// A cancel acknowledged through one instance and not propagated to the one
// running the task (ROLL-006 on cancel-acked-not-propagated) is reproduced
// by a bundle whose requests go, by role, to each instance of another
// deployment with the bug, and not against a deployment without it. A
// single --target for a bundle of several roles is refused.
func TestReplayCrossInstanceBundleReproducesTheFailure(t *testing.T) {
	t.Parallel()
	path := runFailing(t, "cancel-acked-not-propagated", "ROLL-006")
	b, err := replay.Read(path)
	if err != nil {
		t.Fatalf("no bundle: %v", err)
	}
	if len(b.Roles()) < 2 {
		t.Fatalf("roles %v: want one per instance", b.Roles())
	}
	ctx := context.Background()
	deploy := func(faults ...string) map[string]string {
		_, m := deployRoles(t, b, nil, faults...)
		return m
	}
	if _, err := replay.Run(ctx, b, replay.Options{Target: "http://127.0.0.1:1"}); err == nil || !strings.Contains(err.Error(), "ROLE=URL") {
		t.Errorf("one URL for a bundle of roles %v: got %v", b.Roles(), err)
	}
	bad, err := replay.Run(ctx, b, replay.Options{Targets: deploy("cancel-acked-not-propagated")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(bad.Violations, func(v invariants.Violation) bool { return v.Invariant == "cancel-acknowledged-is-final" }) {
		t.Errorf("the cancel was not reproduced as not final against instances with the bug: %+v", bad.Violations)
	}
	t.Logf("%d requests replayed; %d violations against the faulty deployment, the first: %+v", len(bad.Sent), len(bad.Violations), bad.Violations[:min(1, len(bad.Violations))])
	good, err := replay.Run(ctx, b, replay.Options{Targets: deploy()})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range good.Violations {
		t.Errorf("a correct deployment violated %s at %s: %s", v.Invariant, v.Where, v.Actual)
	}
}

// A bundle holding a step of the harness's own stage (ROLL-007's CDN and
// builds), which no command of the vendor's stands for, says so when it is
// written; a replay that sees no violation without performing it cannot say
// "not reproduced", and exits 4.
func TestReplayWithoutTheHarnessStageCannotSayNotReproduced(t *testing.T) {
	t.Parallel()
	u := serveFake(t)
	r := &reports.Report{Run: reports.Run{Target: "http://127.0.0.1:9"}}
	res := reports.Result{ID: "ROLL-007", Verdict: reports.Fail,
		Violations: []invariants.Violation{{Invariant: "terminal-immutable"}},
		Steps:      []reports.Step{{AtMs: 5, DurMs: 1, Kind: "stage", Point: "next-build"}},
		Transcript: []reports.Exchange{{Seq: 1, AtMs: 1, DurMs: 1, Direction: "out", Method: "GET", URL: "http://127.0.0.1:9/.well-known/agent-card.json"},
			{Seq: 2, AtMs: 10, DurMs: 1, Direction: "out", Method: "GET", URL: "http://127.0.0.1:9/.well-known/agent-card.json"}}}
	b, why := replay.For(r, res)
	if b == nil {
		t.Fatalf("no bundle: %s", why)
	}
	if s := strings.Join(b.Skipped, "; "); !strings.Contains(s, "next-build") {
		t.Errorf("skipped %q does not name the stage it leaves out", s)
	}
	got, err := replay.Run(context.Background(), b, replay.Options{Target: u})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.LeftOut) != 1 || len(got.Sent) != 2 {
		t.Errorf("left out %v, sent %d", got.LeftOut, len(got.Sent))
	}
	data, _ := json.Marshal(b)
	path := filepath.Join(t.TempDir(), "ROLL-007.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var so, se bytes.Buffer
	if code := Main([]string{"replay", path, "--target", u}, &so, &se); code != ExitCannotReplay || strings.Contains(so.String(), "not reproduced") {
		t.Errorf("exit %d, want %d:\n%s%s", code, ExitCannotReplay, so.String(), se.String())
	}
}

// A replay that had nothing to judge its bundle's invariants by (here: a
// cancel-finality bundle whose requests hold no cancel) says what it could
// not judge and exits 4, never "not reproduced".
func TestReplayWithNothingToJudgeCannotSayNotReproduced(t *testing.T) {
	t.Parallel()
	u := serveFake(t)
	r := &reports.Report{Run: reports.Run{Target: "http://127.0.0.1:9"}}
	res := reports.Result{ID: "LIFE-012", Verdict: reports.Fail,
		Violations: []invariants.Violation{{Invariant: "cancel-acknowledged-is-final"}},
		Transcript: []reports.Exchange{{Seq: 1, AtMs: 1, DurMs: 1, Direction: "out", Method: "GET", URL: "http://127.0.0.1:9/.well-known/agent-card.json"}}}
	b, why := replay.For(r, res)
	if b == nil {
		t.Fatalf("no bundle: %s", why)
	}
	b.Judges = []string{"cancel-acknowledged-is-final"}
	got, err := replay.Run(context.Background(), b, replay.Options{Target: u})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got.Unjudged["cancel-acknowledged-is-final"]; !ok || len(got.Violations) != 0 {
		t.Fatalf("unjudged %v, violations %v", got.Unjudged, got.Violations)
	}
	data, _ := json.Marshal(b)
	path := filepath.Join(t.TempDir(), "LIFE-012.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var so, se bytes.Buffer
	code := Main([]string{"replay", path, "--target", u}, &so, &se)
	if code != ExitCannotReplay || strings.Contains(so.String(), "not reproduced this time") || !strings.Contains(so.String(), "not judged: cancel-acknowledged-is-final") {
		t.Errorf("exit %d, want %d:\n%s%s", code, ExitCannotReplay, so.String(), se.String())
	}
}

// fifoHook returns a hook command (the hooks driver's contract) that has do
// run in the test, asking through a FIFO and waiting for its answer on
// another: a change of the deployment the test makes on the vendor's behalf.
func fifoHook(t *testing.T, do func() error) string {
	t.Helper()
	dir := t.TempDir()
	req, ack := filepath.Join(dir, "req"), filepath.Join(dir, "ack")
	for _, p := range []string{req, ack} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("no FIFO for the hook command: %v", err)
		}
	}
	var stopped atomic.Bool
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		for {
			f, err := os.Open(req)
			if err != nil {
				return
			}
			_, _ = io.ReadAll(f)
			f.Close()
			if stopped.Load() {
				return
			}
			answer := "ok"
			if err := do(); err != nil {
				answer = "failed"
				t.Logf("hook: %v", err)
			}
			a, err := os.OpenFile(ack, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			fmt.Fprintln(a, answer)
			a.Close()
		}
	}()
	t.Cleanup(func() {
		stopped.Store(true)
		if f, err := os.OpenFile(req, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		<-gone
	})
	return fmt.Sprintf(`echo "$A2A_CONFORM_POINT" > %s && read r < %s && [ "$r" = ok ]`, req, ack)
}

// deployRoles starts a balanced embedded deployment of three instances and
// maps each of b's roles to it: instance-K to instance K's own URL, any
// other role to the balancer.
func deployRoles(t *testing.T, b *replay.Bundle, tweak func(*fakes.Options), faults ...string) (*topology.Embedded, map[string]string) {
	t.Helper()
	e, err := topology.StartEmbedded(context.Background(), topology.EmbeddedOptions{Faults: faults, Instances: 3, Balance: true, Tweak: tweak})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	m := map[string]string{}
	for _, r := range b.Roles() {
		var k int
		if _, err := fmt.Sscanf(r, "instance-%d", &k); err == nil {
			m[r] = e.InstanceURL(k)
		} else {
			m[r] = e.BalancerURL()
		}
	}
	return e, m
}

var slowAgent = func(o *fakes.Options) { o.StepDelay = 2 * time.Second; o.PromptMap = true; o.DisableDirective = true }

// A card whose validators do not follow it across a change of the
// deployment is reproduced from its bundle alone: ROLL-001 on
// etag-never-changes (a new card under the old ETag, and the old ETag
// revalidated with 304) and ROLL-008 on any-etag-not-modified (every
// revalidation answered 304). The change is the bundle's step, performed by
// the vendor's rotate-card command (here one that rotates the card of every
// instance); a deployment whose validators follow the card, quick or slow,
// does not reproduce it, and without the command the replay cannot.
func TestReplayCardBundleReproducesAStaleValidator(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		spec, fault string
		judges      []string
	}{
		{"ROLL-001", "etag-never-changes", []string{"etag-tracks-card", "revalidate-gets-new-card"}},
		{"ROLL-008", "any-etag-not-modified", []string{"revalidate-gets-new-card"}},
	} {
		t.Run(c.spec, func(t *testing.T) {
			path := runFailing(t, c.fault, c.spec)
			b, err := replay.Read(path)
			if err != nil {
				t.Fatalf("no bundle: %v", err)
			}
			if len(b.Steps) != 1 || !slices.Contains(b.Steps[0].Accepts, "rotate-card") {
				t.Fatalf("steps %+v: want the change, accepting rotate-card", b.Steps)
			}
			for _, j := range c.judges {
				if !slices.Contains(b.Judges, j) {
					t.Errorf("judges %v lack %s", b.Judges, j)
				}
			}
			ctx := context.Background()
			_, urls := deployRoles(t, b, nil, c.fault)
			if _, err := replay.Run(ctx, b, replay.Options{Targets: urls}); !strings.Contains(fmt.Sprint(err), "--hook-rotate-card") {
				t.Errorf("a replay without a command for the change: got %v, want a CannotReplay naming --hook-rotate-card", err)
			}
			for name, faulty := range map[string]bool{"faulty": true, "clean": false, "slow": false} {
				var tweak func(*fakes.Options)
				var faults []string
				if name == "slow" {
					tweak = slowAgent
				}
				if faulty {
					faults = []string{c.fault}
				}
				e, urls := deployRoles(t, b, tweak, faults...)
				rotate := fifoHook(t, func() error { e.Rotate(fakes.Rotation{}); return nil })
				got, err := replay.Run(ctx, b, replay.Options{Targets: urls, Hooks: map[string]string{"rotate-card": rotate}})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(got.Steps) != 1 {
					t.Errorf("%s: steps performed %+v", name, got.Steps)
				}
				switch {
				case faulty:
					for _, j := range c.judges {
						if !slices.ContainsFunc(got.Violations, func(v invariants.Violation) bool { return v.Invariant == j }) {
							t.Errorf("%s not reproduced against a deployment with %s: %+v (other: %+v)", j, c.fault, got.Violations, got.Other)
						}
					}
					t.Logf("%d requests replayed; the first violation: %+v", len(got.Sent), got.Violations[:min(1, len(got.Violations))])
				default:
					for _, v := range got.Violations {
						t.Errorf("%s: a deployment whose validators follow its card violated %s at %s: %s", name, v.Invariant, v.Where, v.Actual)
					}
				}
			}
			// Through the CLI, with the command as a hook flag: exit 1.
			e, urls := deployRoles(t, b, nil, c.fault)
			args := []string{"replay", path, "--hook-rotate-card", fifoHook(t, func() error { e.Rotate(fakes.Rotation{}); return nil })}
			for r, u := range urls {
				args = append(args, "--target", r+"="+u)
			}
			var so, se bytes.Buffer
			if code := Main(args, &so, &se); code != runner.ExitFailed {
				t.Errorf("replay with the hook: exit %d, want %d:\n%s%s", code, runner.ExitFailed, so.String(), se.String())
			}
		})
	}
}

// A subscription through one instance to a task worked on another that
// gets the snapshot and then silence (ROLL-005 on stream-events-stay-local)
// is reproduced from its bundle against a deployment with the bug, and not
// against one without it, quick or slow: the stream is held, past its
// recorded end and past the task seen terminal through the other instance,
// for the grace the spec gave it (at least 2 s).
func TestReplayStreamBundleReproducesAStreamAcrossInstances(t *testing.T) {
	t.Parallel()
	path := runFailing(t, "stream-events-stay-local", "ROLL-005")
	b, err := replay.Read(path)
	if err != nil {
		t.Fatalf("no bundle: %v", err)
	}
	if !slices.Contains(b.Judges, "stream-across-instances") || len(b.Roles()) < 2 {
		t.Fatalf("judges %v, roles %v: want stream-across-instances over two instances", b.Judges, b.Roles())
	}
	ctx := context.Background()
	for name, faulty := range map[string]bool{"faulty": true, "clean": false, "slow": false} {
		var tweak func(*fakes.Options)
		var faults []string
		if name == "slow" {
			tweak = slowAgent
		}
		if faulty {
			faults = []string{"stream-events-stay-local"}
		}
		_, urls := deployRoles(t, b, tweak, faults...)
		got, err := replay.Run(ctx, b, replay.Options{Targets: urls})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		streamed := slices.ContainsFunc(got.Sent, func(s replay.Sent) bool { return s.Events > 0 })
		if !streamed {
			t.Errorf("%s: no replayed request streamed events: %+v", name, got.Sent)
		}
		if faulty {
			if !slices.ContainsFunc(got.Violations, func(v invariants.Violation) bool { return v.Invariant == "stream-across-instances" }) {
				t.Errorf("not reproduced against a deployment with the bug: %+v (other: %+v)", got.Violations, got.Other)
			} else {
				t.Logf("reproduced: %+v", got.Violations[0])
			}
			continue
		}
		for _, v := range got.Violations {
			t.Errorf("%s: a deployment whose streams see every instance's events violated %s at %s: %s", name, v.Invariant, v.Where, v.Actual)
		}
		// No violation means something only if a stream was judged.
		if why, unjudged := got.Unjudged["stream-across-instances"]; unjudged {
			t.Errorf("%s: no violation, but no stream was judged: %s", name, why)
		}
		// The subscription followed the task on the other instance: the
		// snapshot and at least its terminal event.
		for _, sent := range got.Sent {
			if sent.Events > 0 {
				t.Logf("%s: the subscription #%d through %s got %d events", name, sent.Seq, sent.Role, sent.Events)
				if sent.Events < 2 {
					t.Errorf("%s: the subscription got only %d event(s)", name, sent.Events)
				}
			}
		}
	}
}

// A conditional card read sends the ETag the replay's own earlier read got
// in place of the recorded one, so a deployment whose ETags differ from the
// recording's is revalidated as the spec revalidated it.
func TestReplayRevalidatesWithTheReplayedETag(t *testing.T) {
	t.Parallel()
	u := serveFake(t)
	card := "http://127.0.0.1:9/.well-known/agent-card.json"
	r := &reports.Report{Run: reports.Run{Target: "http://127.0.0.1:9"}}
	res := reports.Result{ID: "ROLL-001", Verdict: reports.Fail,
		Violations: []invariants.Violation{{Invariant: "etag-tracks-card"}},
		Steps:      []reports.Step{{AtMs: 20, DurMs: 1, Kind: "hook", Point: "rotate-card"}},
		Transcript: []reports.Exchange{
			{Seq: 1, AtMs: 1, DurMs: 1, Direction: "out", Method: "GET", URL: card, Status: 200, RespHeader: http.Header{"Etag": {`"recorded-1"`}}},
			{Seq: 2, AtMs: 5, DurMs: 1, Direction: "out", Method: "GET", URL: card, Status: 304, ReqHeader: http.Header{"If-None-Match": {`"recorded-1"`}}},
		}}
	b, why := replay.For(r, res)
	if b == nil {
		t.Fatalf("no bundle: %s", why)
	}
	got, err := replay.Run(context.Background(), b, replay.Options{Target: u, Hooks: map[string]string{"rotate-card": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Sent) != 2 || got.Sent[1].Status != http.StatusNotModified {
		t.Errorf("the conditional read: %+v, want 304 for the ETag the replay's first read got", got.Sent)
	}
}

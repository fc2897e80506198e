// Package interop runs the harness against agents nobody here wrote the
// protocol code of, and holds their expected verdicts.
//
// js-agent/ is a small agent on the official JS SDK (@a2a-js/sdk, pinned by
// its package-lock.json) with the directive extension. Two tests start it
// through the process driver and run every suite against it:
//
//   - TestJSSDKAgent: one instance, tasks in the SDK's in-memory store,
//     compared with baseline.json;
//   - TestJSSDKAgentInstances: three instances sharing the SDK's own
//     database stores (@a2a-js/sdk/server/database on one SQLite file)
//     behind the harness's balancer, rolled by the rollout suite to a next
//     build (--agent-cmd-next, another card version), compared with
//     baseline-instances.json.
//
// go-agent/ is a small agent on the official Go SDK (a2a-go v2.4.0, its own
// Go module, so the harness's module never depends on it) with the same
// extension; three tests build it and run it:
//
//   - TestGoSDKAgent: one instance, the SDK's push SSRF guard off
//     (--allow-private-networks), every suite, compared with
//     baseline-go.json;
//   - TestGoSDKAgentGuard: one instance as the SDK ships it, guard on, the
//     webhook suite, compared with baseline-go-guard.json;
//   - TestGoSDKAgentInstances: three instances, each with its own in-memory
//     stores, behind the harness's balancer, the rollout suite, rolled to a
//     next build with another card version, compared with
//     baseline-go-instances.json.
//
// In each baseline every non-pass carries a one-line reason citing
// ../../shared/a2a-v1.md. A verdict that changes fails the test: either the
// SDK, the agent or the harness changed, and someone must say which.
// UPDATE_BASELINE=1 rewrites the verdicts of both and keeps the reasons of
// the ones unchanged; a new non-pass gets a TODO that fails the test until a
// person writes its reason.
package interop

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/cli"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// cliEnv makes the test binary act as the CLI, so the run gets a process of
// its own (one Ginkgo run per process).
const cliEnv = "A2A_CONFORM_INTEROP_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	// The runs here mostly wait on the agents, but the JS SDK agent's
	// node processes need the CPU: all seven at once took 51 s alone on 2
	// cores, but beside internal/runner both JS agent runs drifted (an
	// instance starved past three 30 s request timeouts) and ran again.
	// Four at a time: the two longest (the JS SDK agent's instances, about
	// 65 s alone and 150 s beside internal/runner, and the JS SDK client)
	// start at once, the other five two at a time (shortRuns). With four
	// places for all seven, Go resumed the longest after two others and it
	// was the package's tail. Every test starts (-parallel 8) unless
	// -parallel says otherwise.
	testkit.DefaultParallel(8)
	code := m.Run()
	if goAgentDir != "" {
		_ = os.RemoveAll(goAgentDir)
	}
	os.Exit(code)
}

// shortRuns holds the runs other than the two longest to two at a time.
var shortRuns = testkit.NewLimit(2)

// The baselines, one per deployment of the agent.
const (
	baselineFile          = "baseline.json"
	instancesBaselineFile = "baseline-instances.json"
)

// instances is how many agent instances the multi-instance run starts: three,
// as the embedded driver does for the rollout suite, so that ROLL-006's
// cancel crosses to a third instance's stream.
const instances = 3

// npmCITimeout bounds `npm ci`: seconds from the npm registry or its
// cache (the agent's SQLite binding, libsql, ships its binaries there).
const npmCITimeout = 6 * time.Minute

// runTimeout bounds one harness run (about 15 s for one instance and 25 s
// for three on the 2-core machine).
const runTimeout = 5 * time.Minute

// Baseline is baseline.json: the expected verdict of every spec.
type Baseline struct {
	Agent string           `json:"agent"`
	Note  string           `json:"note,omitempty"`
	Specs map[string]Entry `json:"specs"`
}

// Entry is one spec's expected verdict; Why is required for every non-pass
// (not-applicable included): one line, citing a2a-v1.md.
type Entry struct {
	Verdict reports.Verdict `json:"verdict"`
	Why     string          `json:"why,omitempty"`
}

const todo = "TODO: justify against ../shared/a2a-v1.md, or fix the harness"

// need finds a tool or skips loudly (fails in CI, where .ci/run installs it).
func need(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err == nil {
		return p
	}
	msg := fmt.Sprintf("%s not on PATH: the interop test against the JS SDK agent needs node and npm (apt-get install -y nodejs npm)", tool)
	if os.Getenv("CI") != "" {
		t.Fatal(msg + "; .ci/run must install them")
	}
	t.Skip("SKIPPING the JS SDK interop test: " + msg)
	return ""
}

// TestJSSDKAgent runs the agent as its SDK ships it: one instance, tasks
// in memory. The JS SDK never retries a push the receiver refused, so
// PUSH-007 waits 10 s for the retry, not the default 25 s: the same
// verdict, the run 15 s shorter (so does TestJSSDKAgentInstances).
func TestJSSDKAgent(t *testing.T) {
	t.Parallel()
	shortRuns.Enter(t)
	node, agent := jsAgent(t)
	cmd := fmt.Sprintf("'%s' '%s' --port {port}", node, agent)
	compare(t, "run", baselineFile, "--agent-cmd", cmd, "--push-retry-wait", "10s", "--seed", "12")
}

// TestJSSDKAgentInstances runs the agent as a deployment: three instances
// sharing tasks and push configs through the SDK's database stores on one
// SQLite file ({store}),
// behind the harness's balancer, with every suite, the rollout suite
// included. The rollout suite replaces the instances by a next build
// (--agent-cmd-next) that serves another card version, {generation} in it,
// so that ROLL-001 and ROLL-008 see a card change.
func TestJSSDKAgentInstances(t *testing.T) {
	t.Parallel()
	node, agent := jsAgent(t)
	cmd := fmt.Sprintf("'%s' '%s' --port {port} --store {store} --name js-sdk-{instance}", node, agent)
	compare(t, "run", instancesBaselineFile, "--agent-cmd", cmd,
		"--agent-cmd-next", cmd+" --card-version 1.{generation}.0",
		"--instances", fmt.Sprint(instances), "--push-retry-wait", "10s", "--seed", "12")
}

// The Go SDK agent's baselines (go-agent/).
const (
	goBaselineFile          = "baseline-go.json"
	goGuardBaselineFile     = "baseline-go-guard.json"
	goInstancesBaselineFile = "baseline-go-instances.json"
)

// goBuildTimeout bounds fetching go-agent's modules and building it: about
// 30 s on 2 cores from an empty module cache, a second or two after.
const goBuildTimeout = 5 * time.Minute

// TestGoSDKAgent runs the Go SDK agent alone with its push SSRF guard off
// (--allow-private-networks), so that the webhook specs are judged, with
// every suite. a2a-go v2.4.0 never retries a push (HTTPPushSender.SendPush
// makes one attempt), so PUSH-007 waits 10 s for the retry, not 25 s: the
// verdict is the same, the run 15 s shorter. The package's tests run three
// at a time (TestMain): the runs mostly wait on the agents.
func TestGoSDKAgent(t *testing.T) {
	t.Parallel()
	shortRuns.Enter(t)
	agent := goAgent(t)
	compare(t, "run", goBaselineFile, "--agent-cmd", fmt.Sprintf("'%s' --port {port} --allow-private-networks", agent),
		"--push-retry-wait", "10s", "--seed", "12")
}

// TestGoSDKAgentGuard runs the Go SDK agent as the SDK ships it: its push
// sender refuses, at dial time, every loopback and private address, so the
// harness's receiver on 127.0.0.1 never gets a push. Only the webhook suite
// runs: outside it only ROLL-004 registers a webhook on one instance (its
// push part could-not-run, for the same reason), and every other spec sees
// what TestGoSDKAgent sees. Every wait of this run is for a push the guard
// has already refused (the dial fails within a millisecond of each event),
// so a 5 s patience tells as much as the default 10 s.
func TestGoSDKAgentGuard(t *testing.T) {
	t.Parallel()
	shortRuns.Enter(t)
	agent := goAgent(t)
	compare(t, "run", goGuardBaselineFile, "--agent-cmd", fmt.Sprintf("'%s' --port {port}", agent),
		"--suite", suites.Webhook, "--patience", "5s", "--seed", "12")
}

// TestGoSDKAgentInstances runs three Go SDK agents behind the harness's
// balancer, each with the SDK's in-memory stores (the SDK's library has no
// other; its experimental cluster mode needs a store of the operator's), so
// a task is known only to the instance that created it and is lost when
// that instance is replaced. Only the rollout suite runs: the balancer
// keeps every other suite's calls on one instance, where they see what
// TestGoSDKAgent sees. The rollout suite rolls the instances to a next
// build that serves another card version.
func TestGoSDKAgentInstances(t *testing.T) {
	t.Parallel()
	shortRuns.Enter(t)
	agent := goAgent(t)
	cmd := fmt.Sprintf("'%s' --port {port} --allow-private-networks --name go-sdk-{instance}", agent)
	compare(t, "run", goInstancesBaselineFile, "--agent-cmd", cmd,
		"--agent-cmd-next", cmd+" --card-version 1.{generation}.0",
		"--instances", fmt.Sprint(instances), "--suite", suites.Rollout, "--seed", "12")
}

// goAgent builds go-agent once per test binary and returns the binary's
// path. Fetching its modules needs the Go module proxy (or a module cache
// that has them): without either the tests skip loudly, and fail in CI. A
// build that fails once the modules are there is a failure everywhere.
func goAgent(t *testing.T) string {
	t.Helper()
	goBuildOnce.Do(func() { goAgentPath, goFetchErr, goBuildErr = buildGoAgent() })
	if goFetchErr != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(goFetchErr)
		}
		t.Skip("SKIPPING the Go SDK interop test: " + goFetchErr)
	}
	if goBuildErr != "" {
		t.Fatal(goBuildErr)
	}
	return goAgentPath
}

var (
	goBuildOnce             sync.Once
	goAgentDir, goAgentPath string
	goFetchErr, goBuildErr  string
)

// buildGoAgent downloads go-agent's modules (go mod download, as go.sum
// pins them) and builds it into a directory of its own, removed when the
// test binary exits. It returns the binary, or what went wrong fetching
// (fetchErr) or building (buildErr).
func buildGoAgent() (bin, fetchErr, buildErr string) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", "the go command is not on PATH: the Go SDK interop test builds go-agent with it", ""
	}
	src, err := filepath.Abs("go-agent")
	if err != nil {
		return "", "", err.Error()
	}
	goAgentDir, err = os.MkdirTemp("", "a2a-conform-go-agent-")
	if err != nil {
		return "", "", err.Error()
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = src
		// The nested module builds on its own: no workspace, no flags of
		// the caller's (-mod=vendor would refuse a module without one).
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		return bounded(cmd, goBuildTimeout)
	}
	if out, err := run("mod", "download"); err != nil {
		return "", fmt.Sprintf("go mod download in %s failed (%v): is the Go module proxy (GOPROXY) or a module cache holding github.com/a2aproject/a2a-go/v2 v2.4.0 reachable?\n%s", src, err, out), ""
	}
	bin = filepath.Join(goAgentDir, "go-agent")
	if out, err := run("build", "-o", bin, "."); err != nil {
		return "", "", fmt.Sprintf("go build in %s failed (%v):\n%s", src, err, out)
	}
	return bin, "", ""
}

// jsAgent finds node and installs the agent's locked dependencies; it
// returns node's path and agent.js's.
func jsAgent(t *testing.T) (node, agent string) {
	t.Helper()
	node, dir := npmInstalled(t, "js-agent", "the JS SDK interop test")
	return node, filepath.Join(dir, "agent.js")
}

// npmInstalled finds node and npm and installs the locked dependencies of
// the npm package in sub (once per test binary and package); it returns
// node's path and the package's. Without node, npm or a reachable registry
// or cache, what (the test's name) skips loudly, and fails in CI.
func npmInstalled(t *testing.T, sub, what string) (node, dir string) {
	t.Helper()
	node = need(t, "node")
	npm := need(t, "npm")
	dir, err := filepath.Abs(sub)
	if err != nil {
		t.Fatal(err)
	}
	npmMu.Lock()
	in := npmInstalls[dir]
	if in == nil {
		in = &npmInstall{}
		npmInstalls[dir] = in
	}
	npmMu.Unlock()
	in.once.Do(func() { in.err = npmCI(npm, dir) })
	if in.err != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(in.err)
		}
		t.Skip("SKIPPING " + what + ": " + in.err)
	}
	return node, dir
}

// npmInstall is one package's install, run once per test binary.
type npmInstall struct {
	once sync.Once
	err  string
}

var (
	npmMu       sync.Mutex
	npmInstalls = map[string]*npmInstall{}
)

// compare runs the CLI's command (run, or client for a client baseline)
// with args and compares every spec's verdict with the baseline file
// (rewriting it first under UPDATE_BASELINE).
//
// A run whose verdicts drift from the baseline runs once more, and the test
// fails only when the second run drifts too: on a loaded 2-core machine an
// SDK task can finish before a spec's "still working" probe reaches it, and
// the spec honestly says indeterminate; a real change of the SDK or of a
// spec drifts in both runs (drifts of the first run are logged).
func compare(t *testing.T, command, file string, args ...string) {
	t.Helper()
	problems, stdout := compareOnce(t, command, file, args...)
	if len(problems) > 0 && os.Getenv("UPDATE_BASELINE") == "" {
		t.Logf("%s: %d verdict(s) drifted from the baseline; running once more:\n  %s", file, len(problems), strings.Join(problems, "\n  "))
		problems, stdout = compareOnce(t, command, file, args...)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) > 0 {
		t.Logf("the run printed:\n%s", stdout)
	}
}

// compareOnce runs the CLI's command once and lists where its verdicts
// differ from the baseline file.
func compareOnce(t *testing.T, command, file string, args ...string) ([]string, string) {
	t.Helper()
	out := t.TempDir()
	began := time.Now()
	rep, stdout := runChild(t, command, out, args...)
	if rep == nil {
		t.Fatalf("no report.json; the run printed:\n%s\nagent.log:\n%s", stdout, tail(filepath.Join(out, "agent.log")))
	}
	t.Logf("%s: the run took %s: %s", file, time.Since(began).Round(100*time.Millisecond), counts(rep))
	got := map[string]reports.Result{}
	for _, r := range rep.Results {
		got[r.ID] = r
	}

	base := readBaseline(t, file)
	if os.Getenv("UPDATE_BASELINE") != "" {
		writeBaseline(t, file, base, got)
		base = readBaseline(t, file)
	}

	// An agent run covers the agent suites (or those --suite names); a
	// client run (a2a-conform client) the client suite: `run` never
	// selects the client specs.
	names := suites.SuiteNames
	if sel := flagValue(args, "--suite"); sel != "" {
		names = strings.Split(sel, ",")
	}
	if command == "client" {
		names = []string{suites.Client}
	}
	var ids []string
	for _, info := range suites.InSuites(names...) {
		ids = append(ids, info.ID)
	}
	problems := diffBaseline(file, base, ids, got)
	slices.Sort(problems)
	return problems, stdout
}

// flagValue is the value args give flag ("--flag value" or "--flag=value"),
// or "".
func flagValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
	}
	return ""
}

// diffBaseline lists where the verdicts got of the specs ids differ from
// the baseline read from file: a spec it names that is gone, a spec not in
// the report or not in the baseline, a verdict changed, a non-pass without
// its justification. Agent and client baselines are compared this one way.
func diffBaseline(file string, base Baseline, ids []string, got map[string]reports.Result) []string {
	var problems []string
	for id := range base.Specs {
		if !slices.Contains(ids, id) {
			problems = append(problems, fmt.Sprintf("%s: in %s but no longer a registered spec (UPDATE_BASELINE=1 drops it)", id, file))
		}
	}
	for _, id := range ids {
		want, ok := base.Specs[id]
		res, ran := got[id]
		switch {
		case !ran:
			problems = append(problems, fmt.Sprintf("%s: not in the report", id))
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: %s, and %s has no entry for it (UPDATE_BASELINE=1, then justify)", id, res.Verdict, file))
		case res.Verdict != want.Verdict:
			problems = append(problems, fmt.Sprintf("%s: verdict changed: %s says %s (%s), now %s: %s", id, file, want.Verdict, want.Why, res.Verdict, res.Reason))
		case want.Verdict != reports.Pass && (want.Why == "" || want.Why == todo):
			problems = append(problems, fmt.Sprintf("%s: %s with no justification in %s: %s", id, want.Verdict, file, res.Reason))
		}
	}
	return problems
}

// counts is the report's verdict counts, for the log.
func counts(rep *reports.Report) string {
	n := map[reports.Verdict]int{}
	for _, r := range rep.Results {
		n[r.Verdict]++
	}
	var vs []string
	for v := range n {
		vs = append(vs, string(v))
	}
	slices.Sort(vs)
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%d %s", n[reports.Verdict(v)], v))
	}
	return strings.Join(out, ", ")
}

// npmCI installs the agent's dependencies exactly as the committed lockfile
// says, and returns what went wrong ("" when nothing did). It prefers the
// npm cache; without network or cache the tests cannot run, which is a skip
// outside CI.
//
// npm ci removes node_modules and installs again, which takes seconds even
// from the cache (and took two minutes while the agent's SQLite binding was
// better-sqlite3, built from source without GitHub). So once an install succeeded,
// npmCI writes a stamp into node_modules (the lockfile's hash and node's
// version and ABI), and skips npm ci while the stamp matches: a changed
// lockfile or another node installs again; npm ci's own wipe of
// node_modules removes the stamp with everything else.
func npmCI(npm, dir string) string {
	want, err := installStamp(dir)
	if err != nil {
		return err.Error()
	}
	stamp := filepath.Join(dir, "node_modules", ".a2a-conform-installed")
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		return ""
	}
	cmd := exec.Command(npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := bounded(cmd, npmCITimeout); err != nil {
		return fmt.Sprintf("npm ci in %s failed (%v): is the npm registry or cache reachable?\n%s", dir, err, out)
	}
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		return err.Error()
	}
	return ""
}

// installStamp names what an install in dir was made from: the lockfile's
// hash, and the node that runs the agent (its version and module ABI, which
// the binding's native module is built for). .ci/run writes the same stamp
// after the npm ci it runs in the background; should the two drift apart,
// the test only installs again.
func installStamp(dir string) (string, error) {
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return "", err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(node, "-p", stampNode).Output()
	if err != nil {
		return "", fmt.Errorf("node -p: %v", err)
	}
	return fmt.Sprintf(stampFormat, sha256.Sum256(lock), strings.TrimSpace(string(out))), nil
}

// stampNode is the node expression an install stamp names node by, and
// stampFormat the stamp (%x: the lockfile's SHA-256).
const (
	stampNode   = "process.version + ' abi ' + process.versions.modules + ' ' + process.arch"
	stampFormat = "package-lock.json sha256 %x\nnode %s"
)

// .ci/run installs the npm packages in the background and writes the same
// stamp from the shell; should its copy drift from installStamp, every CI
// run would install twice without saying so.
func TestCIRunWritesTheInstallStamp(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	// printf's format: %s for the hex sha256sum prints, \n written out.
	shellFormat := strings.ReplaceAll(strings.Replace(stampFormat, "%x", "%s", 1), "\n", `\n`)
	for _, want := range []string{`"` + stampNode + `"`, "'" + shellFormat + "'", "sha256sum package-lock.json", ".a2a-conform-installed"} {
		if !strings.Contains(string(b), want) {
			t.Errorf(".ci/run does not write the stamp installStamp checks: it lacks %q", want)
		}
	}
}

// runChild runs the CLI's command (run, client) in a child process, this
// test binary acting as the CLI, bounded by runTimeout, and returns the
// report it wrote to out (nil if none) and its output.
func runChild(t *testing.T, command, out string, args ...string) (*reports.Report, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{command, "--out", out}, args...)...)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	output, err := bounded(cmd, runTimeout)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("running the CLI: %v", err)
	}
	rep, rerr := reports.ReadJSON(filepath.Join(out, "report.json"))
	if rerr != nil {
		return nil, output
	}
	return rep, output
}

// bounded runs cmd, its stdout and stderr gathered, and kills it after d;
// it returns the output and what Run returned.
func bounded(cmd *exec.Cmd, d time.Duration) (string, error) {
	cmd.WaitDelay = 10 * time.Second
	var outb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &outb
	timer := time.AfterFunc(d, func() { _ = cmd.Process.Kill() })
	err := cmd.Run()
	timer.Stop()
	return outb.String(), err
}

func tail(file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-40):], "\n")
}

func readBaseline(t *testing.T, file string) Baseline {
	t.Helper()
	b := Baseline{Specs: map[string]Entry{}}
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return b
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &b); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return b
}

// writeBaseline records the verdicts of this run, keeping the reason of every
// verdict that did not change.
func writeBaseline(t *testing.T, file string, old Baseline, got map[string]reports.Result) {
	t.Helper()
	next := Baseline{Agent: old.Agent, Note: old.Note, Specs: map[string]Entry{}}
	for id, r := range got {
		e := Entry{Verdict: r.Verdict}
		if prev, ok := old.Specs[id]; ok && prev.Verdict == r.Verdict {
			e.Why = prev.Why
		}
		if e.Verdict != reports.Pass && e.Why == "" {
			e.Why = todo
		}
		if e.Verdict == reports.Pass {
			e.Why = ""
		}
		next.Specs[id] = e
	}
	data, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", file)
}

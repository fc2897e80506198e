//go:build unix

package topology_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/topology"
)

// helperEnv makes this test binary a tiny agent for the process driver: it
// serves the card on the port given as its argument, answering 503 to the
// first two requests as a starting agent does.
const helperEnv = "TOPOLOGY_TEST_AGENT"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		serveHelper(os.Args[1])
		return
	}
	os.Exit(m.Run())
}

// drainHelperEnv makes the helper agent take SIGTERM slowly, as a real
// agent may: it keeps answering 200 for drainNotice after the signal, then
// answers 503 (draining) for a second, then exits.
const drainHelperEnv = "TOPOLOGY_TEST_DRAIN"

const drainNotice = 150 * time.Millisecond

// buildHelperEnv names the helper agent's build: its card gives it as the
// version, and may be cached for 30 s.
const buildHelperEnv = "TOPOLOGY_TEST_BUILD"

func serveHelper(port string) {
	var n atomic.Int32
	var draining atomic.Bool
	http.HandleFunc("/.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= 2 || draining.Load() {
			http.Error(w, "starting or draining", http.StatusServiceUnavailable)
			return
		}
		if build := os.Getenv(buildHelperEnv); build != "" {
			w.Header().Set("Cache-Control", "public, max-age=30")
			fmt.Fprintf(w, `{"name":"helper","version":%q}`, build)
			return
		}
		fmt.Fprint(w, `{"name":"helper"}`)
	})
	if os.Getenv(drainHelperEnv) == "1" {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM)
		go func() {
			<-sig
			time.Sleep(drainNotice)
			draining.Store(true)
			time.Sleep(time.Second)
			os.Exit(0)
		}()
	}
	fmt.Println("helper listening on", port)
	if err := http.ListenAndServe("127.0.0.1:"+port, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// syncBuffer is a log writer the instances' reader goroutines share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// goneWithin bounds gone's wait: a SIGKILL sent to a group is delivered to
// each member asynchronously, so a grandchild may still be running for a
// moment after the shell was reaped.
const goneWithin = 2 * time.Second

// gone reports whether pid no longer runs (absent, or a zombie nobody
// reaps), or stops within goneWithin.
func gone(t *testing.T, pidFile string) bool {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	pid := strings.TrimSpace(string(b))
	for deadline := time.Now().Add(goneWithin); ; time.Sleep(10 * time.Millisecond) {
		st, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			return true
		}
		s := string(st)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if f[0] == "Z" || f[0] == "X" {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

func refused(url string) bool {
	_, err := net.DialTimeout("tcp", strings.TrimPrefix(url, "http://"), time.Second)
	return err != nil
}

func TestSubstitute(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ tmpl, want string }{
		{"agent --port {port}", "agent --port 4100"},
		{"agent --name a-{instance}-g{generation}", "agent --name a-2-g3"},
		{"agent --db sqlite:{store} --db2 {store}", "agent --db sqlite:/w/store.db --db2 /w/store.db"},
		{"agent ${HOME} {unknown} {{port}}", "agent ${HOME} {unknown} {4100}"},
	} {
		if got := topology.Substitute(c.tmpl, 4100, 2, 3, "/w/store.db"); got != c.want {
			t.Errorf("Substitute(%q) = %q, want %q", c.tmpl, got, c.want)
		}
	}
}

// Two instances come up on their own ports with the shared store path; Close
// stops the whole process group, including a child the shell left running.
func TestProcessStartsInstancesAndCloseStopsTheirGroups(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := fmt.Sprintf("echo instance {instance} gen {generation} store {store}; sleep 1000 & echo $! > %s/sleep-{instance}.pid; %s=1 exec %s {port}",
		dir, helperEnv, os.Args[0])
	var log syncBuffer
	p, err := topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: cmd, Instances: 2, Dir: dir, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	urls := p.URLs()
	if len(urls) != 2 || urls[0] == urls[1] || p.URL() != urls[0] || p.Driver() != "process" {
		t.Fatalf("driver %q, URL %q, URLs %v", p.Driver(), p.URL(), urls)
	}
	for _, u := range urls {
		resp, err := http.Get(u + "/.well-known/agent-card.json")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %v %v", u, resp, err)
		}
		resp.Body.Close()
	}
	store := filepath.Join(dir, "store.db")
	for i := range 2 {
		if want := fmt.Sprintf("[agent %d] instance %d gen 1 store %s", i, i, store); !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for i, u := range urls {
		if !refused(u) {
			t.Errorf("%s still answers after Close", u)
		}
		if !gone(t, filepath.Join(dir, fmt.Sprintf("sleep-%d.pid", i))) {
			t.Errorf("instance %d's background child survived Close", i)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// An agent that exits at once is reported with its status and last output.
func TestProcessThatExitsAtOnceIsAClearError(t *testing.T) {
	t.Parallel()
	_, err := topology.StartProcess(context.Background(), topology.ProcessOptions{
		Cmd: "echo boom; echo 'bad flag --port {port}' >&2; exit 7"})
	var se *topology.StartError
	if !errors.As(err, &se) {
		t.Fatalf("want a *StartError, got %v", err)
	}
	if se.Status != "exit status 7" || se.Instance != 0 || !strings.Contains(se.Reason, "exited") {
		t.Errorf("status %q instance %d reason %q", se.Status, se.Instance, se.Reason)
	}
	port := strings.TrimPrefix(se.URL, "http://127.0.0.1:")
	if _, err := strconv.Atoi(port); err != nil {
		t.Fatalf("URL %q", se.URL)
	}
	want := []string{"boom", "bad flag --port " + port}
	if strings.Join(se.Output, "|") != strings.Join(want, "|") {
		t.Errorf("output %q, want %q", se.Output, want)
	}
	for _, s := range []string{"exit status 7", "boom", "--port " + port, "instance 0"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error lacks %q: %v", s, err)
		}
	}
}

// An agent that runs and never serves is given up on at the bound, named,
// and stopped.
func TestProcessThatNeverServesIsBoundedAndStopped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "agent.pid")
	_, err := topology.StartProcess(context.Background(), topology.ProcessOptions{
		Cmd: "echo warming up; echo $$ > " + pidFile + "; exec sleep 1000", ReadyTimeout: 400 * time.Millisecond})
	var se *topology.StartError
	if !errors.As(err, &se) {
		t.Fatalf("want a *StartError, got %v", err)
	}
	if se.Status != "" || !strings.Contains(se.Reason, "did not serve its card within 400ms") ||
		!strings.Contains(se.Reason, "connection refused") || len(se.Output) != 1 || se.Output[0] != "warming up" {
		t.Errorf("%#v", se)
	}
	if !gone(t, pidFile) {
		t.Error("the agent still runs after the failed start")
	}
}

// A group that ignores SIGTERM is killed after the grace period.
func TestCloseKillsAGroupThatIgnoresSIGTERM(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := fmt.Sprintf("trap '' TERM; sleep 1000 & echo $! > %s/child.pid; %s=1 %s {port}", dir, helperEnv, os.Args[0])
	var log syncBuffer
	p, err := topology.StartProcess(context.Background(), topology.ProcessOptions{
		Cmd: cmd, Dir: dir, Log: &log, StopGrace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	u := p.URL()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !refused(u) || !gone(t, filepath.Join(dir, "child.pid")) {
		t.Fatal("the group survived Close")
	}
	if !strings.Contains(log.String(), "sent SIGKILL") {
		t.Errorf("the log does not say the group was killed:\n%s", log.String())
	}
}

// A canceled start stops what it started and says it was canceled.
func TestCanceledStartStopsTheInstances(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "agent.pid")
	ctx, cancel := context.WithCancel(context.Background())
	var log syncBuffer
	go func() {
		// Cancel once the instance says it runs (or at a bound, which the
		// pid check below then reports).
		defer cancel()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		deadline := time.After(10 * time.Second)
		for !strings.Contains(log.String(), "running") {
			select {
			case <-tick.C:
			case <-deadline:
				return
			}
		}
	}()
	_, err := topology.StartProcess(ctx, topology.ProcessOptions{
		Cmd: "echo $$ > " + pidFile + "; echo running; exec sleep 1000", Log: &log})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if !gone(t, pidFile) {
		t.Error("the agent still runs after a canceled start")
	}
}

// A port taken between the driver choosing it and the agent binding it is
// retried on fresh ports, not reported as an agent that would not start.
func TestPortTakenIsRetriedOnFreshPorts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// The first start says what a Go agent says when its port is taken.
	cmd := fmt.Sprintf("if [ ! -e %[1]s/once ]; then touch %[1]s/once; echo 'listen tcp 127.0.0.1:{port}: bind: address already in use'; exit 1; fi; %[2]s=1 exec %[3]s {port}",
		dir, helperEnv, os.Args[0])
	var log syncBuffer
	p, err := topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: cmd, Dir: dir, Log: &log})
	if err != nil {
		t.Fatalf("not retried: %v\n%s", err, log.String())
	}
	defer p.Close()
	if !strings.Contains(log.String(), "starting again on fresh ports") {
		t.Fatalf("the retry is not in the log:\n%s", log.String())
	}
	// Any other failure is not retried.
	_, err = topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: "echo boom; exit 7", Dir: t.TempDir()})
	var se *topology.StartError
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "boom") {
		t.Fatalf("want the plain start error, got %v", err)
	}
}

// The same race during a roll: generation 2's first process finds its port
// taken and dies. It is started again on a fresh port, the roll succeeds,
// and its death is not counted among the agent's unexpected exits (which
// would blame the agent and make the run exit 3).
func TestPortTakenDuringARollIsNotAnAgentExit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := fmt.Sprintf("if [ {generation} = 2 ] && [ ! -e %[1]s/once ]; then touch %[1]s/once; echo 'listen tcp 127.0.0.1:{port}: bind: address already in use'; exit 1; fi; %[2]s=1 exec %[3]s {port}",
		dir, helperEnv, os.Args[0])
	var log syncBuffer
	p, err := topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: cmd, Dir: dir, Balance: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	gen, err := p.Roll(context.Background(), nil)
	if err != nil || gen != 2 {
		t.Fatalf("roll: generation %d, %v\n%s", gen, err, log.String())
	}
	if !strings.Contains(log.String(), "starting it again on a fresh port") {
		t.Fatalf("the retry is not in the log:\n%s", log.String())
	}
	if ex := p.UnexpectedExits(); len(ex) != 0 {
		t.Fatalf("the harness's port race counted as an agent exit: %+v", ex)
	}
	if u := p.URLs(); len(u) != 1 || refused(u[0]) {
		t.Fatalf("no instance serves after the roll: %v", u)
	}

	// A generation that dies for its own reasons is the agent's exit.
	bad := fmt.Sprintf("if [ {generation} = 2 ]; then echo boom; exit 7; fi; %[1]s=1 exec %[2]s {port}", helperEnv, os.Args[0])
	q, err := topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: bad, Dir: t.TempDir(), Balance: true, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if _, err := q.Roll(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("want the new generation's own failure, got %v", err)
	}
	if ex := q.UnexpectedExits(); len(ex) != 1 || !strings.Contains(ex[0].Status, "7") {
		t.Fatalf("the agent's own exit is not recorded: %+v", ex)
	}
}

// Every address an instance was started on, replaced generations included,
// counts as an instance's own: a card naming one is reached through the
// balancer. Nothing else does.
func TestIsInstanceOriginCoversEveryGeneration(t *testing.T) {
	t.Parallel()
	cmd := fmt.Sprintf("%s=1 exec %s {port}", helperEnv, os.Args[0])
	p, err := topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: cmd, Instances: 2, Balance: true, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	first := p.URLs()
	if _, err := p.Roll(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	second := p.URLs()
	for _, u := range append(first, second...) {
		if !p.IsInstanceOrigin(u) {
			t.Errorf("%s: an instance's own address (of %v, then %v), not recognised", u, first, second)
		}
		if local := strings.Replace(u, "127.0.0.1", "localhost", 1); !p.IsInstanceOrigin(local) {
			t.Errorf("%s: the same loopback address by name, not recognised", local)
		}
		if other := strings.Replace(u, "127.0.0.1", "192.0.2.1", 1); p.IsInstanceOrigin(other) {
			t.Errorf("%s: not loopback, yet taken for an instance's", other)
		}
	}
	for _, u := range []string{p.BalancerURL(), "http://127.0.0.1:1", "grpc://127.0.0.1:1", "::"} {
		if p.IsInstanceOrigin(u) {
			t.Errorf("%s taken for an instance's own address", u)
		}
	}
}

// The process driver's stepped roll: for each slot, the callback runs once
// the new process serves (calls pinned to the slot still reach the old one),
// then right after the old one's SIGTERM (pinned calls reach the new one);
// the old processes are gone once the roll returns.
func TestProcessRollStopsBetweenItsSteps(t *testing.T) {
	t.Parallel()
	cmd := fmt.Sprintf("%s=1 exec %s {port}", helperEnv, os.Args[0])
	p, err := topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: cmd, Instances: 2, Balance: true, StopGrace: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pinned := func(k int) string {
		req, _ := http.NewRequest(http.MethodGet, p.BalancerURL()+"/.well-known/agent-card.json", nil)
		req.Header.Set(topology.PinHeader, strconv.Itoa(k))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err.Error()
		}
		resp.Body.Close()
		return fmt.Sprintf("%d %s", resp.StatusCode, resp.Header.Get(topology.InstanceHeader))
	}
	var seen, olds []string
	gen, err := p.RollStepped(context.Background(), func(ctx context.Context, stage string, k int, oldURL, newURL string) {
		if stage == topology.RollReady {
			olds = append(olds, oldURL)
		}
		seen = append(seen, fmt.Sprintf("%d %s: pinned %s", k, stage, pinned(k)))
	})
	if err != nil || gen != 2 {
		t.Fatalf("RollStepped: generation %d, %v", gen, err)
	}
	want := []string{
		"0 before: pinned 200 process-0-g1", "0 ready: pinned 200 process-0-g1", "0 draining: pinned 200 process-0-g2",
		"1 before: pinned 200 process-1-g1", "1 ready: pinned 200 process-1-g1", "1 draining: pinned 200 process-1-g2",
	}
	if got := strings.Join(seen, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("stages:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	for _, u := range olds {
		if !refused(u) {
			t.Errorf("old instance %s still answers after the roll", u)
		}
	}
}

// A process takes its SIGTERM asynchronously: the roll's draining step waits
// until the old instance shows it took it (its card answers 503 here), so
// that what a spec does "while the old instance drains" reaches an instance
// that is draining, not one that has not noticed the signal yet.
func TestProcessRollDrainingStepWaitsForTheDrainSign(t *testing.T) {
	t.Parallel()
	cmd := fmt.Sprintf("%s=1 %s=1 exec %s {port}", helperEnv, drainHelperEnv, os.Args[0])
	log := &syncBuffer{}
	p, err := topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: cmd, Instances: 1, Balance: true, StopGrace: 3 * time.Second, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var seen []string
	_, err = p.RollStepped(context.Background(), func(ctx context.Context, stage string, k int, oldURL, newURL string) {
		if stage != topology.RollDraining {
			return
		}
		resp, err := http.Get(oldURL + "/.well-known/agent-card.json")
		if err != nil {
			seen = append(seen, err.Error())
			return
		}
		resp.Body.Close()
		seen = append(seen, strconv.Itoa(resp.StatusCode))
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0] != "503" {
		t.Fatalf("the old instance's card at the draining step: %v, want 503 (draining); agent log:\n%s", seen, log)
	}
	if !strings.Contains(log.String(), "answered its card 503") {
		t.Errorf("the agent log does not say when the old instance showed its drain:\n%s", log)
	}
}

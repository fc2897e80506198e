package fakes

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
)

// The multi-process tests re-execute this test binary in "serve" mode: the
// child runs one instance on loopback over a shared SQLite file until
// SIGTERM, exactly as `a2a-conform fake --store sqlite:PATH` would.
const (
	envServe = "A2A_CONFORM_FAKE_SERVE"
	envName  = "A2A_CONFORM_FAKE_NAME"
	envDB    = "A2A_CONFORM_FAKE_DB"
)

func TestMain(m *testing.M) {
	if os.Getenv(envServe) == "1" {
		os.Exit(serveChild())
	}
	// Each fault's case starts an agent and waits on its steps and
	// timers, barely using the CPU (the package takes about 3 CPU-s):
	// eight at a time, not go test's one per core.
	testkit.DefaultParallel(8)
	os.Exit(m.Run())
}

func serveChild() int {
	st, err := OpenStore("sqlite:" + os.Getenv(envDB))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	opts := fastOpts(Options{Name: os.Getenv(envName), Store: st})
	opts.Push.Timeout = 300 * time.Millisecond
	opts.Push.MaxAttempts = 100_000 // keep retrying while the test restarts instances
	if err := Serve(ctx, "127.0.0.1:0", opts); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// proc is one child instance.
type proc struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd
	url  string
	rpc  *client.Client
	rest *client.Client
	done chan error
}

func startProc(t *testing.T, name, db string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envServe+"=1", envName+"="+name, envDB+"="+db)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, name: name, cmd: cmd, done: make(chan error, 1)}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("child %s printed no URL: %v", name, err)
	}
	go io.Copy(io.Discard, out)
	go func() { p.done <- cmd.Wait() }()
	_, after, ok := strings.Cut(strings.TrimSpace(line), " listening on ")
	if !ok {
		cmd.Process.Kill()
		t.Fatalf("child %s: unexpected first line %q", name, line)
	}
	p.url = after
	t.Cleanup(func() { p.kill() })
	eventually(t, "instance "+name+" to be ready", func() string {
		cr, err := client.FetchCard(ctxT(), nil, p.url, nil)
		if err != nil {
			return err.Error()
		}
		if cr.Status != 200 {
			return fmt.Sprintf("card HTTP %d", cr.Status)
		}
		p.rpc, _ = client.New(cr.Card.SupportedInterfaces[0])
		p.rest, _ = client.New(cr.Card.SupportedInterfaces[1])
		return ""
	})
	return p
}

// kill stops the child abruptly (SIGKILL): nothing is drained.
func (p *proc) kill() {
	if p.cmd.ProcessState == nil {
		p.cmd.Process.Kill()
		select {
		case <-p.done:
		case <-time.After(testTimeout):
		}
	}
}

// term stops the child gracefully (SIGTERM) and checks it exits cleanly.
func (p *proc) term() {
	p.t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			p.t.Fatalf("instance %s exited with %v after SIGTERM", p.name, err)
		}
	case <-time.After(ShutdownGrace + testTimeout):
		p.t.Fatalf("instance %s did not exit after SIGTERM", p.name)
	}
}

// TestSeveralProcessesShareOneStore is the multi-instance story with real
// processes on one SQLite file: a task created on A is canceled through B
// and streamed on C; A's worker stops; the cancel is pushed. Then, with the
// webhook failing, A completes a task and is killed with its deliveries
// pending; the restarted A delivers them.
func TestSeveralProcessesShareOneStore(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	db := filepath.Join(t.TempDir(), "shared.db")
	a, b, c := startProc(t, "a", db), startProc(t, "b", db), startProc(t, "c", db)
	st, err := OpenSQLiteStore(db) // the test's own view of the shared state
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rcv := newReceiver(t)

	task := sendTask(t, a.rpc, scripted(directive.Directive{DelayMs: 60_000}), &a2a.SendMessageConfiguration{
		ReturnImmediately: true, TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{
			URL: rcv.srv.URL, Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: "t1"}}})
	if rec, _ := st.GetTask(ctxT(), task.ID); !strings.HasPrefix(rec.Owner, "a/") {
		t.Fatalf("task not run by A: owner %q", rec.Owner)
	}
	stream, err := c.rest.SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
	if err != nil {
		t.Fatal(err)
	}
	canceled, err := b.rpc.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
	if err != nil || canceled.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("cancel through B: %v", err)
	}
	if got := describe(collect(t, stream)); got != "task:TASK_STATE_SUBMITTED status:TASK_STATE_CANCELED" {
		t.Fatalf("stream on C: %s", got)
	}
	eventually(t, "A's worker to stop", func() string {
		if rec, _ := st.GetTask(ctxT(), task.ID); rec.Owner != "" {
			return "owner " + rec.Owner
		}
		return ""
	})
	rcv.waitFor(t, a2a.TaskStateCanceled)
	if p := rcv.got()[0]; p.header.Get("Authorization") != "Bearer t1" || p.header.Get(InstanceHeader) == "" {
		t.Fatalf("push headers %v", p.header)
	}
	for _, p := range []*proc{a, b, c} {
		if s := getTask(t, p.rest, task.ID).Status.State; s != a2a.TaskStateCanceled {
			t.Fatalf("instance %s says %s", p.name, s)
		}
	}

	b.term()
	c.term()

	rcv.setFail(1 << 30)
	task2 := sendTask(t, a.rpc, userMsg("pushed after a restart"), &a2a.SendMessageConfiguration{
		TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{ID: "durable", URL: rcv.srv.URL}})
	eventually(t, "A to try and fail", func() string {
		if rcv.refused() < 2 {
			return "no failed attempt yet"
		}
		return ""
	})
	a.kill()
	if k, _ := st.PendingDeliveries(ctxT()); k == 0 {
		t.Fatal("no delivery pending after A died")
	}
	before := len(rcv.got())
	rcv.setFail(0)
	a2 := startProc(t, "a", db)
	eventually(t, "the restarted A to deliver", func() string {
		for _, p := range rcv.got()[before:] {
			if s, _ := p.body.State(); s == a2a.TaskStateCompleted && p.body.TaskID() == task2.ID {
				if p.header.Get(InstanceHeader) != "a" {
					return "delivered by " + p.header.Get(InstanceHeader)
				}
				return ""
			}
		}
		return fmt.Sprintf("pushed so far: %v", rcv.states())
	})
	cfg, err := a2.rpc.GetTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfigRef{TaskID: task2.ID, ID: "durable"})
	if err != nil || cfg.URL != rcv.srv.URL {
		t.Fatalf("config after restart: %v %+v", err, cfg)
	}
	a2.term()
}

// A task whose instance is killed mid-script is carried on by another
// process once the lease runs out.
func TestKilledInstanceTaskIsAdopted(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	db := filepath.Join(t.TempDir(), "shared.db")
	a, b := startProc(t, "a", db), startProc(t, "b", db)
	task := sendTask(t, a.rest, scripted(directive.Directive{DelayMs: 100, ArtifactChunks: intp(3)}), immediate())
	a.kill()
	done := waitState(t, b.rpc, task.ID, a2a.TaskStateCompleted)
	if len(done.Artifacts) != 1 || len(done.Artifacts[0].Parts) != 3 {
		t.Fatalf("adopted task's artifact %+v", done.Artifacts)
	}
	b.term()
}

package clientdriver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/internal/testkit"
)

const (
	text     = "a2a-conform driver test task"
	followUp = "a2a-conform driver test follow-up"
	token    = "driver-test-token"
)

type run struct {
	res   *clientrun.Result
	code  int
	stage *clientrun.Stage
	log   string
}

// drive runs the reference driver in-process against a stage.
func drive(t *testing.T, script clientrun.Script, action string, faults ...string) run {
	t.Helper()
	st, err := clientrun.StartStage(context.Background(), script, clientrun.StageOptions{Text: text, FollowUpText: followUp})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	// Below the ephemeral range: the driver binds it later, and no other
	// case's port-0 listener can take it meanwhile.
	listen := testkit.FreeAddr(t)
	env := clientdriver.Env{CardURL: st.CardURL(), Case: "test", Action: action, Text: text, FollowUpText: followUp,
		WebhookListen: listen, WebhookURL: "http://" + listen + "/hook", PushToken: token, Timeout: 8 * time.Second}
	var out, errb bytes.Buffer
	code := clientdriver.Run(context.Background(), env, faults, &out, &errb)
	r := run{code: code, stage: st, log: errb.String()}
	r.res, _ = clientrun.ParseResult(out.Bytes())
	if code == 0 && r.res == nil {
		t.Fatalf("no result line: %q (stderr %s)", out.String(), errb.String())
	}
	return r
}

func (r run) must(t *testing.T, state, errClass string) {
	t.Helper()
	got := ""
	if r.res != nil {
		got = r.res.ErrorClass()
	}
	if r.res == nil || r.res.State != state || got != errClass {
		b, _ := json.Marshal(r.res)
		t.Fatalf("want state %q error %q; got %s\nstderr: %s", state, errClass, b, r.log)
	}
}

func TestEveryActionOnTheCleanAgent(t *testing.T) {
	t.Parallel()
	for _, a := range []string{clientrun.ActionSend, clientrun.ActionStream, clientrun.ActionPoll, clientrun.ActionSubscribe, clientrun.ActionPush} {
		t.Run(a, func(t *testing.T) {
			t.Parallel()
			r := drive(t, clientrun.Script{}, a)
			r.must(t, "TASK_STATE_COMPLETED", "")
			if r.res.Interface == nil || r.res.Interface.ProtocolBinding != "JSONRPC" {
				t.Errorf("interface %+v", r.res.Interface)
			}
			if a == clientrun.ActionPush && len(r.res.EventsVia("push")) == 0 {
				t.Errorf("no push recorded: %+v", r.res.Events)
			}
			for _, q := range r.stage.Requests() {
				if !q.Card && q.Op != clientrun.OpKeySet && q.Header.Get("A2A-Version") != "1.0" {
					t.Errorf("%s without A2A-Version", q.Op)
				}
			}
		})
	}
	t.Run("follow-up", func(t *testing.T) {
		t.Parallel()
		r := drive(t, clientrun.Script{Behaviour: directive.Directive{Version: 1, Outcome: directive.OutcomeInputRequired}}, clientrun.ActionFollowUp)
		r.must(t, "TASK_STATE_COMPLETED", "")
	})
	t.Run("cancel", func(t *testing.T) {
		t.Parallel()
		r := drive(t, clientrun.Script{Behaviour: directive.Directive{Version: 1, DelayMs: 1000}}, clientrun.ActionCancel)
		r.must(t, "TASK_STATE_CANCELED", "")
	})
	t.Run("push-cancel", func(t *testing.T) {
		t.Parallel()
		r := drive(t, clientrun.Script{Behaviour: directive.Directive{Version: 1, DelayMs: 1000}}, clientrun.ActionPushCancel)
		r.must(t, "TASK_STATE_CANCELED", "")
		if len(r.res.Warnings) > 0 {
			t.Errorf("warnings on a clean cancel: %v", r.res.Warnings)
		}
	})
}

// After its receiver refused a push (401) the client revalidates the card
// and re-fetches its task; no-refetch-after-401 does neither.
func TestRefetchAfterRefusedPush(t *testing.T) {
	t.Parallel()
	script := func(after *atomic.Int64) clientrun.Script {
		var once sync.Once
		return clientrun.Script{Behaviour: directive.Directive{Version: 1, DelayMs: 700},
			Hook: func(s *clientrun.Stage, e clientrun.HookEvent) {
				if e.After && e.Request.PushURL != "" {
					once.Do(func() {
						body := `{"statusUpdate":{"taskId":"rotated","contextId":"rotated","status":{"state":"TASK_STATE_WORKING"}}}`
						go func() {
							time.Sleep(100 * time.Millisecond)
							after.Store(int64(len(s.Requests())))
							_, _ = s.PushWith(context.Background(), e.Request.PushURL, http.Header{"Authorization": {"Bearer generation-2"}}, []byte(body))
						}()
					})
				}
			}}
	}
	refetched := func(r run, after int) bool {
		for _, q := range r.stage.Requests() {
			if q.Seq > after && q.Op == "GetTask" && q.TaskID == r.res.TaskID {
				return true
			}
		}
		return false
	}
	var n1, n2 atomic.Int64
	ref := drive(t, script(&n1), clientrun.ActionPush)
	ref.must(t, "TASK_STATE_COMPLETED", "")
	if !refetched(ref, int(n1.Load())) {
		t.Errorf("no GetTask of task %s after the refused push", ref.res.TaskID)
	}
	bad := drive(t, script(&n2), clientrun.ActionPush, "no-refetch-after-401")
	bad.must(t, "TASK_STATE_COMPLETED", "")
	if !strings.Contains(strings.Join(bad.res.Warnings, ";"), "401") {
		t.Errorf("no-refetch-after-401: the push was not refused: %v", bad.res.Warnings)
	}
	if refetched(bad, int(n2.Load())) {
		t.Errorf("no-refetch-after-401 re-fetched the task")
	}
	var n3 atomic.Int64
	rebind := drive(t, script(&n3), clientrun.ActionPush, "rebinds-webhook-after-401")
	rebind.must(t, "TASK_STATE_COMPLETED", "")
	var ops []string
	for _, q := range rebind.stage.Requests() {
		if q.Seq > int(n3.Load()) && q.TaskID == rebind.res.TaskID {
			ops = append(ops, q.Op)
		}
	}
	if len(ops) == 0 || ops[0] != "CreateTaskPushNotificationConfig" {
		t.Errorf("rebinds-webhook-after-401: requests naming the task after the refused push %v, want the config registered again first", ops)
	}
}

// After an acknowledged cancel a push with the config's token says
// COMPLETED: the reference client keeps CANCELED and warns; the fault
// merges it.
func TestPushCancelGuard(t *testing.T) {
	t.Parallel()
	script := func() clientrun.Script {
		var once sync.Once
		return clientrun.Script{Behaviour: directive.Directive{Version: 1, DelayMs: 700},
			Hook: func(s *clientrun.Stage, e clientrun.HookEvent) {
				if e.After && e.Request.Op == "CancelTask" {
					once.Do(func() {
						body := `{"statusUpdate":{"taskId":"` + e.Request.TaskID + `","status":{"state":"TASK_STATE_COMPLETED"}}}`
						go func() {
							time.Sleep(300 * time.Millisecond)
							_, _ = s.Push(context.Background(), pushURL(s), token, []byte(body))
						}()
					})
				}
			}}
	}
	ref := drive(t, script(), clientrun.ActionPushCancel)
	ref.must(t, "TASK_STATE_CANCELED", "")
	if len(ref.res.Warnings) == 0 {
		t.Errorf("no warning about the COMPLETED pushed after the cancel: %+v", ref.res)
	}
	bad := drive(t, script(), clientrun.ActionPushCancel, "merges-pushed-terminal-after-cancel")
	bad.must(t, "TASK_STATE_COMPLETED", "")
}

// pushURL is the URL the client registered in its push config.
func pushURL(s *clientrun.Stage) string {
	for _, q := range s.Requests() {
		if q.PushURL != "" {
			return q.PushURL
		}
	}
	return ""
}

// The ETag is sent back when the card's max-age has run out, and a fresh
// card is not fetched again; ignores-etag re-fetches without it.
func TestResolveRevalidates(t *testing.T) {
	t.Parallel()
	inm := func(r run) []string {
		var out []string
		for _, q := range r.stage.Requests() {
			if q.Card {
				out = append(out, q.Header.Get("If-None-Match"))
			}
		}
		return out
	}
	fresh := drive(t, clientrun.Script{}, clientrun.ActionResolve)
	if got := inm(fresh); len(got) != 1 {
		t.Errorf("max-age 30 s: %d card fetches in 1 s, want 1 (the fresh copy reused)", len(got))
	}
	stale := drive(t, clientrun.Script{CardMaxAge: -1}, clientrun.ActionResolve)
	if got := inm(stale); len(got) != 2 || got[0] != "" || got[1] == "" {
		t.Errorf("max-age 0: If-None-Match per fetch %q, want none then the ETag", got)
	}
	ign := drive(t, clientrun.Script{CardMaxAge: -1}, clientrun.ActionResolve, "ignores-etag")
	if got := inm(ign); len(got) != 2 || got[1] != "" {
		t.Errorf("ignores-etag: If-None-Match per fetch %q, want none on the second", got)
	}
}

// A follow-up to a task lost in a rotation is reported as task-not-found;
// the faults re-submit it silently or hang.
func TestLostTaskAfterRotation(t *testing.T) {
	t.Parallel()
	script := func() clientrun.Script {
		var once sync.Once
		return clientrun.Script{CardMaxAge: -1,
			Behaviour: directive.Directive{Version: 1, Outcome: directive.OutcomeInputRequired},
			Hook: func(s *clientrun.Stage, e clientrun.HookEvent) {
				if e.After && e.Request.Op == "SendMessage" {
					once.Do(func() { _ = s.Rotate(context.Background(), clientrun.Rotation{LoseTasks: true}) })
				}
			}}
	}
	t.Run("reference", func(t *testing.T) {
		t.Parallel()
		r := drive(t, script(), clientrun.ActionFollowUp)
		r.must(t, "", clientrun.ClassTaskNotFound)
	})
	t.Run("resubmits-silently", func(t *testing.T) {
		t.Parallel()
		r := drive(t, script(), clientrun.ActionFollowUp, "resubmits-silently")
		r.must(t, "TASK_STATE_COMPLETED", "")
		if r.res.ResubmittedTaskID != "" {
			t.Errorf("the silent re-submission names itself: %+v", r.res)
		}
	})
	t.Run("hangs-on-lost-task", func(t *testing.T) {
		t.Parallel()
		r := drive(t, script(), clientrun.ActionFollowUp, "hangs-on-lost-task")
		if r.code != clientdriver.ExitHung {
			t.Fatalf("exit %d, want the hung marker", r.code)
		}
	})
}

// After an acknowledged cancel the agent (fault cancel-then-complete) says
// COMPLETED: the reference client keeps CANCELED and warns; the fault
// merges it.
func TestCancelGuard(t *testing.T) {
	t.Parallel()
	// The worker completes 400 ms after the cancel; the GetTask after the
	// stream is held until then, so that the poll sees the COMPLETED.
	script := clientrun.Script{Faults: []string{"cancel-then-complete"}, Behaviour: directive.Directive{Version: 1, DelayMs: 400},
		Hook: func(s *clientrun.Stage, e clientrun.HookEvent) {
			if !e.After && e.Request.Op == "GetTask" {
				time.Sleep(900 * time.Millisecond)
			}
		}}
	ref := drive(t, script, clientrun.ActionCancel)
	ref.must(t, "TASK_STATE_CANCELED", "")
	if len(ref.res.Warnings) == 0 {
		t.Errorf("no warning about the COMPLETED after the cancel: %+v", ref.res)
	}
	bad := drive(t, script, clientrun.ActionCancel, "merges-terminal-after-cancel")
	bad.must(t, "TASK_STATE_COMPLETED", "")
}

// A push without the config's token is refused (401) and not merged; the
// fault accepts it.
func TestForgedPush(t *testing.T) {
	t.Parallel()
	script := func() clientrun.Script {
		var once sync.Once
		return clientrun.Script{Behaviour: directive.Directive{Version: 1, DelayMs: 700},
			Hook: func(s *clientrun.Stage, e clientrun.HookEvent) {
				if e.After && e.Request.PushURL != "" {
					once.Do(func() {
						body := `{"statusUpdate":{"taskId":"forged","contextId":"forged","status":{"state":"TASK_STATE_FAILED"}}}`
						go func() {
							time.Sleep(100 * time.Millisecond)
							_, _ = s.Push(context.Background(), e.Request.PushURL, "", []byte(body))
						}()
					})
				}
			}}
	}
	ref := drive(t, script(), clientrun.ActionPush)
	ref.must(t, "TASK_STATE_COMPLETED", "")
	if !strings.Contains(strings.Join(ref.res.Warnings, ";"), "401") {
		t.Errorf("no warning about the refused push: %+v", ref.res.Warnings)
	}
	bad := drive(t, script(), clientrun.ActionPush, "accepts-forged-push")
	if bad.res == nil || bad.res.TaskID != "forged" && bad.res.State != "TASK_STATE_FAILED" {
		t.Errorf("accepts-forged-push did not merge the forged push: %+v", bad.res)
	}
}

// A stream cut mid-task is not taken for the outcome: the client polls
// until the task settles, and warns.
func TestCutStreamIsSettledByPolling(t *testing.T) {
	t.Parallel()
	r := drive(t, clientrun.Script{CutStreamAfter: 2, Behaviour: directive.Directive{Version: 1, DelayMs: 300}}, clientrun.ActionStream)
	r.must(t, "TASK_STATE_COMPLETED", "")
	if len(r.res.EventsVia("poll")) == 0 || len(r.res.Warnings) == 0 {
		t.Errorf("want polls after the cut and a warning: %+v", r.res)
	}
}

// Before each transition it initiates the client revalidates the card with
// If-None-Match, whatever the max-age (scenario 1); the first send fetches
// it once.
func TestTransitionsRevalidateTheCard(t *testing.T) {
	t.Parallel()
	r := drive(t, clientrun.Script{Behaviour: directive.Directive{Version: 1, Outcome: directive.OutcomeInputRequired}}, clientrun.ActionFollowUp)
	r.must(t, "TASK_STATE_COMPLETED", "")
	var inm []string
	for _, q := range r.stage.Requests() {
		if q.Card {
			inm = append(inm, q.Header.Get("If-None-Match"))
		}
	}
	if len(inm) != 2 || inm[0] != "" || inm[1] == "" {
		t.Errorf("If-None-Match per card fetch: %q; want none on the first fetch, the ETag before the follow-up", inm)
	}
}

// The clean driver uses the first declared interface of its binding and, when
// that one refuses the connection, falls back to the next declared one;
// picks-last-interface uses the last of the binding (what @a2a-js/sdk 1.3.0
// does) and, without fallback, gives up on a refusing last one.
func TestInterfaceChoice(t *testing.T) {
	t.Parallel()
	j, h := clientrun.Interface{Binding: "JSONRPC"}, clientrun.Interface{Binding: "HTTP+JSON"}
	dead := func(i clientrun.Interface) clientrun.Interface { i.Dead = true; return i }
	twice := []clientrun.Interface{j, h, j, h}
	fallback := []clientrun.Interface{dead(j), j, h, dead(j)}
	for _, tc := range []struct {
		name   string
		ifaces []clientrun.Interface
		faults []string
		used   int // -1: the send fails with a transport error
	}{
		{"clean, same binding twice", twice, nil, 0},
		{"picks-last, same binding twice", twice, []string{"picks-last-interface"}, 2},
		{"clean, refusing first", fallback, nil, 1},
		{"picks-last, refusing last, falls back to the other binding", fallback, []string{"picks-last-interface"}, 2},
		{"picks-last without fallback", fallback, []string{"picks-last-interface", "no-fallback"}, -1},
		{"no fallback", fallback, []string{"no-fallback"}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := drive(t, clientrun.Script{Interfaces: tc.ifaces}, clientrun.ActionSend, tc.faults...)
			if tc.used < 0 {
				r.must(t, "", "transport")
				return
			}
			r.must(t, "TASK_STATE_COMPLETED", "")
			for _, q := range r.stage.Requests() {
				if !q.Card && q.Op != clientrun.OpKeySet && q.Interface != tc.used {
					t.Errorf("%s sent to interface %d (%s), want %d", q.Op, q.Interface, q.Binding, tc.used)
				}
			}
		})
	}
}

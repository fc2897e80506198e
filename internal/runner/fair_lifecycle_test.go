package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Regression tests for issue 8's lifecycle findings: correct agents that are
// busy, slow, LLM-like or only partly scriptable must not fail a lifecycle
// spec.

// lifeSpecs are the lifecycle specs these tests cover (cancel.go and
// stream.go, LIFE-011..016, belong to another change).
var lifeSpecs = []string{
	"LIFE-001", "LIFE-002", "LIFE-003", "LIFE-004", "LIFE-005", "LIFE-006", "LIFE-007", "LIFE-008", "LIFE-009", "LIFE-010",
	"LIFE-017", "LIFE-018", "LIFE-019", "LIFE-020", "LIFE-021", "LIFE-022", "LIFE-023", "LIFE-024", "LIFE-025", "LIFE-026",
	"LIFE-027", "LIFE-028", "LIFE-029",
}

// writeConfig writes a harness config file and returns its path.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// rpc sends one JSON-RPC request to the agent at base and returns the result.
func rpc(ctx context.Context, base, method string, params any) (map[string]any, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/a2a/jsonrpc", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("A2A-Version", "1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Result map[string]any `json:"result"`
		Error  any            `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	if out.Error != nil {
		return nil, fmt.Errorf("%v", out.Error)
	}
	return out.Result, nil
}

func textMessage(text, taskID string) map[string]any {
	m := map[string]any{"messageId": fmt.Sprintf("bg-%d", time.Now().UnixNano()), "role": "ROLE_USER",
		"parts": []any{map[string]any{"text": text}}}
	if taskID != "" {
		m["taskId"] = taskID
	}
	return m
}

// busyClient is other clients of the agent: until stopped, several workers
// keep creating tasks (some finish at once, some ask for input) and updating
// the ones that wait, so that the agent's newest tasks, its first page of a
// hundred and the order of its list change all the time while the specs
// list. It returns how many writes were made.
func busyClient(t *testing.T, base string) (stop func() int) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	wrote := func() { mu.Lock(); n++; mu.Unlock() }
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var waiting []string
			for ctx.Err() == nil {
				// A write every few milliseconds a worker is churn enough
				// between two pages, and leaves the machine to the run.
				select {
				case <-ctx.Done():
				case <-time.After(5 * time.Millisecond):
				}
				if _, err := rpc(ctx, base, "SendMessage", map[string]any{"message": textMessage("background chatter", ""),
					"configuration": map[string]any{"returnImmediately": true}}); err == nil {
					wrote()
				}
				if w != 0 {
					continue
				}
				if res, err := rpc(ctx, base, "SendMessage", map[string]any{"message": textMessage("ask me for input", "")}); err == nil {
					wrote()
					if task, ok := res["task"].(map[string]any); ok {
						waiting = append(waiting, fmt.Sprint(task["id"]))
					}
				}
				if len(waiting) > 2 {
					// An update: the oldest waiting task resumes and
					// completes, moving to the front of the agent's list.
					if _, err := rpc(ctx, base, "SendMessage", map[string]any{"message": textMessage("here you are", waiting[0])}); err == nil {
						wrote()
					}
					waiting = waiting[1:]
				}
			}
		}(w)
	}
	return func() int {
		cancel()
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

// peekJSONRPC decodes a JSON-RPC call's body (at most 1 MiB) into call and
// puts the body back for the agent; false for any other request, or a body
// that does not decode.
func peekJSONRPC(r *http.Request, call any) bool {
	if r.Method != http.MethodPost || r.URL.Path != fakes.JSONRPCPath {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	return err == nil && json.Unmarshal(body, call) == nil
}

// floodBeforeLists serves a reference agent made with opts and, before it
// answers the first page of each ListTasks walk (JSON-RPC or HTTP+JSON, no
// pageToken), makes flood tasks of another client through the agent's own
// handler. However slow the machine, every walk a spec starts then finds
// more than a page of a hundred tasks newer than its own. It returns the
// agent's base URL and a count of the walks so flooded.
func floodBeforeLists(t *testing.T, opts fakes.Options, flood int) (string, func() int) {
	t.Helper()
	var mu sync.Mutex
	lists := 0
	base := serveVariant(t, opts, func(a *fakes.Agent) http.Handler {
		chatter := func(host string) {
			for i := 0; i < flood; i++ {
				body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "SendMessage", "params": map[string]any{
					"message": textMessage("background chatter", ""), "configuration": map[string]any{"returnImmediately": true}}})
				req := httptest.NewRequest(http.MethodPost, fakes.JSONRPCPath, bytes.NewReader(body))
				req.Host = host
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("A2A-Version", "1.0")
				a.ServeHTTP(httptest.NewRecorder(), req)
			}
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			list := r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, fakes.RESTPath+"/tasks") && q.Get("pageToken") == "" && q.Get("contextId") == ""
			var call struct {
				Method string `json:"method"`
				Params struct {
					PageToken string `json:"pageToken"`
					ContextID string `json:"contextId"`
				} `json:"params"`
			}
			if peekJSONRPC(r, &call) {
				list = call.Method == "ListTasks" && call.Params.PageToken == "" && call.Params.ContextID == ""
			}
			if list {
				chatter(r.Host)
				mu.Lock()
				lists++
				mu.Unlock()
			}
			a.ServeHTTP(w, r)
		})
	})
	return base, func() int { mu.Lock(); defer mu.Unlock(); return lists }
}

// Finding 4: the list specs judge only their own tasks, so another client
// creating and updating tasks on the same agent meanwhile changes nothing.
// Two other clients: one floods the agent with more than a page of a
// hundred new tasks just before each list walk the harness starts (so the spec's
// own tasks are never on the agent's first page, however slow the machine),
// and busyClient keeps creating and resuming tasks throughout, so that the
// order of the agent's list changes between pages.
func TestListSpecsPassWhileAnotherClientWrites(t *testing.T) {
	t.Parallel()
	opts := fakes.Options{PromptMap: true, StepDelay: 20 * time.Millisecond}
	base, lists := floodBeforeLists(t, opts, 110)
	stop := busyClient(t, base)
	ids := []string{"LIFE-020", "LIFE-021", "LIFE-022", "LIFE-006", "LIFE-027"}
	r := runCLI(t, nil, "--target", base, "--seed", "3", "--focus", strings.Join(ids, ","))
	writes := stop()
	t.Logf("%d list walks flooded with 110 tasks each, %d writes by the busy client", lists(), writes)
	if lists() < len(ids) {
		t.Fatalf("only %d list walks were flooded, fewer than one per spec: the test proves nothing", lists())
	}
	for _, id := range ids {
		if res := result(t, r, id); res.Verdict != reports.Pass {
			t.Errorf("%s with other clients writing (%d list walks flooded, %d busy writes): %s: %s", id, lists(), writes, res.Verdict, res.Reason)
		}
	}
}

// Finding 5: an agent that answers a plain message by asking for input (an
// LLM asking a clarifying question) is answering correctly. Specs that send
// plain messages pass when what they check holds on the interrupted task,
// or end indeterminate saying the agent asked for input.
func TestPlainInputRequiredIsNotFailed(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, r cliRun, ids []string, mustPass map[string]bool) {
		t.Helper()
		for _, id := range ids {
			res := result(t, r, id)
			t.Logf("%s: %s %s", id, res.Verdict, firstLine(res.Reason))
			switch {
			case res.Verdict == reports.Pass:
			case mustPass[id]:
				t.Errorf("%s: %s, want pass: %s", id, res.Verdict, res.Reason)
			case res.Verdict == reports.Indeterminate && strings.Contains(res.Reason, "asked for input"):
			case res.Verdict == reports.CouldNotRun || res.Verdict == reports.NotApplicable:
			default:
				t.Errorf("%s: %s: %s", id, res.Verdict, res.Reason)
			}
		}
	}
	t.Run("no scripted behaviour", func(t *testing.T) {
		t.Parallel()
		ids := []string{"LIFE-020", "LIFE-021", "LIFE-022", "LIFE-025", "LIFE-026", "LIFE-019", "LIFE-023"}
		r := runVariant(t, fakes.Options{PlainInputRequired: true, DisableDirective: true}, "--seed", "3", "--focus", strings.Join(ids, ","))
		check(t, r, ids, map[string]bool{"LIFE-020": true, "LIFE-022": true, "LIFE-025": true})
		for _, id := range []string{"LIFE-021", "LIFE-026"} {
			if res := result(t, r, id); res.Verdict != reports.Indeterminate {
				t.Errorf("%s: %s, want indeterminate (the agent asked for input): %s", id, res.Verdict, res.Reason)
			}
		}
	})
	t.Run("directive, plain follow-ups", func(t *testing.T) {
		t.Parallel()
		ids := []string{"LIFE-009", "LIFE-010", "LIFE-023", "LIFE-024", "LIFE-029"}
		r := runVariant(t, fakes.Options{PlainInputRequired: true}, "--seed", "3", "--focus", strings.Join(ids, ","))
		check(t, r, ids, map[string]bool{"LIFE-009": true, "LIFE-010": true, "LIFE-023": true, "LIFE-024": true, "LIFE-029": true})
	})
}

// Finding 6: with a prompt map holding only slow and complete, every spec
// those keys serve passes using only them, and every other spec is
// could-not-run naming the key it lacks.
func TestLeastPromptMapSlowAndComplete(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, "no-directive: true\nprompt-map:\n  slow: \"work slowly then complete\"\n  complete: \"say hello\"\n")
	r := runVariant(t, fakes.Options{PromptMap: true, DisableDirective: true}, "--config", cfg, "--seed", "3", "--focus", strings.Join(lifeSpecs, ","))
	names := regexp.MustCompile(`"(input-required|fail|reject|message|artifacts)"`)
	for _, id := range lifeSpecs {
		res := result(t, r, id)
		for _, k := range strings.Split(res.Observations["prompt-keys"], ", ") {
			if k != "" && k != "slow" && k != "complete" {
				t.Errorf("%s used prompt key %q, which the map does not have", id, k)
			}
		}
		switch res.Verdict {
		case reports.Pass, reports.NotApplicable:
		case reports.CouldNotRun:
			if !names.MatchString(res.Reason) {
				t.Errorf("%s: could-not-run without naming the missing key: %s", id, res.Reason)
			}
		default:
			t.Errorf("%s: %s: %s", id, res.Verdict, res.Reason)
		}
		t.Logf("%s: %s (keys %q) %s", id, res.Verdict, res.Observations["prompt-keys"], firstLine(res.Reason))
	}
}

// Finding 7: against an agent whose every step takes a second, driven by the
// full prompt map, no lifecycle spec fails; an indeterminate must say why.
func TestSlowAgentFailsNoLifecycleSpec(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the lifecycle specs against an agent that takes a second a step")
	}
	t.Parallel()
	cfg := writeConfig(t, `no-directive: true
race-trials: 2
prompt-map:
  complete: "say hello"
  slow: "work slowly then complete"
  input-required: "ask me for input"
  fail: "fail this task"
  reject: "reject this task"
  message: "reply with a message"
  artifacts: "stream three chunks"
`)
	r := runVariant(t, fakes.Options{StepDelay: time.Second, PromptMap: true, DisableDirective: true}, "--config", cfg, "--seed", "3", "--focus", strings.Join(lifeSpecs, ","))
	for _, id := range lifeSpecs {
		res := result(t, r, id)
		t.Logf("%s: %s %s", id, res.Verdict, firstLine(res.Reason))
		switch res.Verdict {
		case reports.Fail, reports.Warn:
			t.Errorf("%s against a slow agent: %s: %s", id, res.Verdict, res.Reason)
		case reports.Indeterminate, reports.CouldNotRun:
			if strings.TrimSpace(res.Reason) == "" {
				t.Errorf("%s: %s without a reason", id, res.Verdict)
			}
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// The levels of LIFE-027 and LIFE-028 (docs/levels.md). LIFE-028 is a MAY:
// an agent that serves a part of a media type its card does not list (as
// a2a-go and the JS SDK do) is not warned, and the spec is not applicable;
// one that refuses it with the wrong error warns. LIFE-027's missing
// message is a SHOULD ("SHOULD reject", spec §5.7): serving it warns, and
// the run does not fail. On the slow prompt-map agent too.
func TestLevelsOfTheBadInputSpecs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		opts fakes.Options
		id   string
		want reports.Verdict
	}{
		{"served media type", fakes.Options{ServeAnyMediaType: true}, "LIFE-028", reports.NotApplicable},
		{"served media type, slow", func() fakes.Options { o := slowAgent(time.Second); o.ServeAnyMediaType = true; return o }(), "LIFE-028", reports.NotApplicable},
		{"refused media type", fakes.Options{}, "LIFE-028", reports.Pass},
		{"wrong error for the media type", fakes.Options{Faults: []string{"content-type-wrong-error"}}, "LIFE-028", reports.Warn},
		{"missing message served", fakes.Options{Faults: []string{"accept-missing-message"}}, "LIFE-027", reports.Warn},
		{"missing message served, slow", slowAgent(time.Second, "accept-missing-message"), "LIFE-027", reports.Warn},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			args := []string{"--focus", c.id, "--seed", "2"}
			if c.opts.PromptMap {
				args = append(args, "--config", promptMapConfig(t))
			}
			r := runVariant(t, c.opts, args...)
			res := result(t, r, c.id)
			if res.Verdict != c.want {
				t.Fatalf("%s (%s): %s: %s, want %s", c.id, c.name, res.Verdict, res.Reason, c.want)
			}
			if r.exit != 0 {
				t.Errorf("exit %d: neither a MAY nor a SHOULD fails the run", r.exit)
			}
		})
	}
}

// An agent that answers a non-blocking SendMessage 1.2 s after it created
// the task (a loaded agent, or machine) has ended a task of 150 ms steps (LIFE-012) or 200 ms (LIFE-018) by
// the first look. The harness sets the task's length (the directive), so
// LIFE-012 and LIFE-018 try again with longer steps instead of being
// indeterminate for want of a running task: the JS SDK agent under load
// drifted from its baseline this way in a clean-clone .ci/run.
func TestShortTasksAreLengthenedForASlowAnswer(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{AnswerLatency: 1200 * time.Millisecond}, "--focus", "LIFE-012,LIFE-018", "--seed", "72")
	for _, id := range []string{"LIFE-012", "LIFE-018"} {
		res := result(t, r, id)
		if res.Verdict != reports.Pass {
			t.Errorf("%s %s on an agent that answers 1.2 s late: %s", id, res.Verdict, res.Reason)
			continue
		}
		lengthened := false
		for k, v := range res.Observations {
			if strings.HasPrefix(k, "lengthened-") && strings.Contains(v, "already") {
				lengthened = true
			}
		}
		if !lengthened {
			t.Errorf("%s passed without saying it lengthened the task: %v", id, res.Observations)
		}
	}
}

// TestRacesLostToASlowAnswerAreTriedAgain: on an agent that answers 1.2 s
// late, a 150 ms-step task has ended before the spec's cancel or push config
// reaches it. That is no fault of the agent, and the spec needs a task that
// runs, not a particular length: it tries again with longer steps
// (suites.T.TooFast) and passes, saying so in the observation "retried".
func TestRacesLostToASlowAnswerAreTriedAgain(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{AnswerLatency: 1200 * time.Millisecond}, "--focus", "LIFE-013,PUSH-004,PUSH-008", "--seed", "73")
	for _, id := range []string{"LIFE-013", "PUSH-004", "PUSH-008"} {
		res := result(t, r, id)
		if res.Verdict != reports.Pass {
			t.Errorf("%s %s on an agent that answers 1.2 s late: %s", id, res.Verdict, res.Reason)
			continue
		}
		if got := res.Observations["retried"]; !strings.Contains(got, "attempt 1 (steps x1) ended indeterminate") {
			t.Errorf("%s passed without saying it tried again with longer steps: retried %q", id, got)
		}
	}
}

// TestRefusedConfigOfAnEndedTaskIsTooFast: an agent that answers 1.2 s late
// and refuses a push config for a task already ended (no transition is left
// to push) is correct: PUSH-004, whose configs go to a task after it was
// created (webhook's create()), must try a longer task, not fail the
// refusal. (PUSH-006 and PUSH-009 register on a task waiting for input,
// which has not ended.)
func TestRefusedConfigOfAnEndedTaskIsTooFast(t *testing.T) {
	t.Parallel()
	r := runVariant(t, fakes.Options{AnswerLatency: 1200 * time.Millisecond, RefuseEndedConfigs: true}, "--focus", "PUSH-004", "--seed", "74")
	res := result(t, r, "PUSH-004")
	if res.Verdict != reports.Pass {
		t.Fatalf("PUSH-004 %s on an agent that refuses configs of ended tasks: %s", res.Verdict, res.Reason)
	}
	if got := res.Observations["retried"]; !strings.Contains(got, "when its config was created") {
		t.Errorf("PUSH-004 passed without trying again after the refusal: retried %q", got)
	}
}

// LIFE-011 cancels a working task to watch a canceled one. When that cancel
// is refused (most often the task ended first on a slow or loaded agent; a
// refusal of a working task is allowed too, success is not guaranteed,
// A2A v1.0.1 §3.1.5), it cancels a second task as soon as it is created,
// and the canceled task is watched as before: here the agent refuses the
// first CancelTask of the run with TaskNotCancelableError and takes the
// rest. Without the second try the spec would be could-not-run.
func TestLIFE011TriesASecondCancelWhenTheFirstIsRefused(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	refused := 0
	base := serveVariant(t, fakes.Options{}, func(a *fakes.Agent) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var call struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			mu.Lock()
			first := peekJSONRPC(r, &call) && call.Method == "CancelTask" && refused == 0
			if first {
				refused++
			}
			mu.Unlock()
			if first {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32002,"message":"this task cannot be canceled now"}}`, call.ID)
				return
			}
			a.ServeHTTP(w, r)
		})
	})
	r := runCLI(t, nil, "--target", base, "--seed", "3", "--focus", "LIFE-011")
	res := result(t, r, "LIFE-011")
	mu.Lock()
	n := refused
	mu.Unlock()
	if n != 1 {
		t.Fatalf("%d cancels refused, want the first one: the test proves nothing", n)
	}
	if res.Verdict != reports.Pass || !strings.Contains(res.Observations["cancel-first-try"], "refused") {
		t.Errorf("LIFE-011 with its first cancel refused: %s: %s; cancel-first-try %q", res.Verdict, res.Reason, res.Observations["cancel-first-try"])
	}
}

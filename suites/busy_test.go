package suites

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// TestRefusedPastPatienceIsIndeterminate: a spec whose request the agent
// kept refusing "not now" past the patience is indeterminate, naming the
// refusals, whatever its body concluded (a fail is quoted as what may be
// their effect, a pass or a warn is no pass); an ending that is no pass
// either stands. A refusal the client retried and got past changes nothing,
// and a spec that opted out judges the refusal itself.
func TestRefusedPastPatienceIsIndeterminate(t *testing.T) {
	for _, c := range []struct {
		name string
		// refuse is how many requests the agent answers 429 before it
		// answers 404 TaskNotFound.
		refuse int
		optOut bool
		then   func(t *T, err error)
		want   reports.Verdict // "fail" for a failure, "" for a pass
		has    []string
	}{
		{name: "a violation drawn from the refusal", refuse: 99, then: func(t *T, err error) {
			t.Record(invariants.Violation{Invariant: "task-not-found", Where: "GetTask", Expected: "TaskNotFoundError", Actual: ErrText(err)})
		}, want: reports.Indeterminate, has: []string{"not now", "GetTask at 127.0.0.1", "refused 1 time(s)", `Retry-After "1"`, "may be an effect of the refusals", "expected TaskNotFoundError"}},
		{name: "a pass without the answer", refuse: 99, then: func(*T, error) {}, want: reports.Indeterminate, has: []string{"not now", "HTTP 429"}},
		{name: "a SHOULD miss", refuse: 99, then: func(t *T, _ error) { t.Should(violation("s")) }, want: reports.Indeterminate, has: []string{"not now"}},
		{name: "could-not-run stands", refuse: 99, then: func(t *T, _ error) { t.CouldNotRun("no directive") }, want: reports.CouldNotRun, has: []string{"no directive"}},
		{name: "retried and answered: a fail stands", refuse: 1, then: func(t *T, err error) {
			if ce, ok := client.AsError(err); !ok || ce.Kind != a2a.ErrTaskNotFound {
				t.Record(violation("answer"))
				return
			}
			t.Record(violation("judged on the answer"))
		}, want: "fail", has: []string{"judged on the answer"}},
		{name: "retried and answered: a pass stands", refuse: 1, then: func(*T, error) {}, want: ""},
		{name: "opted out: the spec judges the refusal", refuse: 99, optOut: true, then: func(t *T, err error) {
			if client.IsBusy(err) {
				t.Record(violation("judged the 429"))
			}
		}, want: "fail", has: []string{"judged the 429"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if int(n.Add(1)) <= c.refuse {
					w.Header().Set("Retry-After", "1")
					http.Error(w, "slow down", http.StatusTooManyRequests)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				w.Write([]byte(`{"error":{"code":404,"status":"NOT_FOUND","message":"no such task","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`))
			}))
			defer srv.Close()
			// A patience shorter than the Retry-After: the first refusal
			// is given up at once, unless the agent answers the retry.
			patience := 500 * time.Millisecond
			if c.refuse == 1 {
				patience = 3 * time.Second
			}
			st := &T{Info: Info{ID: "TEST-001", Level: MUST}, Env: &Env{Options: Options{Patience: patience}}}
			runBody(context.Background(), st, func(ctx context.Context, t *T) {
				cl := t.ClientFor(a2a.AgentInterface{URL: srv.URL, ProtocolBinding: a2a.BindingHTTPJSON})
				if c.optOut {
					ctx = client.NoBusyRetry(ctx)
				}
				_, err := cl.GetTask(ctx, &a2a.GetTaskRequest{ID: "t1"})
				c.then(t, err)
			})
			v, reason, fail := st.settled()
			switch c.want {
			case "fail":
				if fail == "" {
					t.Fatalf("verdict %s (%s), want a failure", v, reason)
				}
				reason = fail
			case "":
				if v != "" || fail != "" {
					t.Fatalf("verdict %q %q fail %q, want a pass", v, reason, fail)
				}
			default:
				if v != c.want || fail != "" {
					t.Fatalf("verdict %q (%s), fail %q; want %s", v, reason, fail, c.want)
				}
			}
			for _, h := range c.has {
				if !strings.Contains(reason, h) {
					t.Errorf("reason lacks %q:\n%s", h, reason)
				}
			}
			if c.refuse == 1 && !c.optOut {
				if obs := st.observations["busy"]; !strings.Contains(obs, "1 \"not now\" refusal(s)") || !strings.Contains(obs, "GetTask 1") {
					t.Errorf("observation busy = %q, want the retried refusal named", obs)
				}
			}
			// settled is read twice (progress line, then the It): the same both times.
			if v2, r2, f2 := st.settled(); v2 != v || (c.want != "fail" && r2 != reason) || (c.want == "fail" && f2 != reason) {
				t.Errorf("a second settled differs: %q %q %q", v2, r2, f2)
			}
		})
	}
}

package suites

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/reports"
)

// TestTooFastTriesAgainWithLongerSteps: a body that ends through TooFast is
// run again with steps four, then sixteen times longer, under the directive
// extension only, never after a violation or a SHOULD miss, and never more
// than twice; the observation "retried" says why each attempt was given up.
func TestTooFastTriesAgainWithLongerSteps(t *testing.T) {
	script := Script{Outcome: directive.OutcomeCompleted, Delay: 150 * time.Millisecond}
	for _, c := range []struct {
		name    string
		b       Behaviour
		outrun  int // attempts that end through TooFast before one passes
		also    func(t *T)
		want    reports.Verdict
		tries   int
		delays  []time.Duration
		retried bool
	}{
		{"once, then passes", DirectiveBehaviour{}, 1, nil, "", 2, []time.Duration{150, 600}, true},
		{"twice, then passes", DirectiveBehaviour{}, 2, nil, "", 3, []time.Duration{150, 600, 2400}, true},
		{"every time: two retries at most", DirectiveBehaviour{}, 9, nil, reports.Indeterminate, 3, []time.Duration{150, 600, 2400}, true},
		{"a prompt map's task takes its own time", promptMap, 1, nil, reports.Indeterminate, 1, nil, false},
		{"a violation is never retried away", DirectiveBehaviour{}, 1, func(t *T) { t.Record(violation("v")) }, "fail", 1, []time.Duration{150}, false},
		{"nor a SHOULD miss", DirectiveBehaviour{}, 1, func(t *T) { t.Should(violation("s")) }, reports.Indeterminate, 1, []time.Duration{150}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tries := 0
			var delays []time.Duration
			got := runEach(c.b, func(ctx context.Context, st *T) {
				tries++
				if st.Env.Behaviour.Kind() == "directive" {
					delays = append(delays, st.Stretched(script).Delay/time.Millisecond)
				}
				if tries == 1 {
					st.Observe("first-attempt-only", "stale unless cleared")
				}
				if tries <= c.outrun {
					if c.also != nil {
						c.also(st)
					}
					st.TooFast("task %d ended first", tries)
				}
			})
			if tries != c.tries {
				t.Errorf("the body ran %d times, want %d", tries, c.tries)
			}
			if c.delays != nil && !slices.Equal(delays, c.delays) {
				t.Errorf("step delays (ms) per attempt %v, want %v", delays, c.delays)
			}
			v, reason, fail := got.settled()
			switch {
			case c.want == "fail" && fail == "":
				t.Errorf("settled %q %q, want a failure", v, reason)
			case c.want != "fail" && (v != c.want || fail != ""):
				t.Errorf("settled %q %q %q, want %q", v, reason, fail, c.want)
			}
			retried := got.observations["retried"]
			if (retried != "") != c.retried {
				t.Errorf("retried observation %q, want one: %v", retried, c.retried)
			}
			if _, stale := got.observations["first-attempt-only"]; stale && c.retried {
				t.Errorf("an observation of the given-up attempt is still there: %v", got.observations)
			}
			if c.retried && !strings.Contains(retried, "attempt 1 (steps x1) ended indeterminate: task 1 ended first") {
				t.Errorf("retried observation %q does not say why attempt 1 was given up", retried)
			}
		})
	}
}

// TestTooFastIsNotRetriedWithoutTime: a retry needs half the spec's time.
func TestTooFastIsNotRetriedWithoutTime(t *testing.T) {
	st := &T{Info: Info{ID: "TEST-001", Level: MUST, Timeout: time.Hour}, Env: &Env{Behaviour: DirectiveBehaviour{}}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tries := 0
	runBody(ctx, st, func(ctx context.Context, st *T) {
		tries++
		st.TooFast("ended first")
	})
	if tries != 1 {
		t.Errorf("the body ran %d times with a minute of an hour's timeout left, want once", tries)
	}
}

// TestStartRunningAndTooFastShareOneBound: StartRunning's own lengthening
// and TooFast's retries of the whole spec draw on one bound, steps 16 times
// longer: an agent whose tasks are always at rest at the first look is
// tried at x1, x4 and x16 once, never again from x4 (a retry would only
// repeat those lengths), and never beyond.
func TestStartRunningAndTooFastShareOneBound(t *testing.T) {
	c, err := client.New(a2a.AgentInterface{URL: "http://127.0.0.1:1/a2a/jsonrpc", ProtocolBinding: a2a.BindingJSONRPC})
	if err != nil {
		t.Fatal(err)
	}
	script := Script{Outcome: directive.OutcomeCompleted, Delay: 150 * time.Millisecond}
	var delays []time.Duration
	bodies := 0
	got := runEach(DirectiveBehaviour{}, func(ctx context.Context, st *T) {
		bodies++
		task, used := st.StartRunning(ctx, c, script, func(s Script) *a2a.Task {
			delays = append(delays, st.Stretched(s).Delay/time.Millisecond)
			return &a2a.Task{ID: fmt.Sprint("task-", len(delays)), Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
		}, nil)
		st.ShowedRunning(used, task, "nothing to judge")
	})
	if bodies != 1 || !slices.Equal(delays, []time.Duration{150, 600, 2400}) {
		t.Errorf("the body ran %d times with step delays (ms) %v, want once with [150 600 2400]", bodies, delays)
	}
	if v, _, _ := got.settled(); v != reports.Indeterminate {
		t.Errorf("settled %q, want indeterminate", v)
	}
}

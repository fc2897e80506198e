package suites

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// runEach runs a body on a fresh T the way the scheduler does, against an
// agent driven by b, and returns the T once the body has ended.
func runEach(b Behaviour, body func(ctx context.Context, t *T)) *T {
	t := &T{Info: Info{ID: "TEST-001", Level: MUST}, Env: &Env{Behaviour: b}}
	runBody(context.Background(), t, body)
	return t
}

// promptMap is an agent whose tasks take their own time: Each runs its
// trials together.
var promptMap = PromptMapBehaviour{Prompts: map[string]string{PromptComplete: "say hello"}}

func violation(where string) invariants.Violation {
	return invariants.Violation{Invariant: "test", Where: where, Expected: "x", Actual: "y"}
}

// TestEachEndings: trials run concurrently end the spec as the same trials
// one after another would, with nothing a trial found lost: violations from
// every trial fail it, even when another trial ended the spec first; with
// none, the first ending stands; a panic is a harness error.
func TestEachEndings(t *testing.T) {
	// first closes when trial 0 has ended, so that the others act after it.
	tests := []struct {
		name       string
		trial      func(t *T, i int, first <-chan struct{})
		verdict    reports.Verdict // override; "" when the spec failed or passed
		failed     int             // violations in the failure message, 0 for none
		reasonHas  string
		harnessErr bool
	}{
		{name: "all pass", trial: func(t *T, i int, first <-chan struct{}) { t.Observe("trial", "ran") }},
		{name: "violations of every trial", failed: 3, trial: func(t *T, i int, first <-chan struct{}) {
			t.Record(violation("trial"))
		}},
		{name: "an ending then a violation: the violation is reported", failed: 1, reasonHas: "indeterminate: trial 0", trial: func(t *T, i int, first <-chan struct{}) {
			switch i {
			case 0:
				t.Indeterminate("trial 0")
			case 1:
				<-first
				t.Record(violation("trial 1, after trial 0 ended the spec"))
			}
		}},
		{name: "a failure then an ending: still failed", failed: 1, trial: func(t *T, i int, first <-chan struct{}) {
			if i == 0 {
				t.Violated(violation("trial 0"))
			}
			<-first
			t.CouldNotRun("trial %d", i)
		}},
		{name: "the first ending stands", verdict: reports.Indeterminate, reasonHas: "trial 0", trial: func(t *T, i int, first <-chan struct{}) {
			if i == 0 {
				t.Indeterminate("trial 0")
			}
			<-first
			t.CouldNotRun("trial %d", i)
		}},
		{name: "a panic is the harness's", harnessErr: true, trial: func(t *T, i int, first <-chan struct{}) {
			if i == 1 {
				panic("boom")
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			first := make(chan struct{})
			var once sync.Once
			got := runEach(promptMap, func(ctx context.Context, tt *T) {
				tt.Each(3, func(i int) {
					if i == 0 {
						defer once.Do(func() { close(first) })
					}
					tc.trial(tt, i, first)
				})
			})
			if got.harnessErr != "" != tc.harnessErr {
				t.Fatalf("harness error %q, want one: %v", got.harnessErr, tc.harnessErr)
			}
			if got.override != tc.verdict {
				t.Errorf("verdict %q (%s), want %q", got.override, got.reason, tc.verdict)
			}
			if n := len(got.violations); n != tc.failed {
				t.Errorf("%d violations reported (%s), want %d", n, got.failMsg, tc.failed)
			}
			if tc.failed > 0 && got.failMsg == "" {
				t.Errorf("violations but no failure message")
			}
			if tc.reasonHas != "" && !strings.Contains(got.reason+got.failMsg, tc.reasonHas) {
				t.Errorf("reason %q / failure %q does not say %q", got.reason, got.failMsg, tc.reasonHas)
			}
		})
	}
}

// TestEachUnderTheDirective: with the directive extension the trials run one
// after another in index order, as the loop they replace did, so the first
// ending ends the spec and later trials do not run.
func TestEachUnderTheDirective(t *testing.T) {
	var ran []int
	got := runEach(DirectiveBehaviour{}, func(ctx context.Context, tt *T) {
		tt.Each(3, func(i int) {
			ran = append(ran, i)
			if i == 1 {
				tt.Indeterminate("trial 1")
			}
		})
	})
	if len(ran) != 2 || ran[0] != 0 || ran[1] != 1 {
		t.Errorf("trials ran %v, want [0 1]", ran)
	}
	if got.override != reports.Indeterminate || got.reason != "trial 1" {
		t.Errorf("verdict %q (%s), want indeterminate: trial 1", got.override, got.reason)
	}
}

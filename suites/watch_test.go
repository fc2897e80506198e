package suites

import (
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// The run's end watch judges a spec's tasks on everything seen of them:
// a completion after an acknowledged cancel fails a spec that passed and
// adds to one that failed, a task that stayed canceled only adds the
// observation, and a SHOULD spec warns rather than fails.
func TestJudgeWatch(t *testing.T) {
	task := func(id string, s a2a.TaskState, parts int) *a2a.Task {
		tk := &a2a.Task{ID: id, Status: a2a.TaskStatus{State: s}}
		if parts > 0 {
			tk.Artifacts = []a2a.Artifact{{ArtifactID: "a", Parts: make([]a2a.Part, parts)}}
		}
		return tk
	}
	type sighting struct {
		src  invariants.Source
		task *a2a.Task
	}
	for _, c := range []struct {
		name    string
		level   Level
		verdict reports.Verdict
		// before are sightings made in the body, after those at the run's end.
		before, after []sighting
		want          reports.Verdict
		violations    int
		observed      string
	}{
		{"stayed canceled", MUST, reports.Pass,
			[]sighting{{invariants.FromCancel, task("t1", a2a.TaskStateCanceled, 0)}},
			[]sighting{{invariants.FromGet, task("t1", a2a.TaskStateCanceled, 0)}},
			reports.Pass, 0, "1 task(s) watched until the run's end"},
		{"completed after the cancel", MUST, reports.Pass,
			[]sighting{{invariants.FromCancel, task("t1", a2a.TaskStateCanceled, 0)}},
			[]sighting{{invariants.FromGet, task("t1", a2a.TaskStateCompleted, 1)}},
			reports.Fail, 2, "after the cancel"},
		{"artifact only", INVARIANT, reports.Indeterminate,
			[]sighting{{invariants.FromCancel, task("t1", a2a.TaskStateCanceled, 1)}},
			[]sighting{{invariants.FromGet, task("t1", a2a.TaskStateCanceled, 2)}},
			reports.Fail, 1, ""},
		{"already failing: only the new evidence is added", MUST, reports.Fail,
			[]sighting{{invariants.FromCancel, task("t1", a2a.TaskStateCanceled, 0)}, {invariants.FromGet, task("t1", a2a.TaskStateCompleted, 0)}},
			[]sighting{{invariants.FromGet, task("t1", a2a.TaskStateCompleted, 0)}},
			reports.Fail, 0, ""},
		{"a SHOULD spec warns", SHOULD, reports.Pass,
			[]sighting{{invariants.FromSend, task("t1", a2a.TaskStateCompleted, 0)}},
			[]sighting{{invariants.FromGet, task("t1", a2a.TaskStateFailed, 0)}},
			reports.Warn, 1, "after its terminal state"},
		{"never terminal: not watched", MUST, reports.Pass,
			[]sighting{{invariants.FromSend, task("t1", a2a.TaskStateWorking, 0)}},
			nil, reports.Pass, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &T{Info: Info{ID: "ZZWATCH-001", Level: c.level}}
			st.watch = &taskWatch{}
			for _, s := range c.before {
				st.ObserveTaskAt(s.src, s.task, st.History().Now(), "JSONRPC", 1)
			}
			time.Sleep(time.Millisecond)
			st.bodyEnded()
			for _, s := range c.after {
				st.ObserveTaskAt(s.src, s.task, st.History().Now(), "JSONRPC", 2)
			}
			r := &reports.Result{ID: st.Info.ID, Verdict: c.verdict}
			_, _ = st.judgeWatch(r, []string{"t1"}, len(c.after), time.Millisecond)
			if r.Verdict != c.want || len(r.Violations) != c.violations {
				t.Fatalf("verdict %s with %d violations, want %s with %d: %+v", r.Verdict, len(r.Violations), c.want, c.violations, r)
			}
			if c.violations > 0 && (len(r.Findings) != 1 || !strings.Contains(r.Reason, "watched until the run's end")) {
				t.Errorf("a violation without its finding or reason: %+v", r)
			}
			if got := r.Observations["watched-to-run-end"]; !strings.Contains(got, c.observed) {
				t.Errorf("observation %q, want it to say %q", got, c.observed)
			}
		})
	}
}

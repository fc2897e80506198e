package rollout

import (
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// One diagnosis per fate, the same words in every rollout spec, and more
// patience suggested only for a task still moving.
func TestFateDiagnosis(t *testing.T) {
	working := &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: "2026-01-01T00:00:00Z"}}
	moved := &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: "2026-01-01T00:00:05Z"}}
	done := &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	cases := []struct {
		name string
		f    fate
		want string
	}{
		{"ended", fate{id: "t1", seen: working, last: done, ended: true, reads: 3}, ""},
		{"not found on every read", fate{id: "t1", reads: 4, notFound: 4, notFoundErr: "a2a TaskNotFoundError"}, "lost in the roll"},
		{"not found on some reads, unchanged on the others", fate{id: "t1", seen: working, last: working, reads: 4, notFound: 1, notFoundErr: "a2a TaskNotFoundError"}, "lost in the roll"},
		{"not found on some reads, moving on the others", fate{id: "t1", seen: working, last: moved, reads: 4, notFound: 2, notFoundErr: "a2a TaskNotFoundError"}, "lost in the roll"},
		{"found and unchanged", fate{id: "t1", seen: working, last: working, reads: 9}, "orphaned by the roll"},
		{"found and moving", fate{id: "t1", seen: working, last: moved, reads: 9}, "raise --patience"},
		{"never read", fate{id: "t1", reads: 2, lastErr: "http HTTP 500"}, "could not be read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.f.diagnosis(30 * time.Second)
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Fatalf("diagnosis %q, want it to say %q", got, c.want)
			}
			if c.want != "raise --patience" && strings.Contains(got, "patience") {
				t.Fatalf("diagnosis %q suggests more patience for a task that is not moving", got)
			}
		})
	}
}

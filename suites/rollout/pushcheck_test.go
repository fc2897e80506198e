package rollout

import (
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
)

func status(task string, s a2a.TaskState) webhook.Delivery {
	return webhook.Delivery{Resp: a2a.StreamResponse{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: task, Status: a2a.TaskStatus{State: s}}}, Status: 200}
}

func artifact(task string) webhook.Delivery {
	return webhook.Delivery{Resp: a2a.StreamResponse{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: task}}, Status: 200}
}

// Duplicates are repeated status events of one task (at least once allows
// them); artifact chunks and untrusted POSTs are not counted.
func TestDups(t *testing.T) {
	untrusted := status("a", a2a.TaskStateCompleted)
	untrusted.Untrusted = webhook.Unauthenticated
	cases := []struct {
		name string
		ds   []webhook.Delivery
		want int
	}{
		{"none", nil, 0},
		{"each once", []webhook.Delivery{status("a", a2a.TaskStateWorking), artifact("a"), status("a", a2a.TaskStateCompleted)}, 0},
		{"terminal twice", []webhook.Delivery{status("a", a2a.TaskStateCompleted), status("a", a2a.TaskStateCompleted)}, 1},
		{"chunks", []webhook.Delivery{artifact("a"), artifact("a"), artifact("a")}, 0},
		{"other task", []webhook.Delivery{status("a", a2a.TaskStateCompleted), status("b", a2a.TaskStateCompleted)}, 0},
		{"untrusted repeat", []webhook.Delivery{status("a", a2a.TaskStateCompleted), untrusted}, 0},
	}
	for _, c := range cases {
		if got := dups(c.ds); got != c.want {
			t.Errorf("%s: dups = %d, want %d", c.name, got, c.want)
		}
	}
}

// A push that arrives before the poll that saw its task's end counts as no
// latency, never a negative one.
func TestLatencyText(t *testing.T) {
	if got := lat(-14 * time.Millisecond); got != "0s" {
		t.Errorf("lat(-14ms) = %q", got)
	}
	got := latencyText([]time.Duration{3 * time.Second, -time.Millisecond, 2 * time.Second})
	if want := "from the task's end (as polled) to the terminal push: min 0s, median 2s, max 3s (n=3)"; got != want {
		t.Errorf("latencyText = %q, want %q", got, want)
	}
	if got := latencyText(nil); got != "none delivered" {
		t.Errorf("latencyText(nil) = %q", got)
	}
}

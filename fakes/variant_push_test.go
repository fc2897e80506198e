package fakes

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// arrivals is a webhook receiver on a real socket that records when each
// push arrived.
type arrivals struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []arrival
}

type arrival struct {
	at   time.Time
	body a2a.StreamResponse
}

func newArrivals(t *testing.T) *arrivals {
	r := &arrivals{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		at := time.Now()
		b, _ := io.ReadAll(req.Body)
		var sr a2a.StreamResponse
		json.Unmarshal(b, &sr)
		r.mu.Lock()
		r.got = append(r.got, arrival{at: at, body: sr})
		r.mu.Unlock()
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *arrivals) list() []arrival {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]arrival(nil), r.got...)
}

// kinds names each push: its state, or "artifact".
func (r *arrivals) kinds() []string {
	var out []string
	for _, a := range r.list() {
		if s, ok := a.body.State(); ok {
			out = append(out, string(s))
		} else if a.body.ArtifactUpdate != nil {
			out = append(out, "artifact")
		} else {
			out = append(out, "other")
		}
	}
	return out
}

// pushTo is a SendMessage configuration that registers url inline.
func pushTo(url string) *a2a.SendMessageConfiguration {
	return &a2a.SendMessageConfiguration{ReturnImmediately: true, TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: url}}
}

// The queue-backed dispatcher delivers each push no earlier than PushDelay
// after the event it carries (its status timestamp), and in order. The bound
// is the dispatcher's due time, not a measured pace: a delivery cannot be
// claimed before it is due.
func TestPushDelayDeliversLate(t *testing.T) {
	const delay = 700 * time.Millisecond
	n := startNode(t, Options{PushDelay: delay})
	rcv := newArrivals(t)
	task := sendTask(t, n.rpc(), scripted(directive.Directive{DelayMs: 5}), pushTo(rcv.srv.URL))
	waitState(t, n.rpc(), task.ID, a2a.TaskStateCompleted)
	eventually(t, "the delayed pushes", func() string {
		if k := rcv.kinds(); len(k) == 0 || k[len(k)-1] != string(a2a.TaskStateCompleted) {
			return fmt.Sprintf("pushed so far: %v", k)
		}
		return ""
	})
	settledDeliveries(t, n)
	if k := rcv.kinds(); len(k) != 3 || k[0] != string(a2a.TaskStateWorking) || k[1] != "artifact" || k[2] != string(a2a.TaskStateCompleted) {
		t.Fatalf("pushes %v, want WORKING, the reply's artifact, COMPLETED", k)
	}
	for _, a := range rcv.list() {
		if a.body.StatusUpdate == nil {
			continue
		}
		ts, err := time.Parse(time.RFC3339Nano, a.body.StatusUpdate.Status.Timestamp)
		if err != nil {
			t.Fatalf("status timestamp: %v", err)
		}
		if early := ts.Add(delay).Sub(a.at); early > 0 {
			t.Errorf("%s pushed %v before its due time (event at %s, delay %v)", a.body.StatusUpdate.Status.State, early, ts, delay)
		}
	}
}

// Every push is delivered twice, one copy after the other, in order.
func TestDuplicatePushesDeliverEachTwice(t *testing.T) {
	n := startNode(t, Options{DuplicatePushes: true})
	rcv := newArrivals(t)
	task := sendTask(t, n.rest(), scripted(directive.Directive{DelayMs: 5, ArtifactChunks: intp(1)}), pushTo(rcv.srv.URL))
	waitState(t, n.rest(), task.ID, a2a.TaskStateCompleted)
	settledDeliveries(t, n)
	want := []string{"TASK_STATE_WORKING", "TASK_STATE_WORKING", "artifact", "artifact", "TASK_STATE_COMPLETED", "TASK_STATE_COMPLETED"}
	if got := rcv.kinds(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("pushes %v, want %v", got, want)
	}
}

// Only the terminal event is pushed: no WORKING, no artifact chunk.
func TestTerminalPushesOnly(t *testing.T) {
	n := startNode(t, Options{TerminalPushesOnly: true})
	rcv := newArrivals(t)
	done := sendTask(t, n.rpc(), scripted(directive.Directive{DelayMs: 5, ArtifactChunks: intp(2)}), pushTo(rcv.srv.URL))
	waitState(t, n.rpc(), done.ID, a2a.TaskStateCompleted)
	canceled := sendTask(t, n.rpc(), scripted(directive.Directive{DelayMs: 60_000}), pushTo(rcv.srv.URL))
	if _, err := n.rpc().CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: canceled.ID}); err != nil {
		t.Fatal(err)
	}
	waitState(t, n.rpc(), canceled.ID, a2a.TaskStateCanceled)
	settledDeliveries(t, n)
	got := map[string][]string{}
	for _, a := range rcv.list() {
		s, _ := a.body.State()
		got[a.body.TaskID()] = append(got[a.body.TaskID()], string(s))
	}
	if fmt.Sprint(got[done.ID]) != "[TASK_STATE_COMPLETED]" || fmt.Sprint(got[canceled.ID]) != "[TASK_STATE_CANCELED]" {
		t.Fatalf("pushes %v, want only each task's terminal state", got)
	}
}

// With an allow-list, a webhook on it is delivered to, and another loopback
// webhook, a real listener, is refused with InvalidParams on both bindings,
// whether registered inline or by CreateTaskPushNotificationConfig; it never
// receives anything.
func TestWebhookAllowListRefusesOtherLoopbackURLs(t *testing.T) {
	listed, other := newArrivals(t), newArrivals(t)
	n := startNode(t, Options{WebhookAllow: []string{listed.srv.URL + "/hook/"}})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		_, err := c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x"), Configuration: pushTo(other.srv.URL + "/hook/")})
		expectCode(t, err, a2a.CodeInvalidParams, 400)
		task := sendTask(t, c, scripted(directive.Directive{DelayMs: 60_000}), immediate())
		for _, u := range []string{other.srv.URL + "/hook/a", listed.srv.URL + "/other", "http://localhost" + listed.srv.URL[len("http://127.0.0.1"):] + "/hook/"} {
			_, err := c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: u})
			expectCode(t, err, a2a.CodeInvalidParams, 400)
		}
		if _, err := c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: listed.srv.URL + "/hook/" + task.ID}); err != nil {
			t.Fatalf("allow-listed webhook refused: %v", err)
		}
		if _, err := c.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the cancel's push to the listed webhook", func() string {
			for _, a := range listed.list() {
				if s, _ := a.body.State(); s == a2a.TaskStateCanceled && a.body.TaskID() == task.ID {
					return ""
				}
			}
			return fmt.Sprintf("pushed so far: %v", listed.kinds())
		})
	})
	settledDeliveries(t, n)
	if k := other.kinds(); len(k) > 0 {
		t.Fatalf("the refused webhook received %v", k)
	}
}

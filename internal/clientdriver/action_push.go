package clientdriver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/clientrun"
)

func init() { register(clientrun.ActionPush, actionPush) }

// pushTokenHeader is where the agent puts the config's token (A2A v1.0 §4.3.3).
const pushTokenHeader = "X-A2A-Notification-Token"

// actionPush: serve the receiver, send non-blocking with a push config,
// receive until a push is terminal. A push without the config's token gets
// 401 and is not merged (§13.2: validate webhook authenticity). A push about
// a task this client did not create is acknowledged but not merged (§4.3.3:
// validate that the task id matches an expected task); pushes that arrive
// before the send's answer names the task wait until it does.
func actionPush(ctx context.Context, d *Driver) error {
	ln, err := net.Listen("tcp", d.env.WebhookListen)
	if err != nil {
		return err
	}
	token := d.env.PushToken
	if d.faults.has(faultReusesPushToken) {
		token = sharedPushToken
	}
	done := make(chan struct{})
	var once sync.Once
	var (
		mu      sync.Mutex
		ours    string // the task the send created ("" until its answer)
		bound   string // the card's ETag when the webhook was bound
		pending []a2a.StreamResponse
	)
	apply := func(sr a2a.StreamResponse) {
		var id, cid string
		var st a2a.TaskState
		switch {
		case sr.Task != nil:
			d.taskEvent("push", sr.Task)
			id, cid, st = sr.Task.ID, sr.Task.ContextID, sr.Task.Status.State
		case sr.StatusUpdate != nil:
			u := sr.StatusUpdate
			id, cid, st = u.TaskID, u.ContextID, u.Status.State
			d.event(clientrun.Event{Via: "push", Kind: "status", TaskID: id, State: string(st), Final: st.Terminal()})
		case sr.ArtifactUpdate != nil:
			d.event(clientrun.Event{Via: "push", Kind: "artifact", TaskID: sr.ArtifactUpdate.TaskID})
			return
		default:
			return
		}
		mu.Lock()
		known := ours
		mu.Unlock()
		if id != known && !d.faults.has(faultAcceptsForgedPush) {
			d.warn("a push about task %s, which this client did not create, was not merged", id)
			return
		}
		d.merge("push", id, cid, st)
		if st.Terminal() {
			once.Do(func() { close(done) })
		}
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if r.Header.Get(pushTokenHeader) != token && !d.faults.has(faultAcceptsForgedPush) {
			d.warn("refused a push without the config's token (401)")
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mu.Lock()
		etag := bound
		mu.Unlock()
		if d.faults.has(faultWebhookBoundToCard) && etag != "" && d.cardETag(r.Context()) != etag {
			d.warn("refused a push: the card changed since the webhook was bound (401)")
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var sr a2a.StreamResponse
		if err := json.Unmarshal(body, &sr); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusOK)
		mu.Lock()
		if ours == "" {
			pending = append(pending, sr)
			mu.Unlock()
			return
		}
		mu.Unlock()
		apply(sr)
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	conf := &a2a.SendMessageConfiguration{ReturnImmediately: true,
		TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: d.env.WebhookURL, Token: token}}
	t, err := d.send(ctx, message(d.env.Text, "", ""), conf)
	if err != nil {
		return err
	}
	if t == nil {
		return nil // a Message reply: no task to be told about
	}
	mu.Lock()
	ours, bound = t.ID, d.etag
	early := pending
	pending = nil
	mu.Unlock()
	for _, sr := range early {
		apply(sr)
	}
	select {
	case <-done:
		// Let a push racing the terminal one land before reporting.
		time.Sleep(200 * time.Millisecond)
		return nil
	case <-ctx.Done():
		return errors.New("no terminal push arrived in time")
	}
}

// cardETag re-reads the card's ETag (webhook-bound-to-card).
func (d *Driver) cardETag(ctx context.Context) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.env.CardURL, nil)
	if err != nil {
		return ""
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return ""
	}
	resp.Body.Close()
	return resp.Header.Get("ETag")
}

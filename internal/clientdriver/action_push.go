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

// pushTokenHeader is where the agent puts the config's token (a2a-v1 §7.2).
const pushTokenHeader = "X-A2A-Notification-Token"

// actionPush: serve the receiver, send non-blocking with a push config,
// receive until a push is terminal. A push without the config's token gets
// 401 and is not merged.
func actionPush(ctx context.Context, d *Driver) error {
	ln, err := net.Listen("tcp", d.env.WebhookListen)
	if err != nil {
		return err
	}
	done := make(chan struct{})
	var once sync.Once
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if r.Header.Get(pushTokenHeader) != d.env.PushToken && !d.faults.has(faultAcceptsForgedPush) {
			d.warn("refused a push without the config's token (401)")
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var sr a2a.StreamResponse
		if err := json.Unmarshal(body, &sr); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusOK)
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
		d.merge("push", id, cid, st)
		if st.Terminal() {
			once.Do(func() { close(done) })
		}
	})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	conf := &a2a.SendMessageConfiguration{ReturnImmediately: true,
		TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: d.env.WebhookURL, Token: d.env.PushToken}}
	if _, err := d.send(ctx, message(d.env.Text, "", ""), conf); err != nil {
		return err
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

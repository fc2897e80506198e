package clientdriver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/clientkit"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

func init() {
	register(contract.ActionPush, func(ctx context.Context, d *Driver) error { return runPush(ctx, d, false) })
	register(contract.ActionPushCancel, func(ctx context.Context, d *Driver) error { return runPush(ctx, d, true) })
}

// pushQuiet is how long push-cancel keeps its receiver open after the
// cancel's answer, and after each later push, when no push carries a
// terminal state other than CANCELED (docs/client-driver.md).
const pushQuiet = 3 * time.Second

// runPush: serve the receiver, send non-blocking with a push config,
// receive until a push is terminal (push), or cancel once a push says the
// task is WORKING and receive what follows (push-cancel).
//
// The receiver is the kit's (a push without the config's token gets 401
// and is not taken: §13.2, validate webhook authenticity), in a server of
// the client's own: a 401 is also the first sign that the card generation
// changed (scenario 1), so the client then revalidates the card and
// re-fetches the task before it trusts anything more about it. A push about
// a task this client did not create is acknowledged but not taken (§4.3.3:
// validate that the task id matches an expected task); pushes that arrive
// before the send's answer names the task wait until it does. After an
// acknowledged cancel, a pushed state other than CANCELED is not taken (the
// kit's state rule).
func runPush(ctx context.Context, d *Driver, cancel bool) error {
	ln, err := net.Listen("tcp", d.env.WebhookListen)
	if err != nil {
		return err
	}
	token := d.env.PushToken
	switch {
	case d.faults.has(faultReusesPushToken):
		token = sharedPushToken
	case d.variants.has(variantOwnPushTokens):
		token = ownPushToken()
	}
	done := make(chan struct{})
	var once sync.Once
	finish := func() { once.Do(func() { close(done) }) }
	// refetch, working and pushed wake the action's own goroutine, which
	// alone uses the client (the receiver's handlers only record).
	refetch := make(chan struct{}, 1)
	working := make(chan struct{}, 1)
	pushed := make(chan struct{}, 1)
	// confirm: a push was applied (gets-task-after-push re-reads the task).
	confirm := make(chan struct{}, 1)
	signal := func(c chan struct{}) {
		select {
		case c <- struct{}{}:
		default:
		}
	}
	var asked atomic.Bool // push-cancel: the cancel was sent
	var (
		mu      sync.Mutex
		ours    string // the task the send created ("" until its answer)
		bound   string // the card's ETag when the webhook was bound
		pending []clientkit.Push
	)
	apply := func(p clientkit.Push) {
		switch p.Kind {
		case "task", "status":
		case "artifact":
			d.see("push", p.Kind, p.TaskID, p.ContextID, "")
			return
		default:
			return // a message, or a body this client does not read
		}
		st := a2a.TaskState(p.State)
		mu.Lock()
		known := ours
		mu.Unlock()
		d.see("push", p.Kind, p.TaskID, p.ContextID, st)
		if p.TaskID != known && !d.faults.has(faultAcceptsForgedPush) {
			d.warn("a push about task %s, which this client did not create, was not merged", p.TaskID)
			return
		}
		switch {
		case !cancel:
			if st.Terminal() {
				finish()
			}
		case !d.canceled():
			if st == a2a.TaskStateWorking {
				signal(working)
			}
			if st.Terminal() && (st != a2a.TaskStateCanceled || !asked.Load()) {
				// The task ended before the client canceled it (a push of
				// CANCELED racing the cancel's own answer is not an end).
				finish()
			}
		case st.Terminal() && st != a2a.TaskStateCanceled:
			finish() // the later terminal state came (taken or refused)
		}
	}
	onPush := func(p clientkit.Push) {
		signal(pushed)
		mu.Lock()
		if ours == "" {
			pending = append(pending, p)
			mu.Unlock()
			return
		}
		mu.Unlock()
		apply(p)
		signal(confirm)
	}
	boundETag := func() string {
		mu.Lock()
		defer mu.Unlock()
		return bound
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second,
		Handler: d.receiver(token, onPush, func() { signal(refetch) }, boundETag)}
	go func() { _ = srv.Serve(ln) }()
	defer func() {
		// Let a push being answered (the 401 the client raises on) get
		// its answer before the receiver goes: an abrupt close cut it
		// (EOF at the agent), which left CLI-037 unable to run.
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	}()
	conf := &a2a.SendMessageConfiguration{ReturnImmediately: true,
		TaskPushNotificationConfig: d.pushConfig(token)}
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
	if cancel && t.Status.State == a2a.TaskStateWorking {
		signal(working)
	}
	for _, p := range early {
		apply(p)
	}
	// quiet ends push-cancel once nothing has been pushed for pushQuiet
	// since the cancel's answer; nil (never) until then.
	var quiet *time.Timer
	var quietC <-chan time.Time
	defer func() {
		if quiet != nil {
			quiet.Stop()
		}
	}()
	for {
		select {
		case <-done:
			// Let a push racing the terminal one land before reporting.
			time.Sleep(200 * time.Millisecond)
			return nil
		case <-refetch:
			switch {
			case d.faults.has(faultNoRefetchAfter401):
				continue
			case d.faults.has(faultRebindsWebhookAfter401):
				if err := d.rebind(ctx, t.ID, conf.TaskPushNotificationConfig); err != nil {
					return err
				}
				continue
			case d.variants.has(variantRaisesAfter401):
				return &client.Error{Class: client.HTTP, Op: "push", HTTPStatus: http.StatusUnauthorized,
					Message: fmt.Sprintf("the push receiver refused a push for task %s (401): the card generation may have changed; not trusting the task any further", t.ID)}
			}
			st, err := d.refetchPushed(ctx, t.ID, cancel, finish)
			if err != nil {
				return err
			}
			if cancel && st == a2a.TaskStateWorking {
				signal(working)
			}
		case <-working:
			if d.canceled() {
				continue
			}
			asked.Store(true)
			if err := d.cancelPushed(ctx, t.ID, finish); err != nil {
				return err
			}
			if d.canceled() {
				quiet = time.NewTimer(pushQuiet)
				quietC = quiet.C
			}
		case <-pushed:
			if quiet != nil {
				quiet.Reset(pushQuiet)
			}
		case <-confirm:
			if !d.variants.has(variantGetsTaskAfterPush) {
				continue
			}
			st, err := d.confirmPushed(ctx, t.ID)
			if err != nil {
				return err
			}
			if st.Terminal() && (!cancel || st != a2a.TaskStateCanceled || !asked.Load()) {
				finish()
			}
		case <-quietC:
			return nil
		case <-ctx.Done():
			return errors.New("no terminal push arrived in time")
		}
	}
}

// refetchPushed re-fetches the task after the receiver refused a push
// (401): the card is revalidated first, and the task's state is taken from
// the agent rather than from any push (scenario 1: "do not retry a webhook
// 401 against a task you have not re-fetched"). A task that is gone is
// raised (task-not-found).
func (d *Driver) refetchPushed(ctx context.Context, id string, cancel bool, finish func()) (a2a.TaskState, error) {
	d.logf("a push was refused (401): revalidating the card and re-fetching task %s", id)
	var t *a2a.Task
	var err error
	if d.variants.has(variantResyncsBySubscribe) {
		t, err = d.snapshot(ctx, id)
	} else {
		t, err = d.getTask(ctx, id, true)
	}
	if err != nil {
		return "", err
	}
	st := t.Status.State
	if st.Terminal() && (!cancel || !d.canceled() || st != a2a.TaskStateCanceled) {
		finish()
	}
	return st, nil
}

// rebind registers the push config for the task again
// (rebinds-webhook-after-401).
func (d *Driver) rebind(ctx context.Context, id string, cfg *a2a.TaskPushNotificationConfig) error {
	c := *cfg
	c.TaskID = id
	d.logf("a push was refused (401): registering the push config of task %s again", id)
	return d.transition(ctx, func(cl *client.Client) error {
		_, e := cl.CreateTaskPushNotificationConfig(ctx, &c)
		return e
	})
}

// cancelPushed cancels the task (push-cancel) once a push said it is
// WORKING.
func (d *Driver) cancelPushed(ctx context.Context, id string, finish func()) error {
	var t *a2a.Task
	if err := d.transition(ctx, func(c *client.Client) error {
		var e error
		t, e = c.CancelTask(ctx, &a2a.CancelTaskRequest{ID: id})
		return e
	}); err != nil {
		return err
	}
	d.cancelAnswered(t)
	if t.Status.State.Terminal() && t.Status.State != a2a.TaskStateCanceled {
		finish() // the cancel lost the race: nothing to guard
	}
	return nil
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

// pushConfig is the push config the client registers: the token, or under
// push-authentication the same secret as Bearer credentials.
func (d *Driver) pushConfig(token string) *a2a.TaskPushNotificationConfig {
	if d.variants.has(variantPushAuthentication) {
		return &a2a.TaskPushNotificationConfig{URL: d.env.WebhookURL,
			Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: token}}
	}
	return &a2a.TaskPushNotificationConfig{URL: d.env.WebhookURL, Token: token}
}

// receiver is the client's push receiver: the kit's (its token check, its
// reading of the body) behind the client's own handling of a refusal, which
// it warns about and reconciles after (refused). Under accepts-forged-push
// the kit's receiver is bypassed: every readable push is taken. Under
// webhook-bound-to-card a check of the client's own comes first.
func (d *Driver) receiver(token string, onPush func(clientkit.Push), refused func(), boundETag func() string) http.Handler {
	env := d.env
	env.PushToken = token
	kit := clientkit.Handler(env, d.report, onPush)
	if d.faults.has(faultAcceptsForgedPush) {
		kit = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			if !json.Valid(body) {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			onPush(clientkit.PushState(body))
			w.WriteHeader(http.StatusOK)
		})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if etag := boundETag(); d.faults.has(faultWebhookBoundToCard) && etag != "" && d.cardETag(r.Context()) != etag {
			d.warn("refused a push: the card changed since the webhook was bound (401)")
			w.WriteHeader(http.StatusUnauthorized)
			refused()
			return
		}
		sw := &statusWriter{ResponseWriter: w}
		kit.ServeHTTP(sw, r)
		if sw.status == http.StatusUnauthorized {
			d.warn("refused a push without the config's token (401)")
			refused()
		}
	})
}

// statusWriter keeps the status a handler answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

package fakes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// PushContentType is the Content-Type of webhook bodies: v1.0.1 §4.3.3.
const PushContentType = "application/a2a+json"

// TokenHeader carries a config's token on each push. The header name is
// UNSURE in the spec (A2A v1.0 §4.3.3); this is the one a2a-python and a2a-js
// send. The spec check is Authorization.
const TokenHeader = "X-A2A-Notification-Token"

// deliveryBatch bounds the deliveries one instance claims per poll.
const deliveryBatch = 16

type memConfig struct {
	cfg     a2a.TaskPushNotificationConfig
	created int64
}

// putConfig stores a push config in the caller's transaction; under
// push-config-not-durable it goes to instance memory instead (lost at
// restart, invisible to other instances).
func (a *Agent) putConfig(ctx context.Context, tx *store.Tx, c a2a.TaskPushNotificationConfig) error {
	a.noteUnindexed(c)
	if a.lostAfterReady(c) {
		return nil
	}
	if a.faults.has(faultPushConfigNotDurable) {
		a.memMu.Lock()
		defer a.memMu.Unlock()
		k := [2]string{c.TaskID, c.ID}
		created := time.Now().UnixNano()
		if old, ok := a.memConfigs[k]; ok {
			created = old.created
		}
		a.memConfigs[k] = memConfig{cfg: c, created: created}
		return nil
	}
	if tx != nil {
		return tx.PutConfig(c)
	}
	return a.st.PutConfig(ctx, c)
}

func (a *Agent) memList(taskID string) []a2a.TaskPushNotificationConfig {
	a.memMu.Lock()
	defer a.memMu.Unlock()
	var ms []memConfig
	for k, m := range a.memConfigs {
		if k[0] == taskID {
			ms = append(ms, m)
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].created < ms[j].created })
	out := make([]a2a.TaskPushNotificationConfig, len(ms))
	for i, m := range ms {
		out[i] = m.cfg
	}
	return out
}

func (a *Agent) getConfig(ctx context.Context, taskID, id string) (a2a.TaskPushNotificationConfig, error) {
	if a.faults.has(faultPushConfigNotDurable) {
		a.memMu.Lock()
		defer a.memMu.Unlock()
		m, ok := a.memConfigs[[2]string{taskID, id}]
		if !ok {
			return a2a.TaskPushNotificationConfig{}, store.ErrNotFound
		}
		return m.cfg, nil
	}
	return a.st.GetConfig(ctx, taskID, id)
}

func (a *Agent) listConfigs(ctx context.Context, taskID string) ([]a2a.TaskPushNotificationConfig, error) {
	if a.faults.has(faultPushConfigNotDurable) {
		return a.memList(taskID), nil
	}
	return a.st.ListConfigs(ctx, taskID)
}

func (a *Agent) deleteConfig(ctx context.Context, taskID, id string) error {
	if a.faults.has(faultPushConfigNotDurable) {
		a.memMu.Lock()
		delete(a.memConfigs, [2]string{taskID, id})
		a.memMu.Unlock()
		return nil
	}
	return a.st.DeleteConfig(ctx, taskID, id)
}

// enqueuePushes records one pending delivery per config of the task, in the
// transition's transaction: a transition committed is a push owed, even if
// this instance dies the next instant.
func (a *Agent) enqueuePushes(tx *store.Tx, taskID string, state a2a.TaskState, body []byte) error {
	if !a.doPush || !a.pushesState(state) {
		return nil
	}
	var cfgs []a2a.TaskPushNotificationConfig
	if a.faults.has(faultPushConfigNotDurable) {
		cfgs = a.memList(taskID)
	} else {
		var err error
		if cfgs, err = tx.Configs(taskID); err != nil {
			return err
		}
	}
	body = a.rewrite(body)
	for _, c := range cfgs {
		if state == a2a.TaskStateCanceled && a.faults.has(faultPushDropsCancel) {
			continue
		}
		if a.snapshot != nil && !a.snapshot[[2]string{taskID, c.ID}] {
			continue
		}
		if a.isUnindexed(taskID, c.ID) {
			continue
		}
		if err := a.enqueueDelivery(tx, taskID, c.ID, body); err != nil {
			return err
		}
	}
	return a.misroute(tx, taskID, body)
}

// dispatch claims due deliveries (any instance's) and attempts them, each
// config's in order; called from the background loop.
func (a *Agent) dispatch() {
	if a.dispatcherWarming() {
		return
	}
	ctx := a.workCtx
	now := time.Now()
	due, err := a.st.HasDueDeliveries(ctx, now)
	if err != nil || !due {
		if err != nil && ctx.Err() == nil {
			a.log.Warn("polling deliveries", "err", err)
		}
		return
	}
	// The lease (twice the attempt timeout) outlives one attempt, so that no
	// other instance retries a delivery still in flight here; if this instance
	// dies mid-attempt, another one takes the delivery over when it runs out.
	batch, err := a.st.ClaimDeliveries(ctx, a.owner, now, 2*a.opts.Push.Timeout, deliveryBatch)
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("claiming deliveries", "err", err)
		}
		return
	}
	done := make(chan struct{}, len(batch))
	for _, d := range batch {
		a.inflight.add()
		go func(d store.Delivery) {
			defer a.inflight.done()
			defer func() { done <- struct{}{} }()
			a.deliver(d)
		}(d)
	}
	for range batch {
		<-done
	}
}

// deliver makes one attempt and records its outcome: done on 2xx, retried
// with exponential backoff on 5xx, 408, 429 and transport errors, dropped on
// other statuses or after MaxAttempts. The attempt itself is not cut short by
// shutdown: a drain lets it finish.
func (a *Agent) deliver(d store.Delivery) {
	if !a.holdLate(d) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), a.opts.Push.Timeout+store.BusyTimeout)
	defer cancel()
	cfg, err := a.getConfig(ctx, d.TaskID, d.ConfigID)
	if errors.Is(err, store.ErrNotFound) {
		a.finish(ctx, d, "config deleted")
		return
	}
	if err != nil {
		a.log.Warn("reading push config", "task", d.TaskID, "config", d.ConfigID, "err", err)
		a.retry(ctx, d, err.Error())
		return
	}
	status, err := a.post(ctx, cfg, a.misaddressed(ctx, d))
	switch {
	case err == nil && status >= 200 && status < 300:
		a.finish(ctx, d, "")
	case err != nil || status >= 500 || status == http.StatusRequestTimeout || status == http.StatusTooManyRequests:
		reason := fmt.Sprintf("HTTP %d", status)
		if err != nil {
			reason = err.Error()
		}
		if a.faults.has(faultPushNoRetry) {
			a.finish(ctx, d, reason+": not retried (push-no-retry)")
			return
		}
		a.retry(ctx, d, reason)
	default:
		a.finish(ctx, d, fmt.Sprintf("HTTP %d: not retried", status))
	}
}

func (a *Agent) post(ctx context.Context, cfg a2a.TaskPushNotificationConfig, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	if err := a.guardDial(req); err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", PushContentType)
	req.Header.Set(InstanceHeader, a.name)
	if auth := a.pushAuthorization(cfg); auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if cfg.Token != "" {
		req.Header.Set(TokenHeader, a.pushToken(ctx, cfg))
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, nil
}

// PushCredentials is what a push for cfg carries when the agent follows
// its config (A2A v1.0 §4.3.3): the config's token in TokenHeader and its
// authentication, "<scheme> <credentials>", in Authorization. The client
// suite's scripted agent pushes with it too, so that its authentic pushes
// are the reference agent's.
func PushCredentials(cfg a2a.TaskPushNotificationConfig) http.Header {
	h := http.Header{}
	if cfg.Token != "" {
		h.Set(TokenHeader, cfg.Token)
	}
	if a := cfg.Authentication; a != nil && a.Scheme != "" {
		h.Set("Authorization", strings.TrimSpace(a.Scheme+" "+a.Credentials))
	}
	return h
}

// pushAuthorization is "<scheme> <credentials>" from the task's own config
// (spec §4.3.3); under push-auth-from-card it is derived from what the card
// currently advertises instead, as in scenario 1.
func (a *Agent) pushAuthorization(cfg a2a.TaskPushNotificationConfig) string {
	if a.faults.has(faultPushAuthFromCard) {
		st := a.cardSnapshot()
		scheme := st.authScheme
		if scheme == "" {
			scheme = "Bearer"
		}
		return fmt.Sprintf("%s card-generation-%d", scheme, st.gen)
	}
	if auth, ok := a.rotatedPushAuthorization(); ok {
		return auth
	}
	return PushCredentials(cfg).Get("Authorization")
}

func (a *Agent) finish(ctx context.Context, d store.Delivery, reason string) {
	if reason != "" {
		a.log.Warn("push dropped", "task", d.TaskID, "config", d.ConfigID, "attempts", d.Attempts+1, "reason", reason)
	}
	if err := a.st.FinishDelivery(ctx, d.ID); err != nil {
		a.log.Warn("recording a delivery", "err", err)
	}
}

func (a *Agent) retry(ctx context.Context, d store.Delivery, reason string) {
	attempts := d.Attempts + 1
	if attempts >= a.opts.Push.MaxAttempts {
		a.finish(ctx, d, fmt.Sprintf("gave up after %d attempts: %s", attempts, reason))
		return
	}
	if err := a.st.RetryDelivery(ctx, d.ID, attempts, time.Now().Add(a.backoff(attempts)), reason); err != nil {
		a.log.Warn("recording a delivery retry", "err", err)
	}
}

// backoff is BaseDelay·2^(attempts-1), capped at MaxDelay.
func (a *Agent) backoff(attempts int) time.Duration {
	d := a.opts.Push.BaseDelay
	for i := 1; i < attempts && d < a.opts.Push.MaxDelay; i++ {
		d *= 2
	}
	if d > a.opts.Push.MaxDelay {
		d = a.opts.Push.MaxDelay
	}
	return d
}

// validWebhookURL accepts absolute http(s) URLs. Loopback and private
// addresses are allowed on purpose: the harness's receiver listens on
// 127.0.0.1. A production agent SHOULD refuse them (spec §13.2, SSRF).
func validWebhookURL(raw string) error {
	if raw == "" {
		return errors.New("url is required")
	}
	if len(raw) > 2048 {
		return errors.New("url longer than 2048 bytes")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("url is not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("url scheme %q: only http and https are delivered to", u.Scheme)
	}
	if u.Host == "" || strings.ContainsAny(u.Host, " @") {
		return errors.New("url has no valid host")
	}
	return nil
}

// webhookAllowed applies Options.WebhookAllow: a URL naming an internal
// address (loopback, private, link-local, unspecified; IP literals and
// localhost, since hosts are not resolved) is refused unless an allow-list
// prefix admits it. Public hosts pass. Under webhook-ssrf-unchecked nothing
// is refused.
func (a *Agent) webhookAllowed(raw, field string) *opError {
	if len(a.opts.WebhookAllow) == 0 || a.faults.has(faultWebhookSSRFUnchecked) {
		return nil
	}
	for _, p := range a.opts.WebhookAllow {
		if p != "" && strings.HasPrefix(raw, p) {
			return nil
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errInvalidParams(field, "the webhook URL does not parse")
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	internal := host == "localhost" || strings.HasSuffix(host, ".localhost")
	if ip := net.ParseIP(host); ip != nil {
		internal = ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
			ip.IsUnspecified() || ip.IsMulticast()
	}
	if internal {
		return errInvalidParams(field, "webhook host %q is an internal address and not on this agent's allow-list (SSRF, A2A §13.2)", truncate(host, 100))
	}
	return nil
}

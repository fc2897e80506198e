package client

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// The eleven operations (A2A v1.0 §5.3). A nil request is sent as the zero
// request. The interface's tenant fills an empty request tenant; the caller's
// request is never modified.

// SendMessage sends a message (§3.1.1). The result must carry exactly one of
// task and message; a bare v0.3-style Task is a Protocol error.
func (c *Client) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (*a2a.SendMessageResponse, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	var out a2a.SendMessageResponse
	result, status, body, err := c.roundTrip(ctx, call{op: a2a.MethodSendMessage, params: r, tenant: r.Tenant}, false)
	if err != nil {
		return nil, err
	}
	if err := c.decodeInto(a2a.MethodSendMessage, status, result, body, &out); err != nil {
		return nil, err
	}
	if n := countSet(out.Task != nil, out.Message != nil); n != 1 {
		return nil, protocolError(c.Binding(), a2a.MethodSendMessage, status, body, nil,
			"SendMessage result must hold exactly one of task and message, got %s", membersOf(result))
	}
	return &out, nil
}

// SendStreamingMessage opens a message stream (§3.1.2).
func (c *Client) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) (*Stream, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	return c.openStream(ctx, call{op: a2a.MethodSendStreamingMessage, params: r, tenant: r.Tenant, stream: true})
}

// GetTask fetches a task (§3.1.3).
func (c *Client) GetTask(ctx context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	q := url.Values{}
	setInt(q, "historyLength", r.HistoryLength)
	var out a2a.Task
	err := c.unary(ctx, call{op: a2a.MethodGetTask, params: r, tenant: r.Tenant, id: r.ID, query: q}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ListTasks lists tasks (§3.1.4). On HTTP+JSON the filters become camelCase
// query parameters (§11.5).
func (c *Client) ListTasks(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	q := url.Values{}
	setStr(q, "contextId", r.ContextID)
	setStr(q, "status", string(r.Status))
	setInt(q, "pageSize", r.PageSize)
	setStr(q, "pageToken", r.PageToken)
	setInt(q, "historyLength", r.HistoryLength)
	setStr(q, "statusTimestampAfter", r.StatusTimestampAfter)
	if r.IncludeArtifacts != nil {
		q.Set("includeArtifacts", strconv.FormatBool(*r.IncludeArtifacts))
	}
	var out a2a.ListTasksResponse
	if err := c.unary(ctx, call{op: a2a.MethodListTasks, params: r, tenant: r.Tenant, query: q}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CancelTask requests cancellation (§3.1.5). On HTTP+JSON the body is the
// request object, never a literal null (a2a-go #380).
func (c *Client) CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	var out a2a.Task
	if err := c.unary(ctx, call{op: a2a.MethodCancelTask, params: r, tenant: r.Tenant, id: r.ID}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SubscribeToTask opens a stream on an existing task (§3.1.6). On HTTP+JSON
// the verb is WithSubscribeVerb's (POST by default).
func (c *Client) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) (*Stream, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	return c.openStream(ctx, call{op: a2a.MethodSubscribeToTask, params: r, tenant: r.Tenant, id: r.ID, stream: true})
}

// CreateTaskPushNotificationConfig registers a webhook (§3.1.7).
func (c *Client) CreateTaskPushNotificationConfig(ctx context.Context, req *a2a.TaskPushNotificationConfig) (*a2a.TaskPushNotificationConfig, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	var out a2a.TaskPushNotificationConfig
	if err := c.unary(ctx, call{op: a2a.MethodCreateTaskPushNotificationConfig, params: r, tenant: r.Tenant, taskID: r.TaskID}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetTaskPushNotificationConfig reads one webhook config (§3.1.8).
func (c *Client) GetTaskPushNotificationConfig(ctx context.Context, req *a2a.TaskPushNotificationConfigRef) (*a2a.TaskPushNotificationConfig, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	var out a2a.TaskPushNotificationConfig
	if err := c.unary(ctx, call{op: a2a.MethodGetTaskPushNotificationConfig, params: r, tenant: r.Tenant, taskID: r.TaskID, id: r.ID}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListTaskPushNotificationConfigs lists a task's webhook configs (§3.1.9).
func (c *Client) ListTaskPushNotificationConfigs(ctx context.Context, req *a2a.ListTaskPushNotificationConfigsRequest) (*a2a.ListTaskPushNotificationConfigsResponse, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	q := url.Values{}
	if r.PageSize != 0 {
		q.Set("pageSize", strconv.FormatInt(int64(r.PageSize), 10))
	}
	setStr(q, "pageToken", r.PageToken)
	var out a2a.ListTaskPushNotificationConfigsResponse
	if err := c.unary(ctx, call{op: a2a.MethodListTaskPushNotificationConfigs, params: r, tenant: r.Tenant, taskID: r.TaskID, query: q}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteTaskPushNotificationConfig removes a webhook config (§3.1.10). Every
// Empty reading is success: JSON-RPC result {}, null or absent; HTTP+JSON any
// 2xx (200 or 204 in practice) with an empty body or a JSON object.
func (c *Client) DeleteTaskPushNotificationConfig(ctx context.Context, req *a2a.TaskPushNotificationConfigRef) error {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	return c.unary(ctx, call{op: a2a.MethodDeleteTaskPushNotificationConfig, params: r, tenant: r.Tenant, taskID: r.TaskID, id: r.ID}, nil)
}

// GetExtendedAgentCard fetches the authenticated card (§3.1.11).
func (c *Client) GetExtendedAgentCard(ctx context.Context, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	var out a2a.AgentCard
	if err := c.unary(ctx, call{op: a2a.MethodGetExtendedAgentCard, params: r, tenant: r.Tenant}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetExtendedAgentCardRaw is GetExtendedAgentCard that also returns the
// card as the answer carried it, for a signature check over what was
// received (§8.4.3).
func (c *Client) GetExtendedAgentCardRaw(ctx context.Context, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, json.RawMessage, error) {
	r := deref(req)
	r.Tenant = c.tenantOr(r.Tenant)
	cl := call{op: a2a.MethodGetExtendedAgentCard, params: r, tenant: r.Tenant}
	result, status, body, err := c.roundTrip(ctx, cl, false)
	if err != nil {
		return nil, nil, err
	}
	var out a2a.AgentCard
	if err := c.decodeInto(cl.op, status, result, body, &out); err != nil {
		return nil, nil, err
	}
	return &out, append(json.RawMessage(nil), result...), nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func setStr(q url.Values, k, v string) {
	if v != "" {
		q.Set(k, v)
	}
}

func setInt(q url.Values, k string, v *int32) {
	if v != nil {
		q.Set(k, strconv.FormatInt(int64(*v), 10))
	}
}

func countSet(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// membersOf names the top-level members of a JSON object for messages,
// sorted, at most 10.
func membersOf(doc []byte) string {
	keys := topKeys(doc)
	if len(keys) == 0 {
		return "no members"
	}
	if len(keys) > 10 {
		keys = append(keys[:10], "…")
	}
	return "members [" + strings.Join(keys, ", ") + "]"
}

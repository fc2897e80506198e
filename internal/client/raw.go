package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// RawRequest is a request a spec shapes itself, to send what the typed
// methods never would: an unknown method, a malformed body, a missing field, a
// wrong verb. Zero fields take the client's normal behaviour.
type RawRequest struct {
	// Method is the A2A operation. On JSON-RPC it is the envelope's method and
	// may be anything; on HTTP+JSON it selects the route unless Path is set.
	Method string
	// Params is the JSON-RPC params or the HTTP+JSON body; json.RawMessage
	// passes through unchanged (it must still be valid JSON; use Body for
	// anything else). nil omits params (JSON-RPC) or the body (HTTP+JSON).
	Params any
	// Body, when non-nil, is sent verbatim as the whole request body,
	// bypassing the envelope: malformed JSON, a wrong jsonrpc version…
	Body []byte
	// ID is the JSON-RPC id (default: the client's next number).
	ID json.RawMessage
	// Tenant, TaskID and PathID fill the HTTP+JSON route template ({taskId}
	// and {id}); Tenant defaults to the interface's.
	Tenant, TaskID, PathID string
	// Query is added to the HTTP+JSON URL.
	Query url.Values
	// Verb overrides the HTTP method; Path overrides the route (relative to
	// the interface URL, already escaped).
	Verb, Path string
	// Header is applied last: set a value to override a default, or set it to
	// an empty slice to remove the header (e.g. Content-Type).
	Header http.Header
	// Stream asks for text/event-stream (Accept header).
	Stream bool
}

// RawResponse is an answer as received: status, headers and the body capped
// at the client's WithMaxBody (Truncated says it was cut).
type RawResponse struct {
	Status    int
	Header    http.Header
	Body      []byte
	Truncated bool
	// RPCID is the JSON-RPC id sent, nil on HTTP+JSON.
	RPCID json.RawMessage
	// grpcErr is what Classify returns on gRPC (Status is then the gRPC
	// status code and Body ProtoJSON).
	grpcErr error
}

// Raw sends method with params the way the typed methods would, without
// judging the answer: on JSON-RPC an envelope with that method (known or
// not), on HTTP+JSON the method's route with params as the body. For path
// parameters or anything stranger, use RawDo.
func (c *Client) Raw(ctx context.Context, method string, params any) (*RawResponse, error) {
	return c.RawDo(ctx, RawRequest{Method: method, Params: params})
}

// RawDo sends a RawRequest. Only a failure to get any response is an error
// (Transport class), or a call the agent kept refusing as busy (Refused,
// with its last answer); a status, body or content type the spec did not
// expect is data in the RawResponse.
//
// On gRPC, Body is sent as the message bytes, Params as the rpc's request
// message (see grpcRawBody), Header as metadata; Path, Query and Verb mean
// nothing there.
func (c *Client) RawDo(ctx context.Context, rr RawRequest) (*RawResponse, error) {
	if c.grpc {
		return c.grpcRaw(ctx, rr)
	}
	req, rpcID, err := c.buildRaw(ctx, rr)
	if err != nil {
		return nil, &Error{Class: Transport, Op: rr.Method, Binding: c.Binding(), Message: "building the request failed", Err: err}
	}
	out, err := c.Do(ctx, req)
	if out != nil {
		out.RPCID = rpcID
	}
	return out, err
}

func (c *Client) buildRaw(ctx context.Context, rr RawRequest) (*http.Request, json.RawMessage, error) {
	var (
		verb, target string
		body         []byte
		rpcID        json.RawMessage
	)
	if c.jsonrpc() {
		verb, target = http.MethodPost, c.base.String()
		if rr.Path != "" {
			target = c.restURL(rr.Path, rr.Query)
		}
		body = rr.Body
		if body == nil {
			rpcID = rr.ID
			if rpcID == nil {
				rpcID = json.RawMessage(fmt.Sprint(c.nextID.Add(1)))
			}
			var err error
			body, err = json.Marshal(a2a.JSONRPCRequest{JSONRPC: "2.0", ID: rpcID, Method: rr.Method, Params: mustRaw(rr.Params)})
			if err != nil {
				return nil, nil, err
			}
		}
	} else {
		path := rr.Path
		verb = http.MethodPost
		if path == "" {
			route, ok := a2a.RESTRoutes[rr.Method]
			if !ok {
				return nil, nil, fmt.Errorf("no HTTP+JSON route for %q: set RawRequest.Path", rr.Method)
			}
			verb = route.Verb
			if rr.Method == a2a.MethodSubscribeToTask {
				verb = c.subscribeVerb
			}
			path = route.Expand(c.tenantOr(rr.Tenant), rr.TaskID, rr.PathID)
		}
		target = c.restURL(path, rr.Query)
		body = rr.Body
		if body == nil && rr.Params != nil {
			var err error
			if body, err = json.Marshal(rr.Params); err != nil {
				return nil, nil, err
			}
		}
	}
	if rr.Verb != "" {
		verb = rr.Verb
	}
	var rdr io.Reader
	if body != nil {
		rdr = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, verb, target, rdr)
	if err != nil {
		return nil, nil, err
	}
	c.setHeaders(req.Header, body != nil, rr.Stream)
	for k, vs := range rr.Header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	return req, rpcID, nil
}

// Do sends a request the spec built entirely itself, through the client's
// http.Client, bounded by ctx, and returns the capped answer. The client's
// configured headers (WithHeader credentials, A2A-Version…) are added only
// where req does not set that header. A "not now" answer (429, 503) is
// retried as on the typed calls when the body can be sent again
// (req.GetBody); given up, the last answer comes with a Refused error.
func (c *Client) Do(ctx context.Context, req *http.Request) (*RawResponse, error) {
	op := strings.TrimSpace(req.Method + " " + req.URL.Path)
	var (
		out   *RawResponse
		tries int
	)
	err := c.retryBusy(ctx, op, func() (string, error) {
		tries++
		r := req
		if tries > 1 {
			if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
				return "", nil // the body cannot be sent again: keep the answer
			}
			r = req.Clone(ctx)
			if req.GetBody != nil {
				b, err := req.GetBody()
				if err != nil {
					return "", nil
				}
				r.Body = b
			}
		}
		o, err := c.doOnce(ctx, r, op)
		out = o
		if err == nil && busyStatus(o.Status) {
			ra := o.Header.Get("Retry-After")
			return ra, &Error{Class: HTTP, Op: op, Binding: c.Binding(), HTTPStatus: o.Status, RetryAfter: capString(ra, maxRetryAfterText),
				Message: fmt.Sprintf("HTTP %d %s", o.Status, http.StatusText(o.Status)), Err: errRawBusy}
		}
		return "", err
	})
	if errors.Is(err, errRawBusy) && !ErrRefused(err) {
		err = nil // the raw answer is data, as without busy retry
	}
	return out, err
}

// errRawBusy marks the busy answer of a raw call inside retryBusy.
var errRawBusy = errors.New("busy raw answer")

func (c *Client) doOnce(ctx context.Context, req *http.Request, op string) (*RawResponse, error) {
	req = req.WithContext(ctx)
	defaults := http.Header{}
	c.setHeaders(defaults, false, false)
	defaults.Del("Accept")
	for k, vs := range defaults {
		if _, set := req.Header[k]; !set {
			req.Header[k] = vs
		}
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, &Error{Class: Transport, Op: op, Binding: c.Binding(), Message: "request failed", Err: err}
	}
	defer resp.Body.Close()
	body, rerr := readCapped(resp.Body, c.maxBody)
	out := &RawResponse{Status: resp.StatusCode, Header: resp.Header, Body: body}
	if rerr == errBodyTooLarge {
		out.Truncated = true
	} else if rerr != nil {
		return out, &Error{Class: Transport, Op: op, Binding: c.Binding(), HTTPStatus: resp.StatusCode,
			Message: "reading the response body failed", Body: capBody(body), Err: rerr}
	}
	return out, nil
}

// Classify judges a raw answer the way the typed method op would have,
// returning nil for a success, or the *Error (A2A, HTTP or Protocol class) the
// typed method would have returned. A spec that sent something odd uses it to
// ask "was that a TaskNotFoundError?" without parsing bodies itself.
func (c *Client) Classify(op string, r *RawResponse) error {
	if r == nil {
		return nil
	}
	if c.grpc {
		return r.grpcErr
	}
	resp := &http.Response{StatusCode: r.Status, Header: r.Header}
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	if r.Truncated {
		return protocolError(c.Binding(), op, r.Status, r.Body, errBodyTooLarge,
			"body exceeded %s (the harness's cap per response)", HumanBytes(c.maxBody))
	}
	_, err := c.unaryResult(op, resp, r.Body, r.RPCID, op == a2a.MethodDeleteTaskPushNotificationConfig)
	return err
}

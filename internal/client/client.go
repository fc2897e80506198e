// Package client is the harness's A2A v1.0 client: both HTTP bindings
// (JSON-RPC 2.0, spec §9, and HTTP+JSON, spec §11) for all eleven operations,
// built to observe an agent rather than to hide its mistakes.
//
// It accepts every reading the spec allows (the points where the A2A v1.0 text leaves room: the
// three Delete result shapes, 200 or 204 on REST delete, application/json and
// application/a2a+json, both SSE framings, the three mid-stream error
// framings, errors before or inside a stream) and reports everything else as
// a Protocol-class *Error carrying the offending bytes. Errors are classified
// the same way on both bindings (see Error). Every request is bounded by its
// context and every response body by a cap (WithMaxBody); a stream's bound is
// per event.
//
// The client does not follow a card's other interfaces or cache: a
// conformance spec decides those things itself. It retries one thing, when
// built WithBusyRetry: an answer that says "not now" (429, 503, gRPC
// RESOURCE_EXHAUSTED or UNAVAILABLE), which is no answer to judge (busy.go).
package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/a2agrpc"
)

const (
	// DefaultMaxBody caps a response body (or, on a stream, one event): 8 MiB.
	DefaultMaxBody = 8 << 20
	// HeaderVersion and HeaderExtensions are the A2A service parameters (§3.2.6).
	HeaderVersion    = "A2A-Version"
	HeaderExtensions = "A2A-Extensions"
	// ContentTypeJSON is sent by default; ContentTypeA2AJSON is v1.0.1's SHOULD
	// for HTTP+JSON (§11.1). Both are accepted on responses.
	ContentTypeJSON    = "application/json"
	ContentTypeA2AJSON = "application/a2a+json"
	// ContentTypeSSE is the only acceptable content type of a stream.
	ContentTypeSSE = "text/event-stream"
	userAgent      = "a2a-conform"
)

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the http.Client (for the recorder's transport, TLS
// settings…). Its Timeout, if any, applies on top of each call's context.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc != nil {
			c.hc = hc
		}
	}
}

// WithHeader adds a header to every request (credentials, tracing). Given
// twice with the same name it sends both values; it overrides a default the
// client would otherwise set (A2A-Version, Content-Type, Accept…).
func WithHeader(name, value string) Option {
	return func(c *Client) { c.header.Add(name, value) }
}

// WithVersion sets the A2A-Version header (default "1.0"); "" sends none, for
// the negotiation specs (§3.2.6: absent means 0.3).
func WithVersion(v string) Option {
	return func(c *Client) { c.version = v }
}

// WithMaxBody caps each response body, and each stream event, in bytes.
func WithMaxBody(n int64) Option {
	return func(c *Client) {
		if n > 0 {
			c.maxBody = n
		}
	}
}

// WithSubscribeVerb sets the REST verb for SubscribeToTask: "POST" (the spec
// prose, the default) or "GET" (the proto); A2A #1574 is unresolved.
func WithSubscribeVerb(verb string) Option {
	return func(c *Client) { c.subscribeVerb = strings.ToUpper(verb) }
}

// WithExtensions declares extension URIs in the A2A-Extensions header.
func WithExtensions(uris ...string) Option {
	return func(c *Client) { c.extensions = append(c.extensions, uris...) }
}

// WithContentType sets the request Content-Type (default application/json).
func WithContentType(ct string) Option {
	return func(c *Client) { c.contentType = ct }
}

// Client speaks one binding to one interface URL. It is safe for concurrent
// use.
type Client struct {
	iface         a2a.AgentInterface
	base          *url.URL
	hc            *http.Client
	header        http.Header
	version       string
	maxBody       int64
	subscribeVerb string
	extensions    []string
	contentType   string
	nextID        atomic.Int64

	// gRPC binding (grpc.go).
	grpc      bool
	target    grpcTarget
	schema    *a2agrpc.Schema
	callRec   CallRecorder
	tlsConfig *tls.Config
	tlsObs    TLSObserver
	dialOpts  []grpc.DialOption

	// Busy retry (busy.go).
	busyPatience func() time.Duration
	refusalObs   RefusalObserver
	// pace bounds and counts gRPC calls (pace.go).
	pace *Pace
}

// New returns a client for one interface. The interface's tenant is copied
// into every request whose own tenant is empty (v1.0.1 §8.3.2 item 4), and on
// HTTP+JSON it becomes the /{tenant} path prefix.
func New(iface a2a.AgentInterface, opts ...Option) (*Client, error) {
	var (
		u      *url.URL
		target grpcTarget
		err    error
	)
	switch iface.ProtocolBinding {
	case a2a.BindingJSONRPC, a2a.BindingHTTPJSON:
		u, err = url.Parse(iface.URL)
		if err != nil {
			return nil, fmt.Errorf("client: interface URL %q: %v", iface.URL, err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("client: interface URL %q is not an absolute http(s) URL", iface.URL)
		}
	case a2a.BindingGRPC:
		target, u, err = grpcURLHost(iface.URL)
		if err != nil {
			return nil, fmt.Errorf("client: %v", err)
		}
	default:
		return nil, fmt.Errorf("client: binding %q is not supported (supported: %s)",
			iface.ProtocolBinding, strings.Join(Bindings, ", "))
	}
	c := &Client{grpc: iface.ProtocolBinding == a2a.BindingGRPC, target: target,
		iface: iface, base: u, hc: http.DefaultClient, header: http.Header{},
		version: a2a.ProtocolVersion, maxBody: DefaultMaxBody, subscribeVerb: http.MethodPost,
		contentType: ContentTypeJSON,
	}
	for _, o := range opts {
		o(c)
	}
	if c.grpc && c.schema == nil {
		if c.schema, err = a2agrpc.Builtin(); err != nil {
			return nil, err
		}
	}
	if c.subscribeVerb != http.MethodPost && c.subscribeVerb != http.MethodGet {
		return nil, fmt.Errorf("client: subscribe verb %q is neither POST nor GET", c.subscribeVerb)
	}
	return c, nil
}

// Authority is the host:port the client talks to (the port filled in from
// the scheme when the URL has none), the key the run's TLS sessions are
// remembered by (AuthorityOf).
func (c *Client) Authority() string {
	if c.grpc {
		return c.target.hostport
	}
	return AuthorityOf(c.base)
}

// AuthorityOf is a URL's host:port, with the scheme's default port (443 for
// https, 80 otherwise) when it names none.
func AuthorityOf(u *url.URL) string {
	if u == nil {
		return ""
	}
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if strings.EqualFold(u.Scheme, "https") || strings.EqualFold(u.Scheme, "grpcs") {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// Bindings are the bindings this client speaks.
var Bindings = []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON, a2a.BindingGRPC}

// Speaks reports whether the client speaks a binding.
func Speaks(binding string) bool {
	for _, b := range Bindings {
		if b == binding {
			return true
		}
	}
	return false
}

// FromCard walks the card's supportedInterfaces in order and builds a client
// for the first binding this client supports (§8.3.2: the order states the
// agent's preference).
func FromCard(card *a2a.AgentCard, opts ...Option) (*Client, error) {
	if card == nil {
		return nil, errors.New("client: no card")
	}
	var declared []string
	for _, i := range card.SupportedInterfaces {
		if Speaks(i.ProtocolBinding) {
			return New(i, opts...)
		}
		declared = append(declared, fmt.Sprintf("%q at %q", i.ProtocolBinding, i.URL))
	}
	if len(declared) == 0 {
		return nil, errors.New("client: the card declares no supportedInterfaces")
	}
	return nil, fmt.Errorf("client: none of the card's interfaces uses a supported binding (%s); declared: %s",
		strings.Join(Bindings, ", "), strings.Join(declared, ", "))
}

// Binding returns a2a.BindingJSONRPC, a2a.BindingHTTPJSON or a2a.BindingGRPC.
func (c *Client) Binding() string { return c.iface.ProtocolBinding }

// Interface returns the interface the client talks to.
func (c *Client) Interface() a2a.AgentInterface { return c.iface }

func (c *Client) jsonrpc() bool { return c.iface.ProtocolBinding == a2a.BindingJSONRPC }

// call describes one operation independently of the binding.
type call struct {
	op     string
	params any        // JSON-RPC params; the HTTP+JSON body when the route has one
	tenant string     // HTTP+JSON path prefix
	taskID string     // HTTP+JSON {taskId}
	id     string     // HTTP+JSON {id}
	query  url.Values // HTTP+JSON query
	stream bool
}

// prepared is a built request plus what is needed to judge its answer.
type prepared struct {
	req   *http.Request
	rpcID json.RawMessage
}

func (c *Client) setHeaders(h http.Header, hasBody, stream bool) {
	if c.version != "" {
		h.Set(HeaderVersion, c.version)
	}
	if len(c.extensions) > 0 {
		h.Set(HeaderExtensions, strings.Join(c.extensions, ", "))
	}
	if hasBody {
		h.Set("Content-Type", c.contentType)
	}
	if stream {
		h.Set("Accept", ContentTypeSSE)
	} else {
		h.Set("Accept", ContentTypeJSON+", "+ContentTypeA2AJSON)
	}
	h.Set("User-Agent", userAgent)
	for name, vals := range c.header {
		h.Del(name)
		for _, v := range vals {
			h.Add(name, v)
		}
	}
}

func (c *Client) build(ctx context.Context, cl call) (*prepared, error) {
	if c.jsonrpc() {
		id := c.nextID.Add(1)
		rpcID := json.RawMessage(fmt.Sprint(id))
		body, err := json.Marshal(a2a.JSONRPCRequest{JSONRPC: "2.0", ID: rpcID, Method: cl.op, Params: mustRaw(cl.params)})
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base.String(), bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		c.setHeaders(req.Header, true, cl.stream)
		return &prepared{req: req, rpcID: rpcID}, nil
	}
	route, ok := a2a.RESTRoutes[cl.op]
	if !ok {
		return nil, fmt.Errorf("no HTTP+JSON route for %q", cl.op)
	}
	verb := route.Verb
	if cl.op == a2a.MethodSubscribeToTask {
		verb = c.subscribeVerb
	}
	u := c.restURL(route.Expand(cl.tenant, cl.taskID, cl.id), cl.query)
	var body io.Reader
	hasBody := verb == http.MethodPost
	if hasBody {
		b, err := json.Marshal(cl.params)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, verb, u, body)
	if err != nil {
		return nil, err
	}
	c.setHeaders(req.Header, hasBody, cl.stream)
	return &prepared{req: req}, nil
}

// restURL appends an HTTP+JSON path to the interface URL (paths are relative
// to it, §11.3) and sets the query.
func (c *Client) restURL(path string, q url.Values) string {
	u := *c.base
	// Expand escaped each path value as one segment; keep that escaping on
	// the wire by setting RawPath alongside Path.
	raw := strings.TrimRight(c.base.EscapedPath(), "/") + path
	if unescaped, err := url.PathUnescape(raw); err == nil {
		u.Path, u.RawPath = unescaped, raw
	}
	if len(q) > 0 {
		// Keep any query the interface URL itself carries (an API key, say).
		merged := c.base.Query()
		for k, v := range q {
			merged[k] = v
		}
		u.RawQuery = merged.Encode()
	}
	u.Fragment = ""
	return u.String()
}

func mustRaw(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	if r, ok := v.(json.RawMessage); ok {
		return r
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// send performs the request, mapping a failure to a Transport error.
func (c *Client) send(op string, p *prepared) (*http.Response, error) {
	resp, err := c.hc.Do(p.req)
	if err != nil {
		return nil, &Error{Class: Transport, Op: op, Binding: c.Binding(), Message: "request failed", Err: err}
	}
	if resp.Header.Get(BalancerErrorHeader) != "" {
		// The harness's own balancer could not reach the instance: no
		// answer of the agent's, so never judged as one (a dead agent is
		// not an agent answering 502).
		body, _ := readCapped(resp.Body, 4<<10)
		resp.Body.Close()
		return nil, &Error{Class: Transport, Op: op, Binding: c.Binding(), HTTPStatus: resp.StatusCode, Body: capBody(body),
			Message: "no answer from the agent: " + capString(strings.TrimSpace(string(body)), 300)}
	}
	return resp, nil
}

// BalancerErrorHeader marks a response the harness's own load balancer
// wrote because the instance behind it did not answer: the client reports
// it as a transport failure, never as the agent's HTTP answer.
const BalancerErrorHeader = "A2A-Conform-Balancer-Error"

// errBodyTooLarge is wrapped by the Protocol error for an oversized body.
var errBodyTooLarge = errors.New("response body exceeded the cap")

// readCapped reads at most max bytes, reporting an overflow rather than
// truncating silently. The transport's Guard may hit its own cap first; that
// is the same overflow.
func readCapped(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	var be *BoundError
	if errors.As(err, &be) && be.Kind == "oversized" {
		return b[:min(int64(len(b)), max)], errBodyTooLarge
	}
	if err != nil {
		return b, err
	}
	if int64(len(b)) > max {
		return b[:max], errBodyTooLarge
	}
	return b, nil
}

// readBody reads a response body under the cap, mapping failures to the
// right class: a read error is Transport, an overflow is Protocol.
func (c *Client) readBody(op string, resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	body, err := readCapped(resp.Body, c.maxBody)
	switch {
	case errors.Is(err, errBodyTooLarge):
		return nil, protocolError(c.Binding(), op, resp.StatusCode, body, err,
			"body exceeded %s (the harness's cap per response)", HumanBytes(c.maxBody))
	case err != nil:
		return nil, &Error{Class: Transport, Op: op, Binding: c.Binding(), HTTPStatus: resp.StatusCode,
			Message: "reading the response body failed", Body: capBody(body), Err: err}
	}
	return body, nil
}

func capString(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// isJSONType accepts application/json, application/a2a+json and any other
// application/*+json, with parameters such as charset.
func isJSONType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == ContentTypeJSON || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

func isSSEType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == ContentTypeSSE
}

func success(status int) bool { return status >= 200 && status <= 299 }

// unaryResult judges a complete non-stream response and returns the result
// document (the JSON-RPC result member, or the HTTP+JSON body). allowEmpty is
// for DeleteTaskPushNotificationConfig: the result may be {}, null or absent
// on JSON-RPC, and the body empty or {} on HTTP+JSON; then nil is returned.
func (c *Client) unaryResult(op string, resp *http.Response, body []byte, rpcID json.RawMessage, allowEmpty bool) (json.RawMessage, error) {
	b := c.Binding()
	status := resp.StatusCode
	ct := resp.Header.Get("Content-Type")
	if status >= 300 && status <= 399 {
		return nil, &Error{Class: HTTP, Op: op, Binding: b, HTTPStatus: status, Body: capBody(body),
			Message: fmt.Sprintf("HTTP %d redirect to %s, not followed (the harness never follows a redirect to another origin)",
				status, capString(resp.Header.Get("Location"), 200))}
	}
	if c.jsonrpc() {
		if !success(status) {
			if out, err := decodeJSONRPCResponse(body, nil, false); err == nil && out.rpcErr != nil {
				return nil, a2aError(b, op, status, false, *out.rpcErr, body)
			}
			return nil, httpError(b, op, status, body)
		}
		if !isJSONType(ct) {
			return nil, protocolError(b, op, status, body, nil, "response Content-Type is %s, want %s", quoteCapped(ct, 100), ContentTypeJSON)
		}
		if err := checkJSONText(body); err != nil {
			return nil, protocolError(b, op, status, body, err, "%v", err)
		}
		out, err := decodeJSONRPCResponse(body, rpcID, allowEmpty)
		if err != nil {
			return nil, protocolError(b, op, status, body, err, "%v", err)
		}
		if out.rpcErr != nil {
			return nil, a2aError(b, op, status, false, *out.rpcErr, body)
		}
		if allowEmpty {
			return nil, emptyResult(b, op, status, out.result, body)
		}
		return c.objectResult(op, status, out.result, body)
	}
	if !success(status) {
		if f, ok := restErrorBody(body); ok {
			return nil, a2aError(b, op, status, false, f, body)
		}
		return nil, httpError(b, op, status, body)
	}
	if allowEmpty && len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	if !isJSONType(ct) {
		return nil, protocolError(b, op, status, body, nil, "response Content-Type is %s, want %s or %s", quoteCapped(ct, 100), ContentTypeJSON, ContentTypeA2AJSON)
	}
	if err := checkJSONText(body); err != nil {
		return nil, protocolError(b, op, status, body, err, "%v", err)
	}
	if f, ok := restErrorBody(body); ok {
		// An error body under a 2xx status: still an A2A error, but its status
		// matches no table, which Tables (empty) shows.
		return nil, a2aError(b, op, status, false, f, body)
	}
	if allowEmpty {
		return nil, emptyResult(b, op, status, body, body)
	}
	return c.objectResult(op, status, body, body)
}

// emptyResult accepts the Empty readings: absent, null or a JSON object.
func emptyResult(binding, op string, status int, result, body []byte) error {
	r := bytes.TrimSpace(result)
	if len(r) == 0 || bytes.Equal(r, []byte("null")) {
		return nil
	}
	var m map[string]json.RawMessage
	if r[0] != '{' || json.Unmarshal(r, &m) != nil {
		return protocolError(binding, op, status, body, nil, "result of %s must be {} (google.protobuf.Empty), null or absent; got %s", op, snippet(r))
	}
	return nil
}

// objectResult requires a JSON object: a null or scalar result of an
// operation that returns a message is a protocol violation.
func (c *Client) objectResult(op string, status int, result, body []byte) (json.RawMessage, error) {
	r := bytes.TrimSpace(result)
	if len(r) == 0 || r[0] != '{' || !json.Valid(r) {
		what := "not a JSON object"
		if len(r) == 0 {
			what = "empty"
		} else if !json.Valid(r) {
			what = "not valid JSON"
		}
		return nil, protocolError(c.Binding(), op, status, body, nil, "result of %s is %s: %s", op, what, snippet(r))
	}
	return r, nil
}

func httpError(binding, op string, status int, body []byte) *Error {
	return &Error{Class: HTTP, Op: op, Binding: binding, HTTPStatus: status,
		Message: fmt.Sprintf("HTTP %d %s without an A2A error body", status, http.StatusText(status)), Body: capBody(body)}
}

// decodeInto decodes a result into v (a lenient a2a type), mapping a type
// mismatch to a Protocol error.
func (c *Client) decodeInto(op string, status int, result, body []byte, v any) error {
	if err := json.Unmarshal(result, v); err != nil {
		return protocolError(c.Binding(), op, status, body, err, "result of %s does not decode: %v", op, err)
	}
	return nil
}

// roundTrip runs one request/response operation and returns its judged
// result document, the status and the body (for evidence). A "not now"
// answer is retried (busy.go).
func (c *Client) roundTrip(ctx context.Context, cl call, allowEmpty bool) (result json.RawMessage, status int, body []byte, err error) {
	err = c.retryBusy(ctx, cl.op, func() (string, error) {
		var retryAfter string
		if c.grpc {
			result, status, body, retryAfter, err = c.grpcUnary(ctx, cl, allowEmpty)
		} else {
			result, status, body, retryAfter, err = c.roundTripOnce(ctx, cl, allowEmpty)
		}
		return retryAfter, err
	})
	return result, status, body, err
}

// roundTripOnce is one attempt of roundTrip on HTTP; retryAfter is the
// answer's Retry-After when it refused the call as busy.
func (c *Client) roundTripOnce(ctx context.Context, cl call, allowEmpty bool) (json.RawMessage, int, []byte, string, error) {
	p, err := c.build(ctx, cl)
	if err != nil {
		return nil, 0, nil, "", &Error{Class: Transport, Op: cl.op, Binding: c.Binding(), Message: "building the request failed", Err: err}
	}
	resp, err := c.send(cl.op, p)
	if err != nil {
		return nil, 0, nil, "", err
	}
	retryAfter := busyRetryAfter(resp)
	body, err := c.readBody(cl.op, resp)
	if err != nil {
		return nil, resp.StatusCode, nil, retryAfter, err
	}
	result, err := c.unaryResult(cl.op, resp, body, p.rpcID, allowEmpty)
	if ce, ok := AsError(err); ok {
		ce.RetryAfter = capString(retryAfter, maxRetryAfterText)
	}
	return result, resp.StatusCode, body, retryAfter, err
}

// busyRetryAfter is the Retry-After of a busy answer ("" otherwise).
func busyRetryAfter(resp *http.Response) string {
	if !busyStatus(resp.StatusCode) {
		return ""
	}
	return resp.Header.Get("Retry-After")
}

// unary runs one operation and decodes its result into out (nil for Delete,
// whose result is Empty).
func (c *Client) unary(ctx context.Context, cl call, out any) error {
	result, status, body, err := c.roundTrip(ctx, cl, out == nil)
	if err != nil || out == nil {
		return err
	}
	return c.decodeInto(cl.op, status, result, body, out)
}

// topKeys returns the sorted member names of a JSON object, nil otherwise.
func topKeys(doc []byte) []string {
	var m map[string]json.RawMessage
	if json.Unmarshal(doc, &m) != nil {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// tenantOr applies the interface's tenant when the request has none.
func (c *Client) tenantOr(t string) string {
	if t != "" {
		return t
	}
	return c.iface.Tenant
}

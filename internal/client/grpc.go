package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/a2agrpc"
	"github.com/a2a-conform/a2a-conform/internal/sse"
)

// The gRPC binding (spec §10). Requests are built as ProtoJSON documents, as
// on the other bindings, then parsed into lf.a2a.v1 messages (package
// a2agrpc) and sent; answers are rendered back to ProtoJSON and judged by the
// same decoders. So one wire model serves all three bindings, and every
// check a spec makes on a Task means the same thing on each.

// CallLog records one gRPC call into a transcript (the recorder's Call).
type CallLog interface {
	// Event records one message of a server stream, as ProtoJSON.
	Event(data []byte)
	// End records the outcome: the gRPC status code, the response header
	// and trailer metadata, the response (or google.rpc.Status) as
	// ProtoJSON, and a transport error if any.
	End(code int, header http.Header, body []byte, err error)
}

// CallRecorder starts the record of one gRPC call: method is the rpc name,
// target the grpc:// URL, header the request metadata, body the request as
// ProtoJSON.
type CallRecorder func(ctx context.Context, method, target string, header http.Header, body []byte) CallLog

// WithCallRecorder records gRPC calls (HTTP calls are recorded by the
// http.Client's transport, WithHTTPClient).
func WithCallRecorder(r CallRecorder) Option {
	return func(c *Client) { c.callRec = r }
}

// WithGRPCSchema replaces the built-in lf.a2a.v1 descriptors (e.g. with the
// specification's own, loaded by a2agrpc.FromDescriptorSet).
func WithGRPCSchema(s *a2agrpc.Schema) Option {
	return func(c *Client) {
		if s != nil {
			c.schema = s
		}
	}
}

// WithGRPCDialOptions adds dial options to the client's own gRPC
// connection (not shared with other clients): an in-memory dialer in tests
// and benchmarks, say.
func WithGRPCDialOptions(opts ...grpc.DialOption) Option {
	return func(c *Client) { c.dialOpts = append(c.dialOpts, opts...) }
}

// WithTLSConfig sets the TLS configuration of gRPC connections (roots, SNI).
func WithTLSConfig(cfg *tls.Config) Option {
	return func(c *Client) { c.tlsConfig = cfg }
}

// TLSObserver is told the TLS session of a gRPC call: the authority
// (host:port) and the negotiated state. HTTP calls show theirs on the
// http.Response, to the http.Client's transport.
type TLSObserver func(authority string, st tls.ConnectionState)

// WithTLSObserver reports the TLS session of every gRPC call over TLS.
func WithTLSObserver(f TLSObserver) Option {
	return func(c *Client) { c.tlsObs = f }
}

// notePeer passes a call's TLS session to the observer.
func (c *Client) notePeer(p *peer.Peer) {
	if c.tlsObs == nil || p == nil {
		return
	}
	if info, ok := p.AuthInfo.(credentials.TLSInfo); ok {
		c.tlsObs(c.target.hostport, info.State)
	}
}

// grpcTarget is a gRPC interface URL understood: https:// or grpcs:// (TLS),
// http:// or grpc:// (plaintext h2c), or main's bare host:port (TLS, except
// on a loopback host, where plaintext is assumed: A2A v1.0 §10).
type grpcTarget struct {
	hostport  string
	plaintext bool
}

func parseGRPCURL(raw string) (grpcTarget, error) {
	var t grpcTarget
	s := strings.TrimSpace(raw)
	scheme, rest, hasScheme := strings.Cut(s, "://")
	if !hasScheme {
		rest, scheme = s, ""
	}
	switch strings.ToLower(scheme) {
	case "https", "grpcs":
	case "http", "grpc":
		t.plaintext = true
	case "":
	default:
		return t, fmt.Errorf("gRPC interface URL %q: scheme %q is neither https, grpcs, http nor grpc", raw, scheme)
	}
	// A path after host:port names nothing in gRPC (the method path is
	// fixed by the service); keep the authority only.
	host := rest
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if host == "" {
		return t, fmt.Errorf("gRPC interface URL %q has no host", raw)
	}
	if _, _, err := net.SplitHostPort(host); err != nil {
		if t.plaintext {
			host = net.JoinHostPort(strings.Trim(host, "[]"), "80")
		} else {
			host = net.JoinHostPort(strings.Trim(host, "[]"), "443")
		}
	}
	h, _, _ := net.SplitHostPort(host)
	loop := isLoopback(h)
	if scheme == "" && loop {
		t.plaintext = true
	}
	if t.plaintext && !loop && !plaintextAllowed(h) {
		return t, fmt.Errorf("gRPC interface URL %q asks for plaintext to a host that is not loopback; the harness speaks plaintext h2c only to loopback (spec §10.1: gRPC is secured with TLS), or to a host named with --grpc-plaintext-host (e.g. an agent in a CI service network)", raw)
	}
	t.hostport = host
	return t, nil
}

// plaintextHosts are the hosts besides loopback the run may speak plaintext
// h2c to (AllowPlaintext).
var plaintextHosts struct {
	sync.RWMutex
	m map[string]bool
}

// AllowPlaintext lets gRPC clients speak plaintext h2c to these hosts
// besides loopback (--grpc-plaintext-host): an agent in a CI service network
// at a name such as "agent", whose card says http://agent:50051. The run
// opts in by name, and says so in its report; nothing else widens it.
func AllowPlaintext(hosts ...string) {
	plaintextHosts.Lock()
	defer plaintextHosts.Unlock()
	plaintextHosts.m = map[string]bool{}
	for _, h := range hosts {
		if h = strings.ToLower(strings.Trim(strings.TrimSpace(h), "[]")); h != "" {
			plaintextHosts.m[h] = true
		}
	}
}

func plaintextAllowed(host string) bool {
	plaintextHosts.RLock()
	defer plaintextHosts.RUnlock()
	return plaintextHosts.m[strings.ToLower(strings.Trim(host, "[]"))]
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// conns shares one ClientConn per target and TLS mode across clients: specs
// build clients freely, and a connection per client would leave one idle
// HTTP/2 connection behind each. Idle channels drop their transports.
var conns = struct {
	sync.Mutex
	m map[string]*grpc.ClientConn
}{m: map[string]*grpc.ClientConn{}}

func (c *Client) grpcConn() (*grpc.ClientConn, error) {
	key := c.target.hostport
	if c.target.plaintext {
		key += "|h2c"
	} else if c.tlsConfig != nil {
		key += fmt.Sprintf("|tls%p", c.tlsConfig)
	}
	if len(c.dialOpts) > 0 {
		key = fmt.Sprintf("%s|client%p", key, c)
	}
	conns.Lock()
	defer conns.Unlock()
	if cc, ok := conns.m[key]; ok {
		return cc, nil
	}
	var creds credentials.TransportCredentials
	if c.target.plaintext {
		creds = insecure.NewCredentials()
	} else {
		cfg := c.tlsConfig
		if cfg == nil {
			cfg = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		creds = credentials.NewTLS(cfg)
	}
	opts := append([]grpc.DialOption{grpc.WithTransportCredentials(creds),
		grpc.WithIdleTimeout(30 * time.Second),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(int(min(c.maxBody, 1<<30)))),
		grpc.WithUserAgent(userAgent)}, c.dialOpts...)
	cc, err := grpc.NewClient("passthrough:///"+c.target.hostport, opts...)
	if err != nil {
		return nil, err
	}
	conns.m[key] = cc
	return cc, nil
}

// Plaintext reports whether a gRPC client speaks h2c without TLS (loopback
// only): specs report it as an observation.
func (c *Client) Plaintext() bool { return c.grpc && c.target.plaintext }

// grpcURL is the transcript's URL of one call.
func (c *Client) grpcURL(method string) string {
	return "grpc://" + c.target.hostport + "/" + a2agrpc.Service + "/" + method
}

// outgoing builds the request metadata: the service parameters (spec §10.2,
// lowercase keys) and the run's headers (credentials), minus the HTTP
// headers gRPC reserves.
func (c *Client) outgoing() metadata.MD {
	md := metadata.MD{}
	if c.version != "" {
		md.Set(a2agrpc.MDVersion, c.version)
	}
	if len(c.extensions) > 0 {
		md.Set(a2agrpc.MDExtensions, strings.Join(c.extensions, ", "))
	}
	for name, vals := range c.header {
		k := strings.ToLower(name)
		switch k {
		case "content-type", "accept", "user-agent", "host", "connection", "te", "transfer-encoding", "content-length":
			continue
		}
		md[k] = append([]string(nil), vals...)
	}
	return md
}

func mdHeader(mds ...metadata.MD) http.Header {
	h := http.Header{}
	for _, md := range mds {
		for k, vs := range md {
			if strings.HasSuffix(k, "-bin") {
				continue
			}
			for _, v := range vs {
				h.Add(k, v)
			}
		}
	}
	return h
}

// noLog is the CallLog of an unrecorded client.
type noLog struct{}

func (noLog) Event([]byte)                        {}
func (noLog) End(int, http.Header, []byte, error) {}

func (c *Client) startLog(ctx context.Context, op string, md metadata.MD, body []byte) CallLog {
	if c.callRec == nil {
		return noLog{}
	}
	if l := c.callRec(ctx, op, c.grpcURL(op), mdHeader(md), body); l != nil {
		return l
	}
	return noLog{}
}

// grpcRequest turns the call's ProtoJSON params into the rpc's request
// message.
func (c *Client) grpcRequest(cl call) (a2agrpc.Method, *dynamicpb.Message, []byte, error) {
	m, ok := c.schema.Method(cl.op)
	if !ok {
		return m, nil, nil, fmt.Errorf("the gRPC schema (%s) has no rpc %s", c.schema.Origin, cl.op)
	}
	doc, err := json.Marshal(cl.params)
	if err != nil {
		return m, nil, nil, err
	}
	if cl.params == nil {
		doc = []byte("{}")
	}
	req, err := a2agrpc.FromJSON(m.In, doc)
	if err != nil {
		return m, nil, nil, fmt.Errorf("the request does not fit %s: %v", m.In.FullName(), err)
	}
	// Record what was sent: the request rendered back, so members the proto
	// cannot carry do not appear to have been sent.
	sent, _ := a2agrpc.ToJSON(req)
	return m, req, sent, nil
}

// grpcError classifies a failed call the way the HTTP bindings are: a
// status the server sent is an A2A-class error (its kind from the ErrorInfo
// reason, spec §10.6), a call that never got an answer is Transport.
func (c *Client) grpcError(ctx context.Context, op string, err error, inStream bool) *Error {
	st, ok := status.FromError(err)
	if !ok {
		return &Error{Class: Transport, Op: op, Binding: c.Binding(), Message: "gRPC call failed", Err: err, InStream: inStream}
	}
	if ctx.Err() != nil || st.Code() == codes.Canceled || st.Code() == codes.DeadlineExceeded && len(st.Details()) == 0 {
		return &Error{Class: Transport, Op: op, Binding: c.Binding(), Message: "gRPC call ended: " + st.Message(), Err: err, InStream: inStream}
	}
	if st.Code() == codes.Unavailable && len(st.Proto().GetDetails()) == 0 && looksLikeConnFailure(st.Message()) {
		return &Error{Class: Transport, Op: op, Binding: c.Binding(), Message: "gRPC connection failed: " + st.Message(), Err: err, InStream: inStream}
	}
	body := a2agrpc.StatusJSON(st)
	e := &Error{Class: A2A, Op: op, Binding: c.Binding(), Status: a2agrpc.CodeName(st.Code()),
		GRPCCode: int(st.Code()), Message: st.Message(), Body: capBody(body), InStream: inStream}
	if info, ok := a2agrpc.FindInfo(st); ok {
		e.Reason, e.Domain = info.Reason, info.Domain
		if s, ok := a2a.ErrorByReason(info.Reason); ok {
			e.Kind, e.Code = s.Kind, s.Code
			for _, t := range []a2a.ErrorTable{a2a.TableV100, a2a.TableV101} {
				if s.GRPC[t] == e.Status {
					e.Tables = append(e.Tables, t)
				}
			}
		}
	}
	return e
}

func looksLikeConnFailure(msg string) bool {
	for _, s := range []string{"connection error", "connection refused", "transport: ", "name resolver", "no such host", "error reading server preface", "connection closed"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// grpcUnary runs one unary rpc and returns its result as a ProtoJSON
// document, the way roundTrip does on HTTP, with the retry guidance of a
// busy answer.
func (c *Client) grpcUnary(ctx context.Context, cl call, allowEmpty bool) (json.RawMessage, int, []byte, string, error) {
	m, req, sent, err := c.grpcRequest(cl)
	if err != nil {
		return nil, 0, nil, "", &Error{Class: Transport, Op: cl.op, Binding: c.Binding(), Message: "building the request failed", Err: err}
	}
	cc, err := c.grpcConn()
	if err != nil {
		return nil, 0, nil, "", &Error{Class: Transport, Op: cl.op, Binding: c.Binding(), Message: "gRPC connection failed", Err: err}
	}
	count, err := c.grpcPaced(ctx)
	if err != nil {
		return nil, 0, nil, "", &Error{Class: Transport, Op: cl.op, Binding: c.Binding(), Message: "waiting for the run's request rate (--max-rps)", Err: err}
	}
	md := c.outgoing()
	log := c.startLog(ctx, cl.op, md, sent)
	var header, trailer metadata.MD
	var from peer.Peer
	resp := dynamicpb.NewMessage(m.Out)
	err = cc.Invoke(metadata.NewOutgoingContext(ctx, md), m.Path, req, resp, grpc.Header(&header), grpc.Trailer(&trailer), grpc.Peer(&from))
	count(header.Get(InstanceHeader))
	c.notePeer(&from)
	if err != nil {
		e := c.grpcError(ctx, cl.op, err, false)
		code := int(status.Code(err))
		var errBody []byte
		var recErr error
		if e.Class == A2A {
			errBody = e.Body
		} else {
			recErr = err
		}
		log.End(code, withStatus(mdHeader(header, trailer), code), errBody, recErr)
		var retryAfter string
		if busyError(e) {
			retryAfter = grpcRetryAfter(header, trailer)
			e.RetryAfter = capString(retryAfter, maxRetryAfterText)
		}
		return nil, 0, e.Body, retryAfter, e
	}
	doc, err := a2agrpc.ToJSON(resp)
	log.End(0, withStatus(mdHeader(header, trailer), 0), doc, nil)
	if err != nil {
		return nil, 0, nil, "", protocolError(c.Binding(), cl.op, 0, nil, err, "the %s answer does not render as ProtoJSON: %v", cl.op, err)
	}
	if allowEmpty {
		return nil, 0, doc, "", nil
	}
	doc = grpcPresence(cl.op, doc)
	return doc, 0, doc, "", nil
}

func withStatus(h http.Header, code int) http.Header {
	h.Set("grpc-status", fmt.Sprint(code))
	return h
}

// grpcPresence restores a member proto3 cannot tell from its default: the
// spec requires ListTasksResponse.nextPageToken present ("" on the last
// page), which on the gRPC wire is the same as absent.
func grpcPresence(op string, doc []byte) []byte {
	if op != a2a.MethodListTasks || bytes.Contains(doc, []byte(`"nextPageToken"`)) {
		return doc
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(doc, &m) != nil {
		return doc
	}
	m["nextPageToken"] = json.RawMessage(`""`)
	if _, ok := m["tasks"]; !ok {
		m["tasks"] = json.RawMessage(`[]`)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return doc
	}
	return out
}

// grpcStream opens a server-streaming rpc. The server's refusal before any
// message (a trailers-only answer) is returned here, as a refusal before an
// SSE stream is on the HTTP bindings.
func (c *Client) grpcStream(ctx context.Context, cl call) (*Stream, string, error) {
	m, req, sent, err := c.grpcRequest(cl)
	if err != nil {
		return nil, "", &Error{Class: Transport, Op: cl.op, Binding: c.Binding(), Message: "building the request failed", Err: err}
	}
	cc, err := c.grpcConn()
	if err != nil {
		return nil, "", &Error{Class: Transport, Op: cl.op, Binding: c.Binding(), Message: "gRPC connection failed", Err: err}
	}
	count, err := c.grpcPaced(ctx)
	if err != nil {
		return nil, "", &Error{Class: Transport, Op: cl.op, Binding: c.Binding(), Message: "waiting for the run's request rate (--max-rps)", Err: err}
	}
	md := c.outgoing()
	sctx, cancel := context.WithCancel(ctx)
	log := c.startLog(ctx, cl.op, md, sent)
	var header metadata.MD
	defer func() { count(header.Get(InstanceHeader)) }()
	cs, err := cc.NewStream(metadata.NewOutgoingContext(sctx, md),
		&grpc.StreamDesc{StreamName: cl.op, ServerStreams: true}, m.Path)
	if err == nil {
		err = cs.SendMsg(req)
	}
	if err == nil {
		err = cs.CloseSend()
	}
	if err == nil {
		header, err = cs.Header()
	}
	s := &Stream{c: c, op: cl.op, cancel: cancel, gs: cs, gout: m.Out, glog: log, gheader: header}
	if err == nil {
		// gRPC has no "error before the stream" apart from a call that ends
		// with a status before its first message (trailers-only, or a header
		// then the status). Read that first message now, so that a refusal
		// is returned here as on the HTTP bindings; the message is kept for
		// the first Next.
		first := dynamicpb.NewMessage(m.Out)
		rerr := cs.RecvMsg(first)
		switch {
		case rerr == nil:
			s.pending = first
		case errors.Is(rerr, io.EOF):
			s.pendingEOF = true
		default:
			err = rerr
			if header == nil {
				header, _ = cs.Header()
			}
		}
	}
	if err != nil {
		e := c.grpcError(ctx, cl.op, err, false)
		code := int(status.Code(err))
		var body []byte
		var recErr error
		if e.Class == A2A {
			body = e.Body
		} else {
			recErr = err
		}
		var trailer metadata.MD
		if cs != nil {
			// A call whose stream could not even be opened has no trailer.
			trailer = cs.Trailer()
		}
		log.End(code, withStatus(mdHeader(header, trailer), code), body, recErr)
		cancel()
		var retryAfter string
		if busyError(e) {
			retryAfter = grpcRetryAfter(header, trailer)
			e.RetryAfter = capString(retryAfter, maxRetryAfterText)
		}
		return nil, retryAfter, e
	}
	return s, "", nil
}

// nextGRPC reads one message of a server stream. A status ends a gRPC
// stream, so an error here is final (unlike an SSE error event).
func (s *Stream) nextGRPC() (a2a.StreamResponse, error) {
	msg := dynamicpb.NewMessage(s.gout)
	var err error
	switch {
	case s.pending != nil:
		msg, s.pending = s.pending, nil
	case s.pendingEOF:
		err = io.EOF
	default:
		err = s.gs.RecvMsg(msg)
	}
	if err != nil {
		code := 0
		var body []byte
		var recErr error
		if errors.Is(err, io.EOF) {
			s.final = io.EOF
		} else {
			e := s.c.grpcError(context.Background(), s.op, err, true)
			if s.closed.Load() {
				e.Class = Transport
			}
			code = int(status.Code(err))
			if e.Class == A2A {
				body = e.Body
			} else {
				recErr = err
			}
			s.final = e
		}
		if s.ended.CompareAndSwap(false, true) {
			s.glog.End(code, withStatus(mdHeader(s.gheader, s.gs.Trailer()), code), body, recErr)
		}
		s.Close()
		return a2a.StreamResponse{}, s.final
	}
	doc, err := a2agrpc.ToJSON(msg)
	if err != nil {
		e := protocolError(s.c.Binding(), s.op, 0, nil, err, "stream message does not render as ProtoJSON: %v", err)
		e.InStream = true
		return a2a.StreamResponse{}, e
	}
	s.glog.Event(doc)
	s.last = sse.Event{Data: string(doc)}
	var sr a2a.StreamResponse
	if err := json.Unmarshal(doc, &sr); err != nil {
		e := protocolError(s.c.Binding(), s.op, 0, doc, err, "stream message does not decode as a StreamResponse: %v", err)
		e.InStream = true
		return a2a.StreamResponse{}, e
	}
	if n := len(sr.Members()); n != 1 {
		e := protocolError(s.c.Binding(), s.op, 0, doc, nil,
			"StreamResponse must hold exactly one of task, message, statusUpdate, artifactUpdate; got %s", membersOf(doc))
		e.InStream = true
		return a2a.StreamResponse{}, e
	}
	return sr, nil
}

// grpcURLHost is used by New to check a GRPC interface URL early.
func grpcURLHost(raw string) (grpcTarget, *url.URL, error) {
	t, err := parseGRPCURL(raw)
	if err != nil {
		return t, nil, err
	}
	return t, &url.URL{Scheme: "grpc", Host: t.hostport}, nil
}

// encodingCodec sends and receives message bytes as they are, for RawDo: a
// malformed message, or one carrying a field the schema does not define.
type encodingCodec struct{}

func (encodingCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*(v.(*[]byte)))}, nil
}

func (encodingCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*(v.(*[]byte)) = data.Materialize()
	return nil
}

func (encodingCodec) Name() string { return "proto" }

// unknownField is the field number RawDo adds for members the schema does
// not know: far above any A2A field, below the reserved 19000-19999.
const unknownField = 18999

// grpcRawBody builds the message bytes of a raw request: rr.Body verbatim,
// else rr.Params parsed into the rpc's request message. Members the message
// does not define cannot be sent by name in protobuf; when there are any,
// an unknown field (number 18999, a string) stands for them, so that "unknown
// members are ignored" (§5.7) is still asked of the agent.
func (c *Client) grpcRawBody(rr RawRequest) ([]byte, error) {
	if rr.Body != nil {
		return rr.Body, nil
	}
	m, ok := c.schema.Method(rr.Method)
	if !ok {
		return nil, nil // an rpc the service does not have: an empty message
	}
	doc := []byte("{}")
	if rr.Params != nil {
		var err error
		if doc, err = json.Marshal(rr.Params); err != nil {
			return nil, err
		}
	}
	msg, err := a2agrpc.FromJSON(m.In, doc)
	if err != nil {
		return nil, fmt.Errorf("params do not fit %s: %v", m.In.FullName(), err)
	}
	b, err := proto.Marshal(msg)
	if err != nil {
		return nil, err
	}
	if strict := dynamicpb.NewMessage(m.In); protojson.Unmarshal(doc, strict) != nil {
		b = protowire.AppendTag(b, unknownField, protowire.BytesType)
		b = protowire.AppendString(b, "a2a-conform: a field this message does not define")
	}
	return b, nil
}

// grpcRaw is RawDo on gRPC: Status is the gRPC status code, Header the
// response metadata, Body the answer (or the google.rpc.Status) as
// ProtoJSON; Classify returns the error the typed method would have.
func (c *Client) grpcRaw(ctx context.Context, rr RawRequest) (*RawResponse, error) {
	var out *RawResponse
	err := c.retryBusy(ctx, rr.Method, func() (string, error) {
		o, err := c.grpcRawOnce(ctx, rr)
		out = o
		if err == nil && o != nil && IsBusy(o.grpcErr) {
			ce, _ := AsError(o.grpcErr)
			return ce.RetryAfter, o.grpcErr
		}
		return "", err
	})
	if out != nil && err == out.grpcErr {
		err = nil // the refusal is the raw answer, as without busy retry
	}
	return out, err
}

func (c *Client) grpcRawOnce(ctx context.Context, rr RawRequest) (*RawResponse, error) {
	body, err := c.grpcRawBody(rr)
	if err != nil {
		return nil, &Error{Class: Transport, Op: rr.Method, Binding: c.Binding(), Message: "building the request failed", Err: err}
	}
	cc, err := c.grpcConn()
	if err != nil {
		return nil, &Error{Class: Transport, Op: rr.Method, Binding: c.Binding(), Message: "gRPC connection failed", Err: err}
	}
	md := c.outgoing()
	for k, vs := range rr.Header {
		md[strings.ToLower(k)] = vs
	}
	shown := body
	if m, ok := c.schema.Method(rr.Method); ok && rr.Body == nil {
		if msg := dynamicpb.NewMessage(m.In); proto.Unmarshal(body, msg) == nil {
			shown, _ = a2agrpc.ToJSON(msg)
		}
	}
	count, err := c.grpcPaced(ctx)
	if err != nil {
		return nil, &Error{Class: Transport, Op: rr.Method, Binding: c.Binding(), Message: "waiting for the run's request rate (--max-rps)", Err: err}
	}
	log := c.startLog(ctx, rr.Method, md, shown)
	var header, trailer metadata.MD
	var out []byte
	path := "/" + a2agrpc.Service + "/" + rr.Method
	err = cc.Invoke(metadata.NewOutgoingContext(ctx, md), path, &body, &out,
		grpc.ForceCodecV2(encodingCodec{}), grpc.Header(&header), grpc.Trailer(&trailer))
	count(header.Get(InstanceHeader))
	h := mdHeader(header, trailer)
	if err != nil {
		e := c.grpcError(ctx, rr.Method, err, false)
		code := int(status.Code(err))
		if e.Class != A2A {
			log.End(code, withStatus(h, code), nil, err)
			return nil, e
		}
		log.End(code, withStatus(h, code), e.Body, nil)
		if busyError(e) {
			e.RetryAfter = capString(grpcRetryAfter(header, trailer), maxRetryAfterText)
		}
		return &RawResponse{Status: code, Header: h, Body: e.Body, grpcErr: e}, nil
	}
	doc := out
	if m, ok := c.schema.Method(rr.Method); ok {
		msg := dynamicpb.NewMessage(m.Out)
		if uerr := proto.Unmarshal(out, msg); uerr != nil {
			e := protocolError(c.Binding(), rr.Method, 0, out, uerr, "the answer is not a valid %s: %v", m.Out.FullName(), uerr)
			log.End(0, withStatus(h, 0), out, nil)
			return &RawResponse{Header: h, Body: out, grpcErr: e}, nil
		}
		doc, _ = a2agrpc.ToJSON(msg)
		doc = grpcPresence(rr.Method, doc)
	}
	log.End(0, withStatus(h, 0), doc, nil)
	return &RawResponse{Header: h, Body: doc}, nil
}

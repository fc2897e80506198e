package fakes

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/a2agrpc"
)

// The gRPC binding (spec §10): lf.a2a.v1.A2AService on its own listener,
// over the same store, engine and faults as the HTTP bindings. Each rpc's
// request is rendered to ProtoJSON and run through invoke, exactly as a
// JSON-RPC call with the same method name; results and stream events are
// parsed back into the rpc's response message. Errors are google.rpc.Status
// with the gRPC code of the v1.0.1 error table and an ErrorInfo (MUST,
// §10.6), plus BadRequest for validation errors.

// GRPCPath is the path the gRPC "request view" carries (see grpcView),
// followed by /<rpc>; it is no URL anyone calls.
const GRPCPath = "/a2a/grpc"

// GRPCServer returns a gRPC server for this instance, to be served on a
// listener of its own (gRPC needs HTTP/2 end to end; the HTTP listener
// serves HTTP/1.1 too). Options.GRPCURL must name that listener for the card
// to declare it.
func (a *Agent) GRPCServer() *grpc.Server {
	srv := grpc.NewServer(grpc.MaxRecvMsgSize(int(a.opts.MaxBodyBytes)))
	schema := a2agrpc.MustBuiltin()
	desc := grpc.ServiceDesc{ServiceName: a2agrpc.Service, HandlerType: (*any)(nil), Metadata: "a2a.proto"}
	for _, name := range schema.Methods() {
		m, _ := schema.Method(name)
		if m.ServerStream {
			desc.Streams = append(desc.Streams, grpc.StreamDesc{StreamName: name, ServerStreams: true,
				Handler: func(_ any, ss grpc.ServerStream) error { return a.grpcStream(m, ss) }})
			continue
		}
		desc.Methods = append(desc.Methods, grpc.MethodDesc{MethodName: name,
			Handler: func(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
				return a.grpcUnary(ctx, m, dec)
			}})
	}
	srv.RegisterService(&desc, a)
	return srv
}

// grpcView presents a call's metadata as the *http.Request the binding-
// neutral code reads headers from (service parameters, Authorization): the
// lowercase metadata keys become canonical header names.
func (a *Agent) grpcView(ctx context.Context, method string) *http.Request {
	md, _ := metadata.FromIncomingContext(ctx)
	h := http.Header{}
	host := ""
	for k, vs := range md {
		if k == ":authority" {
			if len(vs) > 0 {
				host = vs[0]
			}
			continue
		}
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	r := (&http.Request{Method: http.MethodPost, URL: &url.URL{Path: GRPCPath + "/" + method}, Header: h, Host: host}).WithContext(ctx)
	if a.opts.BaseURL != "" {
		if u, err := url.Parse(a.opts.BaseURL); err == nil {
			r.Host = u.Host
		}
	}
	return r
}

// grpcPreamble does what every call does before its method: say which
// instance answers, refuse before readiness, authenticate, and apply the
// service parameters (§10.2).
func (a *Agent) grpcPreamble(ctx context.Context, method string, send func(metadata.MD) error) (*http.Request, *opError) {
	_ = send(metadata.Pairs(strings.ToLower(InstanceHeader), a.name))
	r := a.grpcView(ctx, method)
	if !a.ready.Load() && !a.faults.has(faultCardBeforeReady) {
		return nil, errUnavailable("the agent instance is starting")
	}
	if oe, retryAfter := a.busyRefusal(); oe != nil {
		_ = send(metadata.Pairs("retry-after", retryAfter))
		return nil, oe
	}
	r, oe := a.authError(r)
	if oe != nil {
		return nil, oe
	}
	if oe := a.checkServiceParams(r); oe != nil {
		return nil, oe
	}
	return r, nil
}

func (a *Agent) grpcUnary(ctx context.Context, m a2agrpc.Method, dec func(any) error) (any, error) {
	a.served.add()
	defer a.served.done()
	r, oe := a.grpcPreamble(ctx, m.Name, func(md metadata.MD) error { return grpc.SetHeader(ctx, md) })
	if oe != nil {
		return nil, a.grpcErr(oe)
	}
	params, oe := grpcParams(m, dec)
	if oe != nil {
		return nil, a.grpcErr(oe)
	}
	result, stream, oe := a.invoke(r, m.Name, params)
	if oe != nil {
		return nil, a.grpcErr(oe)
	}
	if stream != nil {
		// invoke gives streams only for the streaming rpcs.
		return nil, a.grpcErr(errInternal("a stream where a single answer was due"))
	}
	if len(result) == 0 {
		result = []byte("{}")
	}
	out, err := a2agrpc.FromJSON(m.Out, a.rewrite(result))
	if err != nil {
		return nil, a.grpcErr(errInternal("rendering the answer as " + string(m.Out.FullName()) + ": " + err.Error()))
	}
	return out, nil
}

func (a *Agent) grpcStream(m a2agrpc.Method, ss grpc.ServerStream) error {
	a.served.add()
	defer a.served.done()
	ctx := ss.Context()
	// A refusal is a trailers-only answer (no header frame, no message),
	// the gRPC form of an error before the stream; the instance name then
	// travels in the trailer.
	instance := metadata.MD{}
	refuse := func(oe *opError) error {
		ss.SetTrailer(instance)
		return a.grpcErr(oe)
	}
	r, oe := a.grpcPreamble(ctx, m.Name, func(md metadata.MD) error { instance = metadata.Join(instance, md); return nil })
	if oe != nil {
		return refuse(oe)
	}
	params, oe := grpcParams(m, ss.RecvMsg)
	if oe != nil {
		return refuse(oe)
	}
	result, stream, oe := a.invoke(r, m.Name, params)
	if oe != nil {
		return refuse(oe)
	}
	// The call is accepted: send the header now, as the HTTP bindings send
	// 200 text/event-stream, so a client sees the stream open before the
	// first event (which may be a while).
	if err := ss.SendHeader(instance); err != nil {
		return err
	}
	sink := &grpcSink{ss: ss, out: m.Out}
	if stream == nil {
		return sink.event(a.rewrite(result))
	}
	a.pump(ctx, stream, sink, func(b []byte) []byte { return b })
	return sink.err
}

// grpcParams receives the request message and renders it as ProtoJSON.
func grpcParams(m a2agrpc.Method, recv func(any) error) (json.RawMessage, *opError) {
	req := dynamicpb.NewMessage(m.In)
	if err := recv(req); err != nil {
		return nil, errInvalidRequest("the request is not a valid %s: %v", m.In.FullName(), err)
	}
	doc, err := a2agrpc.ToJSON(req)
	if err != nil {
		return nil, errInvalidRequest("the request does not render as ProtoJSON: %v", err)
	}
	return doc, nil
}

// grpcSink writes pump's events as StreamResponse messages.
type grpcSink struct {
	ss  grpc.ServerStream
	out protoreflect.MessageDescriptor
	err error
}

func (s *grpcSink) event(data []byte) error {
	msg, err := a2agrpc.FromJSON(s.out, data)
	if err != nil {
		s.err = status.Errorf(codes.Internal, "rendering a stream event: %v", err)
		return s.err
	}
	if err := s.ss.SendMsg(msg); err != nil {
		return err
	}
	return nil
}

// comment: HTTP/2 keeps the connection alive itself (PING frames).
func (s *grpcSink) comment(string) error { return nil }

// grpcErr renders an operation's failure as a gRPC status (§10.6).
func (a *Agent) grpcErr(oe *opError) error {
	return a.grpcStatus(oe).Err()
}

func (a *Agent) grpcStatus(oe *opError) *status.Status {
	code := a2agrpc.CodeByName(oe.grpcStatus)
	if oe.httpStatus == http.StatusUnauthorized {
		code = codes.Unauthenticated
	}
	var info *a2agrpc.Info
	if oe.kind != "" && !a.faults.has(faultGRPCNoErrorInfo) {
		spec, _ := a2a.LookupError(oe.kind)
		info = &a2agrpc.Info{Reason: spec.Reason, Domain: a2a.ErrorDomain, Metadata: oe.meta}
	}
	if oe.kind == a2a.ErrTaskNotFound && a.faults.has(faultGRPCWrongStatusUnknownTask) {
		code = codes.InvalidArgument
	}
	var bad *a2agrpc.Violation
	if oe.field != "" {
		bad = &a2agrpc.Violation{Field: oe.field, Description: oe.message}
	}
	return a2agrpc.NewStatus(code, oe.message, info, bad)
}

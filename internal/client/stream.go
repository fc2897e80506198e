package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/sse"
)

// Stream is an open SendStreamingMessage or SubscribeToTask response.
//
// Next returns one StreamResponse per SSE event. An error about one event (an
// A2A error event, or garbage data) does not end the stream: the next call
// goes on reading, so a spec sees everything the agent sent. io.EOF (the agent
// closed the stream after a complete event), a Transport error, and a
// Protocol error for an over-limit event or a stream cut inside an event are
// final: they repeat on every later call.
//
// A Stream is read by one goroutine; Close may be called from any goroutine
// and unblocks a pending Next.
type Stream struct {
	c      *Client
	op     string
	resp   *http.Response
	rd     *sse.Reader
	cancel context.CancelFunc
	rpcID  json.RawMessage
	last   sse.Event
	final  error
	once   sync.Once
	closed atomic.Bool
	// ended is set by whoever records the gRPC call's end first: the
	// reader that received the status, or Close. Close runs on any
	// goroutine, so it decides by this flag and never reads final, which
	// belongs to the reader.
	ended atomic.Bool

	// gRPC server stream (grpc.go); resp and rd are nil then.
	gs      grpc.ClientStream
	gout    protoreflect.MessageDescriptor
	glog    CallLog
	gheader metadata.MD
	// pending is the first message, read when the stream was opened.
	pending    *dynamicpb.Message
	pendingEOF bool
}

// openStream opens a stream; a "not now" answer before the stream is
// retried (busy.go).
func (c *Client) openStream(ctx context.Context, cl call) (s *Stream, err error) {
	err = c.retryBusy(ctx, cl.op, func() (string, error) {
		var retryAfter string
		if c.grpc {
			s, retryAfter, err = c.grpcStream(ctx, cl)
		} else {
			s, retryAfter, err = c.openStreamOnce(ctx, cl)
		}
		return retryAfter, err
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// openStreamOnce is one attempt of openStream on HTTP; retryAfter is the
// Retry-After of a busy refusal.
func (c *Client) openStreamOnce(ctx context.Context, cl call) (*Stream, string, error) {
	sctx, cancel := context.WithCancel(ctx)
	p, err := c.build(sctx, cl)
	if err != nil {
		cancel()
		return nil, "", &Error{Class: Transport, Op: cl.op, Binding: c.Binding(), Message: "building the request failed", Err: err}
	}
	resp, err := c.send(cl.op, p)
	if err != nil {
		cancel()
		return nil, "", err
	}
	retryAfter := busyRetryAfter(resp)
	s, err := c.streamOrError(cl, p, resp, cancel)
	if ce, ok := AsError(err); ok && retryAfter != "" {
		ce.RetryAfter = capString(retryAfter, maxRetryAfterText)
	}
	return s, retryAfter, err
}

// streamOrError makes the answer to a stream request a Stream, or the
// error it is.
func (c *Client) streamOrError(cl call, p *prepared, resp *http.Response, cancel context.CancelFunc) (*Stream, error) {
	if success(resp.StatusCode) && isSSEType(resp.Header.Get("Content-Type")) {
		maxEvent := int(min(c.maxBody, math.MaxInt32))
		return &Stream{c: c, op: cl.op, resp: resp, cancel: cancel, rpcID: p.rpcID,
			rd: sse.NewReader(resp.Body, sse.WithMaxEventSize(maxEvent), sse.WithMaxLineLength(maxEvent))}, nil
	}
	defer cancel()
	// No stream: an error answered before the stream (best practice,
	// A2A v1.0 §3.1.2), or a protocol violation.
	body, err := c.readBody(cl.op, resp)
	if err != nil {
		return nil, err
	}
	if !success(resp.StatusCode) {
		_, err := c.unaryResult(cl.op, resp, body, p.rpcID, false)
		return nil, err
	}
	b := c.Binding()
	if c.jsonrpc() {
		if out, derr := decodeJSONRPCResponse(body, p.rpcID, false); derr == nil && out.rpcErr != nil {
			return nil, a2aError(b, cl.op, resp.StatusCode, false, *out.rpcErr, body)
		}
	} else if f, ok := restErrorBody(body); ok {
		return nil, a2aError(b, cl.op, resp.StatusCode, false, f, body)
	}
	return nil, protocolError(b, cl.op, resp.StatusCode, body, nil,
		"%s answered HTTP %d with Content-Type %s, want %s", cl.op, resp.StatusCode,
		quoteCapped(resp.Header.Get("Content-Type"), 100), ContentTypeSSE)
}

// Next returns the next event's StreamResponse; see Stream for the error
// contract.
func (s *Stream) Next() (a2a.StreamResponse, error) {
	if s.final != nil {
		return a2a.StreamResponse{}, s.final
	}
	if s.gs != nil {
		return s.nextGRPC()
	}
	ev, err := s.rd.Next()
	if err != nil {
		s.final = s.readError(err)
		s.Close()
		return a2a.StreamResponse{}, s.final
	}
	s.last = ev
	return s.decodeEvent(ev)
}

func (s *Stream) readError(err error) error {
	b, status := s.c.Binding(), s.resp.StatusCode
	var le *sse.LimitError
	var inc *sse.IncompleteEventError
	var be *BoundError
	switch {
	case errors.Is(err, io.EOF):
		return io.EOF
	case errors.As(err, &be) && be.Kind == "oversized":
		return &Error{Class: Protocol, Op: s.op, Binding: b, HTTPStatus: status, InStream: true,
			Message: "stream " + be.Msg, Err: err}
	case errors.As(err, &le):
		return &Error{Class: Protocol, Op: s.op, Binding: b, HTTPStatus: status, InStream: true,
			Message: "stream event " + le.Error() + " (WithMaxBody)", Err: err}
	case errors.As(err, &inc):
		return &Error{Class: Protocol, Op: s.op, Binding: b, HTTPStatus: status, InStream: true,
			Message: "stream ended inside an event: its data was not followed by a blank line, so per the WHATWG SSE rules it is discarded",
			Body:    capBody(inc.Pending), Err: err}
	}
	return &Error{Class: Transport, Op: s.op, Binding: b, HTTPStatus: status, InStream: true,
		Message: "reading the stream failed: " + err.Error(), Err: err}
}

// decodeEvent reads one event in the binding's framing: a JSON-RPC response
// per event on JSON-RPC (§9.4.2), a bare StreamResponse on HTTP+JSON (§11.7).
// Mid-stream errors are recognised in every framing seen in practice (a
// JSON-RPC error, data {"error":…}, or event: error), on both bindings.
func (s *Stream) decodeEvent(ev sse.Event) (a2a.StreamResponse, error) {
	b, status := s.c.Binding(), s.resp.StatusCode
	data := []byte(ev.Data)
	if err := checkJSONText(data); err != nil {
		e := protocolError(b, s.op, status, data, err, "stream event: %v", err)
		e.InStream = true
		return a2a.StreamResponse{}, e
	}
	if ev.Type == "error" {
		if f, ok := eventErrorBody(data); ok {
			return a2a.StreamResponse{}, a2aError(b, s.op, status, true, f, data)
		}
		e := protocolError(b, s.op, status, data, nil, "event: error whose data is not an error object: %s", snippet(data))
		e.InStream = true
		return a2a.StreamResponse{}, e
	}
	doc := data
	if s.c.jsonrpc() {
		out, err := decodeJSONRPCResponse(data, s.rpcID, false)
		if err != nil {
			e := protocolError(b, s.op, status, data, err, "stream event: %v", err)
			e.InStream = true
			return a2a.StreamResponse{}, e
		}
		if out.rpcErr != nil {
			return a2a.StreamResponse{}, a2aError(b, s.op, status, true, *out.rpcErr, data)
		}
		doc = out.result
	} else if f, ok := restErrorBody(data); ok {
		return a2a.StreamResponse{}, a2aError(b, s.op, status, true, f, data)
	}
	obj, err := s.c.objectResult(s.op, status, doc, data)
	if err != nil {
		err.(*Error).InStream = true
		return a2a.StreamResponse{}, err
	}
	var sr a2a.StreamResponse
	if err := json.Unmarshal(obj, &sr); err != nil {
		e := protocolError(b, s.op, status, data, err, "stream event does not decode as a StreamResponse: %v", err)
		e.InStream = true
		return a2a.StreamResponse{}, e
	}
	if n := len(sr.Members()); n != 1 {
		var cause error
		if n == 0 && len(topKeys(obj)) > 0 {
			// Only members this version does not define: a newer kind
			// of event, which a client that ignores unknown fields
			// (§5.7) skips (ErrUnknownEventKind).
			cause = ErrUnknownEventKind
		}
		e := protocolError(b, s.op, status, data, cause,
			"StreamResponse must hold exactly one of task, message, statusUpdate, artifactUpdate; got %s", membersOf(obj))
		e.InStream = true
		return a2a.StreamResponse{}, e
	}
	return sr, nil
}

// ErrUnknownEventKind is the cause (errors.Is) of the error Next returns for
// a stream event whose StreamResponse holds only members A2A v1.0 does not
// define: a kind of event added after v1.0. The stream goes on: Next may be
// called again. A judge of the agent reports it; a client that ignores
// unknown fields (A2A v1.0.1 §5.7 SHOULD) skips the event.
var ErrUnknownEventKind = errors.New("a stream event of a kind A2A v1.0 does not define")

// Raw returns the data of the last event Next read (the JSON document as
// received), for evidence.
func (s *Stream) Raw() []byte { return []byte(s.last.Data) }

// Event returns the last SSE event Next read, with its type and id.
func (s *Stream) Event() sse.Event { return s.last }

// StatusCode and Header describe the HTTP response that opened the stream
// (on gRPC: 200, and the response header metadata).
func (s *Stream) StatusCode() int {
	if s.resp == nil {
		return http.StatusOK
	}
	return s.resp.StatusCode
}

func (s *Stream) Header() http.Header {
	if s.resp == nil {
		return mdHeader(s.gheader)
	}
	return s.resp.Header
}

// Close ends the stream from the client side and releases the connection. It
// is safe to call more than once and from another goroutine.
func (s *Stream) Close() error {
	var err error
	s.once.Do(func() {
		s.closed.Store(true)
		// A gRPC call closed before its status: record that the client
		// ended it. The end is claimed before the cancel, so a reader that
		// the cancel wakes does not record the cancellation as the agent's.
		if s.resp == nil && s.ended.CompareAndSwap(false, true) {
			s.glog.End(int(codes.Canceled), mdHeader(s.gheader), nil, errors.New("closed by the client"))
		}
		s.cancel()
		if s.resp != nil {
			err = s.resp.Body.Close()
		}
	})
	return err
}

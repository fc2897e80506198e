package fakes

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// opError is an operation's failure, independent of the binding: each binding
// renders it its own way (JSON-RPC error object, google.rpc.Status body).
type opError struct {
	// kind is set for A2A errors (spec §8.1 table); empty for the standard
	// JSON-RPC errors.
	kind a2a.ErrorKind
	// code is the JSON-RPC code.
	code int
	// httpStatus and grpcStatus are what the HTTP+JSON binding sends.
	httpStatus int
	grpcStatus string
	message    string
	meta       map[string]string
	// field names the offending request field of a validation error; it
	// becomes a google.rpc.BadRequest field violation.
	field string
}

func (e *opError) Error() string { return fmt.Sprintf("%d %s", e.code, e.message) }

// errTable is the revision of the spec's error table the agent renders HTTP
// statuses from: v1.0.1, the current text (A2A v1.0 §3.3.2).
const errTable = a2a.TableV101

func a2aError(kind a2a.ErrorKind, message string, meta map[string]string) *opError {
	spec, ok := a2a.LookupError(kind)
	if !ok {
		panic("fakes: unknown A2A error kind " + string(kind))
	}
	return &opError{kind: kind, code: spec.Code, httpStatus: spec.HTTP[errTable], grpcStatus: spec.GRPC[errTable],
		message: message, meta: meta}
}

func errTaskNotFound(id string) *opError {
	return a2aError(a2a.ErrTaskNotFound, "Task not found", map[string]string{"taskId": id})
}

func errNotCancelable(id string, state a2a.TaskState) *opError {
	return a2aError(a2a.ErrTaskNotCancelable, fmt.Sprintf("Task is %s and cannot be canceled", state),
		map[string]string{"taskId": id, "state": string(state)})
}

func errUnsupported(message string) *opError {
	return a2aError(a2a.ErrUnsupportedOperation, message, nil)
}

func errPushNotSupported() *opError {
	return a2aError(a2a.ErrPushNotificationNotSupported, "Push notifications are not supported by this agent", nil)
}

func errVersion(requested string) *opError {
	return a2aError(a2a.ErrVersionNotSupported, fmt.Sprintf("A2A-Version %q is not supported; this agent speaks %s", requested, a2a.ProtocolVersion),
		map[string]string{"requestedVersion": requested, "supportedVersions": a2a.ProtocolVersion})
}

func errContentType(mediaType string) *opError {
	return a2aError(a2a.ErrContentTypeNotSupported, fmt.Sprintf("media type %q is not supported", mediaType),
		map[string]string{"mediaType": mediaType})
}

func errInvalidParams(field, format string, args ...any) *opError {
	return &opError{code: a2a.CodeInvalidParams, httpStatus: http.StatusBadRequest, grpcStatus: "INVALID_ARGUMENT",
		message: fmt.Sprintf(format, args...), field: field}
}

func errParse(detail string) *opError {
	return &opError{code: a2a.CodeParseError, httpStatus: http.StatusBadRequest, grpcStatus: "INVALID_ARGUMENT",
		message: "Invalid JSON payload: " + detail}
}

func errInvalidRequest(format string, args ...any) *opError {
	return &opError{code: a2a.CodeInvalidRequest, httpStatus: http.StatusBadRequest, grpcStatus: "INVALID_ARGUMENT",
		message: fmt.Sprintf(format, args...)}
}

func errMethodNotFound(method string) *opError {
	return &opError{code: a2a.CodeMethodNotFound, httpStatus: http.StatusNotFound, grpcStatus: "NOT_FOUND",
		message: fmt.Sprintf("Method not found: %q", method)}
}

func errInternal(message string) *opError {
	return &opError{code: a2a.CodeInternalError, httpStatus: http.StatusInternalServerError, grpcStatus: "INTERNAL",
		message: message}
}

// errUnavailable answers while the instance is warming up or draining: the
// honest 503 of scenario 2, never a half-working 200.
func errUnavailable(message string) *opError {
	return &opError{code: a2a.CodeInternalError, httpStatus: http.StatusServiceUnavailable, grpcStatus: "UNAVAILABLE",
		message: message}
}

// withHTTP overrides the HTTP status of a transport-level failure (413, 415,
// 405) while keeping the JSON-RPC code.
func (e *opError) withHTTP(status int) *opError {
	c := *e
	c.httpStatus = status
	if s, ok := a2a.GRPCStatusByHTTP[status]; ok {
		c.grpcStatus = s
	}
	return &c
}

// details are the ProtoJSON Any objects attached to the error: ErrorInfo for
// A2A errors (MUST on HTTP+JSON, SHOULD on JSON-RPC since v1.0.1), BadRequest
// for validation errors (SHOULD, spec §9.5).
func (e *opError) details() []json.RawMessage {
	var out []json.RawMessage
	if e.kind != "" {
		b, _ := json.Marshal(a2a.NewErrorInfo(e.kind, e.meta))
		out = append(out, b)
	}
	if e.field != "" {
		b, _ := json.Marshal(map[string]any{
			"@type":           a2a.TypeBadRequest,
			"fieldViolations": []map[string]string{{"field": e.field, "description": e.message}},
		})
		out = append(out, b)
	}
	return out
}

// jsonrpcError renders the error member of a JSON-RPC response.
func (e *opError) jsonrpcError() *a2a.JSONRPCError {
	out := &a2a.JSONRPCError{Code: e.code, Message: e.message}
	if d := e.details(); len(d) > 0 {
		out.Data, _ = json.Marshal(d)
	}
	return out
}

// restBody renders the google.rpc.Status body of the HTTP+JSON binding (§11.6).
func (e *opError) restBody(withDetails bool) []byte {
	st := &a2a.Status{Code: e.httpStatus, Status: e.grpcStatus, Message: e.message}
	if withDetails {
		st.Details = e.details()
	}
	b, _ := json.Marshal(a2a.HTTPErrorBody{Error: st})
	return b
}

package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// Class says what kind of failure an Error is. The same failure gets the same
// class on both bindings, so a spec can assert on it without knowing which
// binding it ran over.
type Class string

const (
	// Transport: no usable HTTP response (dial, TLS, reset, context deadline,
	// body read failure).
	Transport Class = "transport"
	// HTTP: a non-2xx status whose body is not an A2A error body of the
	// binding (e.g. a proxy's HTML 502).
	HTTP Class = "http"
	// Protocol: a response that breaks the binding's rules (bad JSON, wrong
	// jsonrpc version, mismatched id, result and error both or neither, a
	// non-SSE answer to a stream, garbage event data, a body over the cap).
	// Body carries the offending bytes.
	Protocol Class = "protocol"
	// A2A: a well-formed A2A or JSON-RPC error.
	A2A Class = "a2a"
)

// maxErrorBody caps the bytes an Error keeps as evidence.
const maxErrorBody = 64 << 10

// maxErrorMessage caps how much of an agent-supplied message Error() prints.
const maxErrorMessage = 300

// Error is every failure the client returns, on both bindings.
type Error struct {
	Class Class
	// Op is the A2A method, e.g. "GetTask".
	Op string
	// Binding is a2a.BindingJSONRPC or a2a.BindingHTTPJSON.
	Binding string
	// HTTPStatus is the response status, 0 when there was none.
	HTTPStatus int
	// Code is the JSON-RPC error code on JSON-RPC. On HTTP+JSON it is derived:
	// the JSON-RPC code of the recognised Kind, else 0. Compare Kind, not Code,
	// when the binding does not matter.
	Code int
	// Status is the google.rpc.Status name an HTTP+JSON error body carried in
	// error.status (e.g. "NOT_FOUND"), or the gRPC status code's name on
	// gRPC; empty on JSON-RPC.
	Status string
	// GRPCCode is the gRPC status code number (gRPC only).
	GRPCCode int
	// Reason and Domain come from the google.rpc.ErrorInfo detail, if any.
	Reason string
	Domain string
	// Kind is the A2A error recognised: from the code on JSON-RPC (from the
	// ErrorInfo reason when the code is not an A2A code), from the ErrorInfo
	// reason on HTTP+JSON (spec §11.6: ErrorInfo is a MUST there because
	// several errors share HTTP 400). Empty when not recognised.
	Kind a2a.ErrorKind
	// Tables lists the error tables (a2a.TableV100, a2a.TableV101) whose HTTP
	// status (on gRPC: status code) for Kind equals the one received. Filled
	// on HTTP+JSON and gRPC; empty when neither matches or Kind is unknown.
	Tables []a2a.ErrorTable
	// Message is the error's message (agent-supplied for A2A errors, ours
	// otherwise).
	Message string
	// Body is the offending or error body, capped at 64 KiB.
	Body []byte
	// InStream is set when the error arrived as an event of an open stream
	// (then HTTPStatus is the stream's 200 and Tables stays empty).
	InStream bool
	// Err is the underlying error (context.DeadlineExceeded, a decode error…).
	Err error
	// RetryAfter is the retry guidance a "not now" answer carried (HTTP
	// Retry-After, gRPC retry-after or pushback metadata), capped; Refusals
	// counts the refused attempts of a Refused-class error (busy.go).
	RetryAfter string
	Refusals   int
}

func (e *Error) Error() string {
	var b strings.Builder
	binding := e.Binding
	if binding == "" {
		binding = "a2a"
	}
	fmt.Fprintf(&b, "%s %s: %s error", binding, e.Op, e.Class)
	if e.Kind != "" {
		fmt.Fprintf(&b, " %s", e.Kind)
	}
	var details []string
	if e.HTTPStatus != 0 {
		details = append(details, fmt.Sprintf("HTTP %d", e.HTTPStatus))
	}
	if e.Code != 0 {
		details = append(details, fmt.Sprintf("code %d", e.Code))
	}
	if e.Reason != "" {
		details = append(details, "reason "+quoteCapped(e.Reason, 100))
	}
	if e.Binding == a2a.BindingGRPC && e.Status != "" {
		details = append(details, "gRPC "+e.Status)
	}
	if e.Kind != "" && (e.Binding == a2a.BindingHTTPJSON || e.Binding == a2a.BindingGRPC) && !e.InStream {
		if len(e.Tables) == 0 {
			details = append(details, "status matches no error table")
		} else {
			ts := make([]string, len(e.Tables))
			for i, t := range e.Tables {
				ts[i] = string(t)
			}
			details = append(details, "status per table "+strings.Join(ts, ","))
		}
	}
	if len(details) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(details, ", "))
	}
	if e.Message != "" {
		b.WriteString(": ")
		if e.Class == A2A || e.Class == HTTP {
			b.WriteString(quoteCapped(e.Message, maxErrorMessage))
		} else {
			b.WriteString(e.Message)
		}
	}
	if e.Err != nil && (e.Message == "" || !strings.Contains(e.Message, e.Err.Error())) {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// AsError returns the *Error inside err, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// quoteCapped quotes agent-supplied text (escaping control characters) and
// cuts it at n bytes so that a hostile message cannot flood a report line.
func quoteCapped(s string, n int) string {
	if len(s) > n {
		return fmt.Sprintf("%q…", s[:n])
	}
	return fmt.Sprintf("%q", s)
}

func capBody(b []byte) []byte {
	if len(b) > maxErrorBody {
		b = b[:maxErrorBody]
	}
	return append([]byte(nil), b...)
}

// protocolError builds a Protocol-class error carrying the offending bytes.
func protocolError(binding, op string, status int, body []byte, err error, format string, args ...any) *Error {
	return &Error{Class: Protocol, Op: op, Binding: binding, HTTPStatus: status,
		Message: fmt.Sprintf(format, args...), Body: capBody(body), Err: err}
}

// errorFields is what the error parsers extract from any error shape.
type errorFields struct {
	code     int
	hasCode  bool
	message  string
	status   string
	details  json.RawMessage // JSON-RPC error.data or google.rpc.Status details
	infoSeen bool
	reason   string
	domain   string
}

// fillInfo finds a google.rpc.ErrorInfo among Any-encoded details. JSON-RPC
// error.data in v1.0 is an array of such objects; a v0.3 free-form object, or
// anything else, simply yields no ErrorInfo.
func (f *errorFields) fillInfo() {
	var arr []json.RawMessage
	if json.Unmarshal(f.details, &arr) != nil {
		return
	}
	if info, ok := a2a.FindErrorInfo(arr); ok {
		f.infoSeen, f.reason, f.domain = true, info.Reason, info.Domain
	}
}

// a2aError turns extracted fields into an A2A-class Error, recognising the
// kind the way the binding prescribes.
func a2aError(binding, op string, httpStatus int, inStream bool, f errorFields, body []byte) *Error {
	f.fillInfo()
	e := &Error{Class: A2A, Op: op, Binding: binding, HTTPStatus: httpStatus, Status: f.status,
		Reason: f.reason, Domain: f.domain, Message: f.message, Body: capBody(body), InStream: inStream}
	switch binding {
	case a2a.BindingJSONRPC:
		e.Code = f.code
		if s, ok := a2a.ErrorByCode(f.code); ok {
			e.Kind = s.Kind
		} else if s, ok := a2a.ErrorByReason(f.reason); ok {
			e.Kind = s.Kind
		}
	default:
		s, ok := a2a.ErrorByReason(f.reason)
		if !ok && f.code < 0 {
			// A JSON-RPC-style code inside an HTTP+JSON stream's error event
			// (HTTP status codes are positive, so this cannot misfire).
			s, ok = a2a.ErrorByCode(f.code)
		}
		if ok {
			e.Kind = s.Kind
			e.Code = s.Code
			for _, t := range []a2a.ErrorTable{a2a.TableV100, a2a.TableV101} {
				if !inStream && s.HTTP[t] == httpStatus {
					e.Tables = append(e.Tables, t)
				}
			}
		}
	}
	return e
}

// parseErrorObject reads the members every error shape shares: an integer
// code, a string message, and either data (JSON-RPC) or status and details
// (google.rpc.Status). It fails when code is missing or not an integer, or
// message is not a string.
func parseErrorObject(raw json.RawMessage) (errorFields, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return errorFields{}, fmt.Errorf("error member is not a JSON object")
	}
	var f errorFields
	if c, ok := m["code"]; ok {
		var n json.Number
		// json.Number would also accept a quoted number; the code must be a
		// JSON number.
		if t := bytes.TrimSpace(c); len(t) == 0 || t[0] == '"' {
			return f, fmt.Errorf("error.code is not a number")
		}
		if err := json.Unmarshal(c, &n); err != nil {
			return f, fmt.Errorf("error.code is not a number")
		}
		i, err := n.Int64()
		if err != nil || i != int64(int32(i)) {
			return f, fmt.Errorf("error.code %s is not a 32-bit integer", n)
		}
		f.code, f.hasCode = int(i), true
	}
	if msg, ok := m["message"]; ok {
		if err := json.Unmarshal(msg, &f.message); err != nil {
			return f, fmt.Errorf("error.message is not a string")
		}
	}
	if s, ok := m["status"]; ok {
		_ = json.Unmarshal(s, &f.status)
	}
	if d, ok := m["data"]; ok {
		f.details = d
	}
	if d, ok := m["details"]; ok {
		f.details = d
	}
	return f, nil
}

// restErrorBody recognises the HTTP+JSON error body, {"error": google.rpc.Status}
// (spec §11.6), as the only member. ok is false when body is something else.
func restErrorBody(body []byte) (errorFields, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || len(m) != 1 {
		return errorFields{}, false
	}
	inner, ok := m["error"]
	if !ok {
		return errorFields{}, false
	}
	f, err := parseErrorObject(inner)
	if err != nil {
		return errorFields{}, false
	}
	return f, true
}

// eventErrorBody reads the data of a mid-stream error in any of the framings
// seen in practice: a JSON-RPC error response, {"error": Status-or-JSON-RPC
// error}, or a bare error object with code and message (a2a-js event: error).
func eventErrorBody(data []byte) (errorFields, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil || m == nil {
		return errorFields{}, false
	}
	if inner, ok := m["error"]; ok {
		f, err := parseErrorObject(inner)
		return f, err == nil
	}
	if _, ok := m["code"]; ok {
		f, err := parseErrorObject(data)
		return f, err == nil && f.hasCode
	}
	return errorFields{}, false
}

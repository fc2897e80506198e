package a2a

import "encoding/json"

// ErrorDomain is the google.rpc.ErrorInfo domain of every A2A error.
const ErrorDomain = "a2a-protocol.org"

// TypeErrorInfo and TypeBadRequest are the @type URLs of the detail objects.
const (
	TypeErrorInfo  = "type.googleapis.com/google.rpc.ErrorInfo"
	TypeBadRequest = "type.googleapis.com/google.rpc.BadRequest"
)

// ErrorKind names one A2A error type, e.g. "TaskNotFoundError".
type ErrorKind string

const (
	ErrTaskNotFound                   ErrorKind = "TaskNotFoundError"
	ErrTaskNotCancelable              ErrorKind = "TaskNotCancelableError"
	ErrPushNotificationNotSupported   ErrorKind = "PushNotificationNotSupportedError"
	ErrUnsupportedOperation           ErrorKind = "UnsupportedOperationError"
	ErrContentTypeNotSupported        ErrorKind = "ContentTypeNotSupportedError"
	ErrInvalidAgentResponse           ErrorKind = "InvalidAgentResponseError"
	ErrExtendedAgentCardNotConfigured ErrorKind = "ExtendedAgentCardNotConfiguredError"
	ErrExtensionSupportRequired       ErrorKind = "ExtensionSupportRequiredError"
	ErrVersionNotSupported            ErrorKind = "VersionNotSupportedError"
)

// ErrorTable names one revision's mapping of A2A errors to HTTP and gRPC codes.
type ErrorTable string

const (
	// TableV100 is the mapping of the v1.0.0 spec (and of the official TCK).
	TableV100 ErrorTable = "v1.0.0"
	// TableV101 is the mapping of v1.0.1 and main (PR #1627).
	TableV101 ErrorTable = "v1.0.1"
)

// ErrorSpec is one row of the spec's error table (A2A v1.0 §3.3.2).
type ErrorSpec struct {
	Kind   ErrorKind
	Code   int    // JSON-RPC code
	Reason string // google.rpc.ErrorInfo reason
	HTTP   map[ErrorTable]int
	GRPC   map[ErrorTable]string
}

// ErrorSpecs is the table of A2A-specific errors, identical in JSON-RPC code and
// reason across revisions, different in HTTP status and gRPC code.
var ErrorSpecs = []ErrorSpec{
	{ErrTaskNotFound, -32001, "TASK_NOT_FOUND",
		map[ErrorTable]int{TableV100: 404, TableV101: 404},
		map[ErrorTable]string{TableV100: "NOT_FOUND", TableV101: "NOT_FOUND"}},
	{ErrTaskNotCancelable, -32002, "TASK_NOT_CANCELABLE",
		map[ErrorTable]int{TableV100: 409, TableV101: 400},
		map[ErrorTable]string{TableV100: "FAILED_PRECONDITION", TableV101: "FAILED_PRECONDITION"}},
	{ErrPushNotificationNotSupported, -32003, "PUSH_NOTIFICATION_NOT_SUPPORTED",
		map[ErrorTable]int{TableV100: 400, TableV101: 400},
		map[ErrorTable]string{TableV100: "UNIMPLEMENTED", TableV101: "FAILED_PRECONDITION"}},
	{ErrUnsupportedOperation, -32004, "UNSUPPORTED_OPERATION",
		map[ErrorTable]int{TableV100: 400, TableV101: 400},
		map[ErrorTable]string{TableV100: "UNIMPLEMENTED", TableV101: "FAILED_PRECONDITION"}},
	{ErrContentTypeNotSupported, -32005, "CONTENT_TYPE_NOT_SUPPORTED",
		map[ErrorTable]int{TableV100: 415, TableV101: 400},
		map[ErrorTable]string{TableV100: "INVALID_ARGUMENT", TableV101: "INVALID_ARGUMENT"}},
	{ErrInvalidAgentResponse, -32006, "INVALID_AGENT_RESPONSE",
		map[ErrorTable]int{TableV100: 502, TableV101: 500},
		map[ErrorTable]string{TableV100: "INTERNAL", TableV101: "INTERNAL"}},
	{ErrExtendedAgentCardNotConfigured, -32007, "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
		map[ErrorTable]int{TableV100: 400, TableV101: 400},
		map[ErrorTable]string{TableV100: "FAILED_PRECONDITION", TableV101: "FAILED_PRECONDITION"}},
	{ErrExtensionSupportRequired, -32008, "EXTENSION_SUPPORT_REQUIRED",
		map[ErrorTable]int{TableV100: 400, TableV101: 400},
		map[ErrorTable]string{TableV100: "FAILED_PRECONDITION", TableV101: "FAILED_PRECONDITION"}},
	{ErrVersionNotSupported, -32009, "VERSION_NOT_SUPPORTED",
		map[ErrorTable]int{TableV100: 400, TableV101: 400},
		map[ErrorTable]string{TableV100: "UNIMPLEMENTED", TableV101: "FAILED_PRECONDITION"}},
}

// LookupError returns the table row for a kind.
func LookupError(k ErrorKind) (ErrorSpec, bool) {
	for _, s := range ErrorSpecs {
		if s.Kind == k {
			return s, true
		}
	}
	return ErrorSpec{}, false
}

// ErrorByCode returns the table row for a JSON-RPC code.
func ErrorByCode(code int) (ErrorSpec, bool) {
	for _, s := range ErrorSpecs {
		if s.Code == code {
			return s, true
		}
	}
	return ErrorSpec{}, false
}

// ErrorByReason returns the table row for an ErrorInfo reason.
func ErrorByReason(reason string) (ErrorSpec, bool) {
	for _, s := range ErrorSpecs {
		if s.Reason == reason {
			return s, true
		}
	}
	return ErrorSpec{}, false
}

// GRPCStatusByHTTP maps the canonical google.rpc.Code names an HTTP+JSON error
// body may carry in error.status. Used to build bodies, not to judge them.
var GRPCStatusByHTTP = map[int]string{
	400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
	404: "NOT_FOUND", 409: "ABORTED", 413: "INVALID_ARGUMENT", 415: "INVALID_ARGUMENT",
	429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 501: "UNIMPLEMENTED", 502: "INTERNAL",
	503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
}

// HTTPErrorBody is the HTTP+JSON error body: a google.rpc.Status under "error"
// (AIP-193, spec §11.6).
type HTTPErrorBody struct {
	Error *Status `json:"error"`
}

// Status is a google.rpc.Status as ProtoJSON writes it in AIP-193 bodies.
type Status struct {
	Code    int               `json:"code"`
	Status  string            `json:"status,omitempty"`
	Message string            `json:"message,omitempty"`
	Details []json.RawMessage `json:"details,omitempty"`
}

// ErrorInfo is a google.rpc.ErrorInfo detail with its Any @type.
type ErrorInfo struct {
	Type     string            `json:"@type"`
	Reason   string            `json:"reason"`
	Domain   string            `json:"domain"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

// NewErrorInfo builds the ErrorInfo detail for an A2A error kind.
func NewErrorInfo(k ErrorKind, metadata map[string]string) ErrorInfo {
	s, _ := LookupError(k)
	return ErrorInfo{Type: TypeErrorInfo, Reason: s.Reason, Domain: ErrorDomain, Metadata: metadata}
}

// FindErrorInfo returns the first ErrorInfo among Any-encoded details.
func FindErrorInfo(details []json.RawMessage) (ErrorInfo, bool) {
	for _, d := range details {
		var info ErrorInfo
		if json.Unmarshal(d, &info) == nil && info.Type == TypeErrorInfo {
			return info, true
		}
	}
	return ErrorInfo{}, false
}
